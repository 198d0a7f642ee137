#!/usr/bin/env node
// estatekit benchmark runner. Starts the emulator on a free loopback port, serving bench/ at /,
// a snapshot of pkg/ at /pkg/ and the validated peer (bench/peer.js bundled with zod by esbuild)
// at /peer/, runs the scenarios of bench/bench.js in headless Chromium, prints a table (scenario,
// raw, peer and estatekit medians, estatekit / peer, estatekit / raw, budget, result) and writes
// it as JSON to target/bench/results.json. pkg/ is copied to target/bench/pkg first, so that a
// rebuild of pkg/ during the run (the working tree is shared) cannot mix two builds in one table.
// Timings are reported, never asserted: the exit status is 0 whenever the benchmark ran, whatever
// the figures.
//
// Environment: ESTATEKIT_EMULATOR_BIN (default: target/bench-emulator/estatekit-emulator, then
// target/release/..., then target/debug/...), BENCH_SCALE (multiplies the run counts, default 1),
// BENCH_ONLY (comma list of scenario ids to run, e.g. "listWebhooks,coldStart"), BENCH_PKG (another
// built package directory to measure instead of pkg/, e.g. an experiment's), BENCH_FLOOR (another
// build of the stack floor than target/bench-floor/, which scripts/build-floor.sh makes).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { constants, gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, startEmulator } from "../scripts/local.mjs";
import { measure as measureSize } from "../scripts/size.mjs";
import { buildSync } from "esbuild";
import { execFileSync } from "node:child_process";
import { writeSection } from "../scripts/figures.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scale = Number(process.env.BENCH_SCALE ?? 1);
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : null;
const n = (count) => Math.max(1, Math.round(count * scale));

// Run counts: chosen so that the whole run takes ~5 minutes on the 2-core machine.
// Each timed round = one raw (baseline) sample + one peer sample + one estatekit sample.
// Budgets (issue 17) are ratios of estatekit's median to the peer's (`against: "peer"`), except
// the upload's, which is against raw fetch (the peer's upload is the same FormData request), and
// listWebhooksOtel's (issue 46), against the same build uninstrumented, which that scenario runs
// in the peer's slot (`against: "uninstrumented"`), and listWebhooksFloor's (issue 63), against the
// stack floor (bench/floor/), a fourth sampler of that scenario (`against: "floor"`; its raw and
// peer samplers run beside it as in every row).
const PLAN = [
  { id: "listWebhooks", title: "listWebhooks (10 records)", budget: 1.05, against: "peer", warmup: 5, runs: 41, note: "per call, 10 sequential calls per sample" },
  { id: "listWebhooksObserved", title: "  the same with a no-op onEvent", budget: null, against: "peer", warmup: 5, runs: 41, note: "per call; compare with the row above" },
  // Its `peer` column is the same build's Client uninstrumented (bench/otel.js).
  { id: "listWebhooksOtel", title: "  instrumented (estatekit/otel, exporters that drop)", budget: 1.03, against: "uninstrumented", warmup: 5, runs: 41, note: "per call; peer = the same build uninstrumented" },
  // The SDK's own cost (spans and a point written by hand around a raw fetch) against the raw
  // fetch: the floor under listWebhooksOtel's budget, reported.
  { id: "otelFloor", title: "  the SDK alone around a raw fetch (the floor of the row above)", budget: null, against: "uninstrumented", warmup: 5, runs: 41, note: "per call; peer = the same raw fetch untraced" },
  // The stack floor (bench/floor/, issue 63): the same request sent and read by the stack's crates
  // alone, built as the shipped module is. The row is listWebhooks against it; the floor's own
  // median is the line under it. 121 rounds, not 41: the budget is 3 % and five runs of 41 rounds
  // spread over 6 % (bench/README.md, "The stack floor"); the row takes about 25 s.
  { id: "listWebhooksFloor", title: "listWebhooks against the stack floor", budget: 1.03, against: "floor", warmup: 5, runs: 121, note: "per call; the budget against the floor (bench/floor/)" },
  { id: "listDocuments", title: "listDocuments (10,000 records)", budget: 1.1, against: "peer", warmup: 3, runs: 21 },
  { id: "messages", title: "messages (20,000, with attachments)", budget: 1.1, against: "peer", warmup: 3, runs: 21 },
  { id: "uploadDocument", title: "uploadDocument (64 MB Blob)", budget: 1.02, against: "raw", warmup: 2, runs: 15 },
  { id: "coldStart", title: "cold start (import, new Client, first listWebhooks)", budget: 1.3, against: "peer", runs: 11 },
  { id: "coldStartNode", title: "cold start in Node (a fresh process: import, first listWebhooks)", budget: null, against: "peer", runs: 11 },
  { id: "getDocument", title: "getDocument x1000 concurrent", budget: 1.05, against: "peer", warmup: 2, runs: 15 },
];
const MEMORY_BUDGET = 1024 * 1024; // wasm linear memory growth during the upload

