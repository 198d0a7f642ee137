// The Next.js consumer's app (tests/consumers/next/), as the tests that build and serve it share
// it: next.test.mjs (the portal in four builds) and next-auth.test.mjs (staff signed in with
// next-auth, two servers of one build behind a proxy).
import { execFileSync, spawn } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import assert from "node:assert/strict";
import { freePort, root } from "./lib.mjs";

/** The app's directory. */
export const dir = `${root}tests/consumers/next`;
/** next's command line, as installed in the app. */
export const nextBin = `${dir}/node_modules/next/dist/bin/next`;
// No telemetry, ever (the machine is offline but for the package registries).
export const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1", FORCE_COLOR: "0" };
delete baseEnv.ESTATEKIT_NEXT_OUTPUT;
delete baseEnv.NODE_ENV;

/**
 * Builds the app (`next build` with `variant.buildArgs`; `output: "standalone"` when
 * `variant.standalone`) into a fresh .next. Returns the seconds it took.
 */
export function buildApp(variant = { buildArgs: [] }) {
  rmSync(`${dir}/.next`, { recursive: true, force: true });
  const started = Date.now();
  execFileSync(process.execPath, [nextBin, "build", ...variant.buildArgs], {
    cwd: dir,
    env: variant.standalone ? { ...baseEnv, ESTATEKIT_NEXT_OUTPUT: "standalone" } : baseEnv,
    stdio: ["ignore", "inherit", "inherit"],
    timeout: 600_000,
  });
  return (Date.now() - started) / 1000;
}

/** The shallowest file named `name` under `from` (breadth first, not in node_modules or .next). */
export function findFile(from, name) {
  for (let level = [from]; level.length; ) {
    const next = [];
    for (const d of level) {
      for (const entry of readdirSync(d, { withFileTypes: true })) {
        if (entry.isFile() && entry.name === name) return `${d}/${entry.name}`;
        if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== ".next") next.push(`${d}/${entry.name}`);
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * Starts the built app (`next start`, or the standalone server.js) on a free loopback port in
 * its own process group, with `extraEnv` added to its environment, and polls it until it answers
 * (bounded). Returns `{ url, log(), stop() }`.
 */
export async function startApp({ standalone }, serviceUrl, extraEnv = {}) {
  const port = await freePort();
  const env = { ...baseEnv, ...extraEnv, ESTATEKIT_BASE_URL: serviceUrl, NODE_ENV: "production" };
  let command;
  let cwd = dir;
  if (standalone) {
    const server = findFile(`${dir}/.next/standalone`, "server.js");
    assert.ok(server, "next build wrote .next/standalone/**/server.js");
    cwd = dirname(server);
    // What the standalone server does not copy itself: the static chunks (and public/, none here).
    cpSync(`${dir}/.next/static`, `${cwd}/.next/static`, { recursive: true });
    command = [process.execPath, [server]];
    Object.assign(env, { PORT: String(port), HOSTNAME: "127.0.0.1" });
  } else {
    command = [process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"]];
  }
  const child = spawn(command[0], command[1], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const app = {
    url: `http://127.0.0.1:${port}`,
    log: () => output.trim().split("\n").slice(-40).join("\n    "),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      const done = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!done) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
        await exited;
      }
    },
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n    ${app.log()}`);
    try {
      const res = await fetch(`${app.url}/`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) return app;
    } catch {}
    if (attempt >= 120) {
      await app.stop();
      throw new Error(`the server did not answer on ${app.url} in 60 s:\n    ${app.log()}`);
    }
    await sleep(500);
  }
}

/** GETs `path` of the app: status and body text. */
export async function get(app, path) {
  const res = await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: await res.text() };
}

/** JSON of an answer, with the server's log when it is not JSON. */
export function json(app, path, { status, text }) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${path}: HTTP ${status}, not JSON: ${text.slice(0, 400)}\n  server log:\n    ${app.log()}`);
  }
}

/** The text of the server component's <pre id="result">, unescaped. */
export function preResult(html) {
  const match = html.match(/<pre id="result">([\s\S]*?)<\/pre>/);
  if (!match) return undefined;
  const entities = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
  return match[1].replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e) => entities[e]);
}

