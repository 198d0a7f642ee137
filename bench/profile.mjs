#!/usr/bin/env node
// Where a call's time goes (`make profile`): runs one scenario of bench/bench.js in headless
// Chromium under the V8 CPU profiler, with the names-kept build of the package (target/pkg-named,
// `make pkg-named`: the same module, function names not stripped), and prints the profile's
// self time split into the phases of a call. Each function is put in a phase by its name; what no
// rule names is "other JS" / "other wasm". Idle time (waiting for the emulator) is shown apart.
//
//   node bench/profile.mjs [scenario] [calls]      scenario: listWebhooks (default) | listDocuments | messages
//
// The estatekit sampler runs `calls` times (after warm-up); with PROFILE_MODE=peer or baseline the
// same is done for the validated peer or raw fetch, for comparison.
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { launchChromium, root, startEmulator } from "../scripts/local.mjs";

const scenario = process.argv[2] ?? "listWebhooks";
const calls = Number(process.argv[3] ?? (scenario === "listWebhooks" ? 300 : 10));
const mode = process.env.PROFILE_MODE ?? "estatekit";

// Phase rules, first match wins: [phase, test of the function name and URL].
const PHASES = [
  ["arguments (options read, unknown keys)", (f) => /web::js::(input|required|optional|unknown_key)|ClientOptions|CallOptions|ListDocumentsQuery|MessagesOptions|MessageFilter|UploadOptions|RegisterWebhookInput|JsHandle|preserve/.test(f)],
  ["validate (serde decode of the answer)", (f) => /serde_path_to_error|serde_wasm_bindgen::de|serde_core::de|model::(webhooks|documents|messages)|api::status::decode|decode_list|decode_record|decode_data|document_list|webhook_list|webhooks_of|static_str_to_js|Deserialize|Visitor/.test(f)],
  ["events", (f) => /web::events|ClientEvent|to_js|ser::/.test(f)],
  ["request (build, headers, abort guard)", (f) => /gloo_net|transport::(via_fetch|body_of|json_text|send)|AbortGuard|AbortController|Headers|Request|set_timeout|setTimeout|clearTimeout|url::BaseUrl|api::(webhooks|documents|messages)::.*request/.test(f)],
  ["body read (bytes, UTF-8 decode)", (f) => /arrayBuffer|TextDecoder|decode$|utf8_text|binary|text$/.test(f)],
  ["parse (JSON.parse)", (f) => /^parse$|JSON|parse_json|json$/.test(f)],
  ["promise and futures", (f) => /wasm_bindgen_futures|JsFuture|Promise|then|queueMicrotask|future_to_promise|closure|Closure|__wbg_adapter|promise|run_simple|execute/.test(f)],
  ["fetch (the browser's network stack)", (f) => /^fetch$/.test(f)],
  ["allocator", (f) => /dlmalloc|malloc|free|realloc|__rust_(alloc|dealloc)/.test(f)],
];

const PKG_NAMED = join(root, "target", "pkg-named");
const STAGE = join(root, "target", "bench", "profile-pkg");

async function main() {
  if (!existsSync(join(PKG_NAMED, "estatekit.js"))) throw new Error("no target/pkg-named: run `make pkg-named` first");
  rmSync(STAGE, { recursive: true, force: true });
  cpSync(PKG_NAMED, STAGE, { recursive: true });
  const peerOut = join(root, "target", "bench", "profile-peer", "peer.js");
  buildSync({ entryPoints: [join(root, "bench", "peer.js")], bundle: true, format: "esm", minify: true, outfile: peerOut, logLevel: "warning" });
  const bin = process.env.ESTATEKIT_EMULATOR_BIN ?? join(root, "target", "bench-emulator", "estatekit-emulator");
  const emulator = await startEmulator(["--rate-limit", "0", "--seed-messages", "20000", "--seed-documents", "10000",
    "--static", "bench", "--static", `/pkg=${STAGE}`, "--static", `/peer=${join("target", "bench", "profile-peer")}`], { bin });
  const browser = await launchChromium(["--js-flags=--expose-gc"]);
  try {
    const page = await browser.newPage();
    await page.goto(`${emulator.url}/index.html`);
    await page.waitForFunction(() => window.benchReady === true);
    await page.evaluate(() => window.bench.setup());
    await page.evaluate((s) => window.bench.run(s, { warmup: 3, runs: 1 }), scenario); // prepare + warm up
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    const wall = await page.evaluate(async ({ s, n, m }) => {
      const sampler = window.bench.sampler(s, m);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await sampler();
      return performance.now() - t0;
    }, { s: scenario, n: calls, m: mode });
    const { profile } = await cdp.send("Profiler.stop");
    report(profile, wall, calls);
  } finally {
    await browser.close();
    await emulator.stop();
  }
}

function report(profile, wallMs, n) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (dt[i + 1] ?? 0) / 1000;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + ms);
  }
  const phases = new Map();
  const top = new Map();
  for (const [id, ms] of self) {
    const { functionName, url } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    let phase;
    if (["(idle)", "(program)", "(garbage collector)", "(root)"].includes(name)) phase = name;
    else phase = PHASES.find(([, test]) => test(name))?.[0] ?? (url.includes("wasm") || /::|^\$/.test(name) ? "other wasm" : "other JS");
    phases.set(phase, (phases.get(phase) ?? 0) + ms);
    const key = `${phase} | ${name}`;
    top.set(key, (top.get(key) ?? 0) + ms);
  }
  const per = (ms) => ((ms / n) * 1000).toFixed(1).padStart(9);
  console.log(`${scenario} (${mode}), ${n} calls, ${(wallMs / n).toFixed(3)} ms per call (wall); profiler self time per call:`);
  console.log(`${"phase".padEnd(42)} ${"us/call".padStart(9)}`);
  for (const [phase, ms] of [...phases].sort((a, b) => b[1] - a[1])) console.log(`${phase.padEnd(42)} ${per(ms)}`);
  console.log("\ntop functions (us/call):");
  for (const [key, ms] of [...top].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${per(ms)}  ${key.slice(0, 150)}`);
}

main().catch((e) => {
  console.error(`profile: ${e.stack ?? e}`);
  process.exit(1);
});