// gc() between samples (outside the timing), so one sample's garbage is not collected in the next.
const EXTRA_CHROMIUM_ARGS = [`--js-flags=--expose-gc${process.env.BENCH_JS_FLAGS ? ` ${process.env.BENCH_JS_FLAGS}` : ""}`];

function emulatorBin() {
  if (process.env.ESTATEKIT_EMULATOR_BIN) return process.env.ESTATEKIT_EMULATOR_BIN;
  for (const profile of ["bench-emulator", "release", "debug"]) {
    const p = join(root, "target", profile, "estatekit-emulator");
    if (existsSync(p)) return p;
  }
  throw new Error("no estatekit-emulator binary: run `cargo build -p estatekit-emulator --profile bench-emulator`");
}

const PKG_SNAPSHOT = join("target", "bench", "pkg");
const PEER_BUNDLE = join("target", "bench", "peer");
const APP_BUNDLE = join("target", "bench", "app");
const OTEL_BUNDLE = join("target", "bench", "otel");
const FLOOR_SNAPSHOT = join("target", "bench", "floor");
const EMULATOR_FLAGS = ["--rate-limit", "0", "--seed-messages", "20000",
  "--seed-documents", "10000", "--static", "bench", "--static", `/pkg=${PKG_SNAPSHOT}`,
  "--static", `/peer=${PEER_BUNDLE}`, "--static", `/app=${APP_BUNDLE}`, "--static", `/otel=${OTEL_BUNDLE}`,
  "--static", `/floor=${FLOOR_SNAPSHOT}`];

/** Bundles bench/peer.js with zod (minified, as an app ships it); returns its gzip size. */
function bundlePeer() {
  const outfile = join(root, PEER_BUNDLE, "peer.js");
  rmSync(join(root, PEER_BUNDLE), { recursive: true, force: true });
  buildSync({ entryPoints: [join(root, "bench", "peer.js")], bundle: true, format: "esm", minify: true, outfile, logLevel: "warning" });
  const bytes = readFileSync(outfile);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length };
}

/**
 * The package as an app ships it, for the cold start's user path: `import { Client } from
 * "estatekit"` bundled by esbuild (minified, code splitting on, as the peer is bundled), the
 * .wasm file copied next to the bundle (where `new URL(file, import.meta.url)` finds it; esbuild
 * emits no asset for it). The embedded fallback stays a chunk of its own, never loaded here.
 */
function bundleApp() {
  const outdir = join(root, APP_BUNDLE);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const pkg = join(root, PKG_SNAPSHOT);
  buildSync({
    stdin: { contents: `export { Client } from ${JSON.stringify(join(pkg, "estatekit.js"))};`, resolveDir: root, loader: "js" },
    bundle: true, splitting: true, format: "esm", minify: true, outdir, entryNames: "estatekit", logLevel: "warning",
  });
  cpSync(join(pkg, "estatekit_wasm_bg.wasm"), join(outdir, "estatekit_wasm_bg.wasm"));
}

