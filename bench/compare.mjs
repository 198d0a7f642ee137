#!/usr/bin/env node
// Two (or more) builds of the package compared in one headless Chromium page, alternated round by
// round with the peer (fetch + zod, bench/peer.js) and plain samplers: how a change to the client
// is measured step by step, on the same page and the same emulator, the paired ratio drift-proof.
//
//   node bench/compare.mjs [options] NAME=DIR [NAME=DIR ...] [raw] [shape] [send]
//
//   NAME=DIR        a build of the package (pkg/'s layout: estatekit.js, the .wasm), e.g.
//                   before=target/compare/before now=pkg
//   raw, shape      plain samplers: fetch + response.json(); the request as estatekit sends it,
//                   written in JavaScript (Request object, abort timer, no redirect, no
//                   credentials, bytes decoded and parsed); the first build's own request
//                   function (js/request.js's sendRequest) and JSON.parse, without the module
//   --in-page       every fetch answered in the page (the client's own work only)
//   --scenario S    listWebhooks (default; 10 records) or getDocument (1000 concurrent)
//   --rounds N      timed rounds per repeat (default 41), --repeats K (default 3),
//   --batch B       calls per sample (default 10; 200 suits --in-page)
//
// Prints, per repeat, each sampler's median per call, its ratio to the peer's median and the
// median of its per-round ratios to the peer (pair), and the pair ratio of the last build to the
// first. Figures are printed, never asserted. Needs `make bench-emulator`.
import { join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { buildSync } from "esbuild";
import { launchChromium, root, startEmulator } from "../scripts/local.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const inPage = args.includes("--in-page") && (args.splice(args.indexOf("--in-page"), 1), true);
const scenario = option("--scenario", "listWebhooks");
const rounds = Number(option("--rounds", 41));
const repeats = Number(option("--repeats", 3));
const batch = Number(option("--batch", scenario === "getDocument" ? 1 : 10));
const builds = args.filter((a) => a.includes("=")).map((a) => a.split("="));
const plain = args.filter((a) => a === "raw" || a === "shape" || a === "send");
if (builds.length === 0 || args.length !== builds.length + plain.length || !["listWebhooks", "getDocument"].includes(scenario)) {
  console.error("usage: node bench/compare.mjs [--in-page] [--scenario listWebhooks|getDocument] [--rounds N] [--repeats K] [--batch B] NAME=DIR ... [raw] [shape] [send]");
  process.exit(2);
}
for (const [name, dir] of builds) {
  if (!/^[a-z][a-z0-9-]*$/i.test(name) || ["peer", "raw", "shape", "send"].includes(name)) throw new Error(`bad build name ${name}`);
  if (!existsSync(join(dir, "estatekit.js"))) throw new Error(`${dir} has no estatekit.js (a pkg/ build)`);
}

const peerDir = join(root, "target", "compare", "peer");
buildSync({ entryPoints: [join(root, "bench", "peer.js")], bundle: true, format: "esm", minify: true, outfile: join(peerDir, "peer.js"), logLevel: "warning" });
const statics = builds.flatMap(([name, dir]) => ["--static", `/${name}=${resolve(dir)}`]);
const emulator = await startEmulator(
  ["--rate-limit", "0", "--seed-documents", "10000", "--static", join("bench", "compare"), "--static", `/peer=${peerDir}`, ...statics],
  { bin: process.env.ESTATEKIT_EMULATOR_BIN ?? join(root, "target", "bench-emulator", "estatekit-emulator") },
);
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const us = (ms) => `${(ms * 1000).toFixed(1)} us`;
let browser;
try {
  browser = await launchChromium(["--js-flags=--expose-gc"]);
  const page = await browser.newPage();
  await page.goto(`${emulator.url}/index.html`);
  await page.waitForFunction(() => window.compareReady === true);
  const names = builds.map(([name]) => name);
  await page.evaluate(([n, p]) => window.compare.setup(n, { inPage: p }), [names, inPage]);
  const samplers = ["peer", ...plain, ...names];
  console.log(`${scenario}${inPage ? ", fetch answered in the page" : ", against the emulator"}: ${rounds} rounds x ${batch} calls, ${repeats} repeats`);
  for (let r = 0; r < repeats; r++) {
    const out = await page.evaluate(([s, o]) => window.compare.run(s, o), [samplers, { scenario, rounds, warmup: 5, batch }]);
    const peer = median(out.peer);
    const line = [`peer ${us(peer)}`];
    for (const s of samplers.slice(1)) {
      line.push(`${s} ${us(median(out[s]))} (${(median(out[s]) / peer).toFixed(3)}, pair ${median(out[s].map((v, i) => v / out.peer[i])).toFixed(3)})`);
    }
    if (names.length > 1) {
      const [a, b] = [names[0], names[names.length - 1]];
      line.push(`${b}/${a} pair ${median(out[b].map((v, i) => v / out[a][i])).toFixed(3)}`);
    }
    console.log(line.join(" | "));
  }
} finally {
  await browser?.close();
  await emulator.stop();
}
