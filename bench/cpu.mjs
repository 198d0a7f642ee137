#!/usr/bin/env node
// Where a listWebhooks call's CPU goes, by process (Linux only: /proc): blocks of calls of the
// package's client, of its own request function alone (js/request.js's `sendRequest` and
// `JSON.parse`: the client without its WebAssembly half) and of raw `fetch` + `json()`, alternated
// in one headless Chromium page against the optimised emulator; after each block the CPU time of
// the renderer, the browser process, the network service and the emulator is read from /proc.
// On a machine where the sum of those exceeds the wall time (2 cores: the browser's processes and
// the emulator compete), the renderer's CPU per call is what a call costs.
//
//   node bench/cpu.mjs [blocks] [calls per block]      (defaults 10 x 300; pkg/ must be built)
//
// Prints microseconds per call: wall, then each process's CPU. Figures are printed, never
// asserted. Needs `make bench-emulator` (target/bench-emulator/estatekit-emulator).
import { readFileSync, readdirSync } from "node:fs";
import { openWebhooksPage } from "./webhooks-page.mjs";

const blocks = Number(process.argv[2] ?? 10);
const calls = Number(process.argv[3] ?? 300);

/** CPU time (ms) of the running Chromium processes by type, and of the emulator. */
function cpuByProcess() {
  /** @type {Record<string, number>} */
  const out = {};
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat;
    let cmd;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    let kind;
    if (cmd.includes("estatekit-emulator")) kind = "emulator";
    else if (cmd.includes("chromium")) {
      const type = cmd.match(/--type=([a-z-]+)/)?.[1] ?? "browser";
      kind = cmd.includes("--utility-sub-type=network") ? "network" : type;
    } else continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out[kind] = (out[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 10 ms ticks
    if (kind === "renderer") {
      // Its threads: the main thread (JavaScript, the module) apart from V8's and Blink's others.
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        let tstat;
        try {
          tstat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        } catch {
          continue;
        }
        const tf = tstat.slice(tstat.lastIndexOf(")") + 2).split(" ");
        const key = tid === pid ? "main" : "other threads";
        out[key] = (out[key] ?? 0) + (Number(tf[11]) + Number(tf[12])) * 10;
      }
    }
  }
  return out;
}

const { page, close } = await openWebhooksPage();
try {
  await page.evaluate(async () => {
    const { client, send, WEBHOOKS: url } = /** @type {any} */ (globalThis);
    /** @type {Record<string, () => Promise<unknown[]>>} */
    const one = {
      raw: async () => (await fetch(url, { headers: { Authorization: "Bearer dev-token" } })).json(),
      send,
      client: () => client.listWebhooks(),
    };
    /** @type {any} */ (window).block = async (/** @type {string} */ name, /** @type {number} */ n) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) if ((await one[name]()).length !== 10) throw new Error(`${name}: not 10 webhooks`);
      return performance.now() - t0;
    };
    for (const name of Object.keys(one)) await /** @type {any} */ (window).block(name, 100); // warm-up
  });
  const names = ["raw", "send", "client"];
  /** @type {Record<string, Record<string, number>>} */
  const total = Object.fromEntries(names.map((n) => [n, { wall: 0 }]));
  for (let b = 0; b < blocks; b++) {
    for (const name of names.map((_, k) => names[(b + k) % names.length])) {
      const before = cpuByProcess();
      const wall = await page.evaluate(([n, c]) => /** @type {any} */ (window).block(n, c), [name, calls]);
      const after = cpuByProcess();
      total[name].wall += wall;
      for (const kind of Object.keys(after)) total[name][kind] = (total[name][kind] ?? 0) + after[kind] - (before[kind] ?? 0);
    }
  }
  const n = blocks * calls;
  console.log(`listWebhooks, ${blocks} blocks x ${calls} calls each, alternated; us per call (wall, then CPU by process):`);
  for (const name of names) {
    const t = total[name];
    const cpu = ["renderer", "main", "other threads", "browser", "network", "emulator"].map((k) => `${k} ${(((t[k] ?? 0) / n) * 1000).toFixed(0)}`);
    console.log(`${name.padEnd(7)} wall ${((t.wall / n) * 1000).toFixed(0)}  ${cpu.join("  ")}`);
  }
} finally {
  await close();
}