/**
 * Bundles bench/otel.js (the OpenTelemetry SDK, and estatekit/otel from the pkg/ snapshot) into
 * target/bench/otel/otel.js; the page's Client is the snapshot's main entry (`/pkg/estatekit.js`),
 * which estatekit/otel never imports.
 * Skipped, with the reason, when the snapshot has no estatekit/otel.
 */
function bundleOtel() {
  const outfile = join(root, OTEL_BUNDLE, "otel.js");
  rmSync(join(root, OTEL_BUNDLE), { recursive: true, force: true });
  const entry = join(root, PKG_SNAPSHOT, "otel.js");
  if (!existsSync(entry)) return `no ${join(PKG_SNAPSHOT, "otel.js")}`;
  const { metafile } = buildSync({
    entryPoints: [join(root, "bench", "otel.js")],
    bundle: true,
    format: "esm",
    minify: true,
    alias: { "estatekit/otel": entry },
    metafile: true,
    outfile,
    logLevel: "warning",
  });
  // estatekit/otel imports nothing of the main entry: a copy of it in this bundle would be a
  // second build of the client in the page.
  const copied = Object.keys(metafile.inputs).filter((p) => /(^|\/)(estatekit|client|loader)\.js$|_wasm/.test(p));
  if (copied.length) throw new Error(`bench/otel.js's bundle holds the main entry's files: ${copied.join(", ")}`);
  return null;
}

/**
 * Copies the stack floor's build (target/bench-floor/, scripts/build-floor.sh; BENCH_FLOOR for
 * another) to target/bench/floor/, as pkg/ is copied. Returns the reason it is missing, or null.
 */
function snapshotFloor() {
  const from = process.env.BENCH_FLOOR ?? join(root, "target", "bench-floor");
  const to = join(root, FLOOR_SNAPSHOT);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  if (!existsSync(join(from, "estatekit_bench_floor.js"))) return `no ${join(from, "estatekit_bench_floor.js")}: run scripts/build-floor.sh (make bench-floor)`;
  cpSync(from, to, { recursive: true });
  return null;
}

function snapshotPkg() {
  const from = process.env.BENCH_PKG ?? join(root, "pkg");
  if (!existsSync(join(from, "estatekit.js"))) throw new Error("no pkg/estatekit.js: run `make pkg` first");
  const to = join(root, PKG_SNAPSHOT);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return createHash("sha256").update(readFileSync(join(to, "estatekit_wasm_bg.wasm"))).digest("hex");
}

// --- statistics ---------------------------------------------------------------------------
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const r = (v) => Math.round(v * 1000) / 1000;
  return { n: s.length, median: r(quantile(s, 0.5)), p25: r(quantile(s, 0.25)), p75: r(quantile(s, 0.75)), min: r(s[0]), max: r(s[s.length - 1]) };
}
const ratioOf = (a, b) => Math.round((a / b) * 1000) / 1000;
// Median of the ratios of the two samples of each round: less sensitive to load drifting
// between the beginning and the end of a scenario (the machine is shared).
const pairRatio = (a, b) => ratioOf(stats(a.map((v, i) => v / b[i])).median, 1);

// --- browser ------------------------------------------------------------------------------
async function openPage(context, url) {
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`  [page error] ${e.message}`));
  await page.goto(`${url}/index.html`);
  await page.waitForFunction(() => window.benchReady === true);
  return page;
}

async function runPaired(browser, url, item) {
  // A fresh context and page per scenario: each starts from a freshly initialised module, so
  // one scenario's heap or wasm memory does not carry over into the next.
  const context = await browser.newContext();
  try {
    const page = await openPage(context, url);
    await page.evaluate(() => window.bench.setup());
    const r = await page.evaluate(({ id, warmup, runs }) => window.bench.run(id, { warmup, runs }),
      { id: item.id, warmup: n(item.warmup), runs: n(item.runs) });
    return { ...compare(r, item), prepared: r.prepared, extra: r.extra };
  } finally {
    await context.close();
  }
}

/**
 * The statistics of the three samplers, and estatekit's ratios: to the peer and to raw (of the
 * medians), and the median of the per-round ratios to the budget's reference.
 */
function compare(samples, item) {
  const baseline = stats(samples.baseline);
  const peer = stats(samples.peer);
  const estatekit = stats(samples.estatekit);
  // The budget's reference: raw fetch, the stack floor (a fourth sampler), or the peer's slot
  // (where "uninstrumented" runs).
  const slot = item.against === "raw" ? "baseline" : item.against === "floor" ? "floor" : "peer";
  if (!samples[slot]) throw new Error(`${item.id}: no ${slot} samples`);
  const floor = samples.floor ? stats(samples.floor) : undefined;
  return {
    baseline, peer, estatekit,
    ...(floor ? { floor } : {}),
    ratioPeer: ratioOf(estatekit.median, peer.median),
    ratioRaw: ratioOf(estatekit.median, baseline.median),
    ratio: ratioOf(estatekit.median, stats(samples[slot]).median),
    pairRatio: pairRatio(samples.estatekit, samples[slot]),
    // The floor against the peer and raw fetch, and the peer's paired ratio to the floor: what the
    // stack alone costs, beside what the client costs.
    ...(floor ? {
      floorRatioPeer: ratioOf(floor.median, peer.median),
      floorRatioRaw: ratioOf(floor.median, baseline.median),
      peerPairToFloor: pairRatio(samples.peer, samples.floor),
    } : {}),
    samples: { baseline: samples.baseline, peer: samples.peer, estatekit: samples.estatekit, ...(samples.floor ? { floor: samples.floor } : {}) },
  };
}

const MODES = ["baseline", "peer", "estatekit"];

async function runColdStart(browser, url, item) {
  // A fresh browser context (empty HTTP and code caches) and page for every sample. `phases` is
  // the same work with the loading split apart: reported, not compared.
  const samples = { baseline: [], peer: [], estatekit: [], phases: [] };
  const parts = { import: [], wasmFetched: [], firstCall: [] };
  const phaseParts = { import: [], compile: [], instantiate: [], firstCall: [] };
  const peerParts = { import: [], firstCall: [] };
  const modes = [...MODES, "phases"];
  const runs = n(item.runs);
  for (let i = 0; i < runs + 1; i++) {
    const order = modes.map((_, k) => modes[(i + k) % modes.length]);
    for (const mode of order) {
      const context = await browser.newContext();
      try {
        const page = await openPage(context, url);
        const r = await page.evaluate((m) => window.bench.coldStart(m), mode);
        if (i === 0) continue; // first round: warm-up of the browser process itself
        samples[mode].push(r.total);
        if (mode === "estatekit") for (const k of Object.keys(parts)) parts[k].push(r[k]);
        if (mode === "phases") for (const k of Object.keys(phaseParts)) phaseParts[k].push(r[k]);
        if (mode === "peer") for (const k of Object.keys(peerParts)) peerParts[k].push(r[k]);
      } finally {
        await context.close();
      }
    }
  }
  const medians = (p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, stats(v).median]));
  return {
    ...compare(samples, item),
    extra: { estatekitBreakdownMedianMs: medians(parts), phasesMedianMs: { total: stats(samples.phases).median, ...medians(phaseParts) }, peerBreakdownMedianMs: medians(peerParts) },
  };
}

/**
 * Node's cold start: a fresh `node` process per sample (bench/node-cold.mjs), the modes
 * alternated; the process's own start is outside the timing (both pay it alike).
 */
async function runColdStartNode(url, item) {
  const samples = { baseline: [], peer: [], estatekit: [] };
  const parts = { import: [], firstCall: [] };
  const peerParts = { import: [], firstCall: [] };
  const script = join(root, "bench", "node-cold.mjs");
  const runs = n(item.runs);
  for (let i = 0; i < runs + 1; i++) {
    const order = MODES.map((_, k) => MODES[(i + k) % MODES.length]);
    for (const mode of order) {
      const out = execFileSync(process.execPath, [script, mode, url, join(root, PKG_SNAPSHOT), join(root, PEER_BUNDLE, "peer.js")], { encoding: "utf8" });
      const r = JSON.parse(out.trim().split("\n").pop());
      if (i === 0) continue; // first round: the OS's file cache
      samples[mode].push(r.total);
      if (mode === "estatekit") for (const k of Object.keys(parts)) parts[k].push(r[k]);
      if (mode === "peer") for (const k of Object.keys(peerParts)) peerParts[k].push(r[k]);
    }
  }
  const medians = (p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, stats(v).median]));
  return { ...compare(samples, item), extra: { estatekitBreakdownMedianMs: medians(parts), peerBreakdownMedianMs: medians(peerParts) } };
}

// --- table --------------------------------------------------------------------------------
function fmtMs(v) {
  return Number.isFinite(v) ? `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms` : "-";
}
function fmtBytes(v) {
  return v >= 1024 * 1024 ? `${(v / 1048576).toFixed(1)} MiB` : v >= 1024 ? `${(v / 1024).toFixed(0)} KiB` : `${v} B`;
}

const budgetText = (r) => (r.budget == null ? "none" : `<= ${r.budget.toFixed(2)} ${r.against}`);

function rowsOf(results) {
  const rows = [];
  for (const r of results) {
    if (r.error) {
      rows.push([r.title, "-", "-", "-", "-", "-", "-", budgetText(r), "ERROR"]);
      continue;
    }
    const verdict = r.budget == null ? "report" : r.ratio <= r.budget ? "pass" : "MISS";
    rows.push([r.title, fmtMs(r.baseline.median), fmtMs(r.peer.median), fmtMs(r.estatekit.median),
      `${r.ratioPeer.toFixed(2)}x`, `${r.ratioRaw.toFixed(2)}x`, `${r.pairRatio.toFixed(2)}x`, budgetText(r), verdict]);
    if (r.floor) {
      // The floor's median, / peer and / raw; the title gives estatekit's median over the floor's
      // (the row above's budget applies to it; its pair column is the paired ratio to the floor).
      rows.push([`  the stack floor (bench/floor/); estatekit / floor ${r.ratio.toFixed(3)}x`, "", "", fmtMs(r.floor.median),
        `${r.floorRatioPeer.toFixed(2)}x`, `${r.floorRatioRaw.toFixed(2)}x`, "", "", "report"]);
    }
    if (r.id === "uploadDocument") {
      const g = r.extra.memoryGrowth;
      rows.push(["  wasm memory growth during upload", "", "", fmtBytes(g), "", "", "", "< 1 MiB", g < MEMORY_BUDGET ? "pass" : "MISS"]);
    }
    if (r.id === "listDocuments" && r.extra.bodyBytes) {
      const { memoryBefore, memoryAfter, bodyBytes } = r.extra;
      const growth = memoryAfter - memoryBefore;
      rows.push([`  wasm memory growth: the samples + 100 calls (body ${fmtBytes(bodyBytes)})`, "", "", fmtBytes(growth), "", "", "",
        "<= 2 x body", growth <= 2 * bodyBytes ? "pass" : "MISS"]);
    }
    if (r.id === "getDocument") {
      const f = r.extra.failures;
      rows.push(["  failures (all samples)", String(f.baseline), String(f.peer), String(f.estatekit), "", "", "", "0", f.estatekit === 0 ? "pass" : "MISS"]);
    }
    if (r.id === "coldStart" || r.id === "coldStartNode") {
      const b = r.extra.estatekitBreakdownMedianMs;
      const p = r.extra.peerBreakdownMedianMs;
      rows.push(["  peer: import / 1st call", "", `${fmtMs(p.import)} / ${fmtMs(p.firstCall)}`, "", "", "", "", "", ""]);
      if (r.id === "coldStart") {
        const f = r.extra.phasesMedianMs;
        rows.push(["  estatekit: import / 1st call (.wasm fetched after)", "", "", `${fmtMs(b.import)} / ${fmtMs(b.firstCall)} (${fmtMs(b.wasmFetched)})`, "", "", "", "", ""]);
        rows.push(["  split apart: import / compile / instantiate / 1st call = total", "", "", `${fmtMs(f.import)} / ${fmtMs(f.compile)} / ${fmtMs(f.instantiate)} / ${fmtMs(f.firstCall)} = ${fmtMs(f.total)}`, "", "", "", "", "report"]);
      } else {
        rows.push(["  estatekit: import / 1st call", "", "", `${fmtMs(b.import)} / ${fmtMs(b.firstCall)}`, "", "", "", "", ""]);
      }
    }
  }
  return rows;
}

/** The table's lines (a Markdown table, aligned). */
function tableLines(rows) {
  const head = ["scenario", "raw", "peer", "estatekit", "/ peer", "/ raw", "pair", "budget", "result"];
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  return [line(head), `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`, ...rows.map(line)];
}

// --- main ---------------------------------------------------------------------------------
async function main() {
  const started = Date.now();
  const load = { start: loadavg() };
  const wasmSha256 = snapshotPkg();
  const peerBundle = bundlePeer();
  bundleApp();
  const otelMissing = bundleOtel();
  const floorMissing = snapshotFloor();
  const bin = emulatorBin();
  const { child, url } = await startEmulator(EMULATOR_FLAGS, { bin });
  const stopEmulator = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.on("exit", stopEmulator);
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stopEmulator(); process.exit(130); });
  console.error(`bench: emulator ${bin} at ${url}`);

  const browser = await launchChromium(EXTRA_CHROMIUM_ARGS);
  const chromiumVersion = browser.version();
  const results = [];
  try {
    for (const item of PLAN) {
      if (only && !only.has(item.id)) continue;
      if ((item.id === "listWebhooksOtel" || item.id === "otelFloor") && otelMissing) {
        console.error(`bench: ${item.id} skipped: ${otelMissing}`);
        continue;
      }
      if (item.against === "floor" && floorMissing) {
        console.error(`bench: ${item.id} skipped: ${floorMissing}`);
        continue;
      }
      const t0 = Date.now();
      console.error(`bench: ${item.id} ...`);
      let r;
      try {
        r = item.id === "coldStart" ? await runColdStart(browser, url, item)
          : item.id === "coldStartNode" ? await runColdStartNode(url, item)
          : await runPaired(browser, url, item);
      } catch (e) {
        r = { error: String(e.message ?? e).split("\n")[0] };
        console.error(`bench: ${item.id} failed: ${r.error}`);
      }
      results.push({ id: item.id, title: item.title, budget: item.budget, against: item.against, note: item.note, ...r });
      if (!r.error) console.error(`bench: ${item.id}: raw ${fmtMs(r.baseline.median)}, peer ${fmtMs(r.peer.median)}, estatekit ${fmtMs(r.estatekit.median)}, / peer ${r.ratioPeer}, / raw ${r.ratioRaw} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await browser.close();
    stopEmulator();
  }

  let size = null;
  try {
    size = measureSize(new URL(`file://${join(root, PKG_SNAPSHOT)}/`));
  } catch {
    // no pkg: size left out
  }
  const rows = rowsOf(results);
  console.log("");
  const table = tableLines(rows);
  for (const l of table) console.log(l);
  if (size) {
    const parts = size.files.map((f) => `${f.name} ${f.gzip}`).join(" + ");
    console.log(`\nsize (gzip -9): ${parts} = ${size.total} bytes (budget ${size.budget}: ${size.pass ? "pass" : `MISS by ${size.total - size.budget}`})`);
  }
  console.log(`peer bundle (bench/peer.js + zod, esbuild --minify, gzip -9): ${peerBundle.gzip} bytes`);
  const seconds = Math.round((Date.now() - started) / 1000);
  load.end = loadavg();
  const la = (v) => v.map((x) => x.toFixed(1)).join(" ");
  console.log(`\n${cpus().length} CPUs (load average ${la(load.start)} at start, ${la(load.end)} at end), Chromium ${chromiumVersion}, ${seconds} s.`);
  console.log("/ peer, / raw = estatekit median / the peer's, raw fetch's median; the budget applies to the one it names;");
  console.log("pair = median of the per-round ratios to that one (drift-resistant).");
  const floorRow = results.find((r) => r.against === "floor" && !r.error);
  if (floorRow) {
    console.log(`${floorRow.id}: estatekit / the stack floor ${floorRow.ratio.toFixed(3)}x (pair ${floorRow.pairRatio.toFixed(3)}x, budget ${floorRow.budget}), / peer ${floorRow.ratioPeer.toFixed(3)}x beside it; the floor / peer ${floorRow.floorRatioPeer.toFixed(3)}x.`);
  }
  if (results.some((r) => r.id === "listWebhooksOtel" && !r.error)) {
    const otel = results.find((r) => r.id === "listWebhooksOtel");
    console.log(`listWebhooksOtel: its peer column is the same build's Client uninstrumented, its / peer the ratio the budget applies to (spans exported: ${otel.extra?.spansExported}).`);
  }
  console.log(`wasm sha256 ${wasmSha256.slice(0, 16)}...`);

  const outDir = join(root, "target", "bench");
  mkdirSync(outDir, { recursive: true });
  const json = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: load, node: process.version, chromium: chromiumVersion },
    pkg: { snapshot: PKG_SNAPSHOT, wasmSha256 },
    floor: floorMissing ? { missing: floorMissing } : { snapshot: FLOOR_SNAPSHOT, wasmSha256: createHash("sha256").update(readFileSync(join(root, FLOOR_SNAPSHOT, "estatekit_bench_floor_bg.wasm"))).digest("hex") },
    peerBundle,
    emulator: { bin, flags: EMULATOR_FLAGS },
    scale,
    durationSeconds: seconds,
    scenarios: results.map((r) => ({
      ...r,
      result: r.error ? "error" : r.budget == null ? "report" : r.ratio <= r.budget ? "pass" : "miss",
      ...(r.id === "uploadDocument" && !r.error ? { memoryBudgetBytes: MEMORY_BUDGET, memoryResult: r.extra.memoryGrowth < MEMORY_BUDGET ? "pass" : "miss" } : {}),
    })),
    table: rows,
    size,
  };
  writeFileSync(join(outDir, "results.json"), JSON.stringify(json, null, 2) + "\n");
  console.log(`results: ${join("target", "bench", "results.json")}`);
  // The latest speed table of the package itself (a full run on pkg/) is a current figure:
  // docs/figures.md keeps it. Runs of a part, another package or another scale are experiments.
  if (!only && !process.env.BENCH_PKG && scale === 1 && results.every((r) => !r.error)) {
    let commit = "";
    try {
      commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    } catch {
      // not a checkout: no commit named
    }
    const when = `${json.date.slice(0, 10)}${commit ? ` at commit ${commit}` : ""}`;
    writeSection("bench", [
      `The latest \`make bench\` (${when}): headless Chromium ${chromiumVersion} against the local emulator, ${cpus().length} CPUs (load average ${la(load.start)} at the start, ${la(load.end)} at the end), ${seconds} s. \`/ peer\` is estatekit's median over the peer's (\`fetch\` + zod 4); \`pair\` the median of the per-round ratios. Expect run-to-run differences of up to ~10 % on a shared 2-core machine.`,
      "",
      ...table,
    ].join("\n"));
    console.log("docs/figures.md: speed section written");
  }
}

main().catch((e) => {
  console.error(`bench: ${e.stack ?? e}`);
  process.exit(1);
});
