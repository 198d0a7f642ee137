// Helpers of the consumer smoke tests: the packed tarball, installing it into a consumer
// project, the emulator, and the browsers (browsers.mjs: Chromium, Firefox and WebKit).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { root, startEmulator as startLocalEmulator } from "../../scripts/local.mjs";
import { ENGINE_NAMES, enginesToRun, openPage } from "./browsers.mjs";

export { root, ENGINE_NAMES, enginesToRun };
export const pkgDir = `${root}pkg`;
const packDir = `${root}target/consumers`;
/** Where the consumer projects' package.json files expect the tarball. */
export const tarballPath = `${packDir}/estatekit.tgz`;

/** Runs `npm pack` inside pkg/ and copies the tarball to target/consumers/estatekit.tgz. */
export function pack() {
  mkdirSync(packDir, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], {
    cwd: pkgDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [info] = JSON.parse(out);
  const files = info.files.map((f) => f.path).sort();
  if (!files.includes("estatekit.js")) {
    rmSync(`${packDir}/${info.filename}`);
    throw new Error(`pkg/ is not a finished build (packed ${files.join(", ")}): run make pkg`);
  }
  copyFileSync(`${packDir}/${info.filename}`, tarballPath);
  rmSync(`${packDir}/${info.filename}`);
  return info;
}

/** The tarball, packed again when pkg/ changed since (make test-consumers packs it first). */
export function tarball() {
  const built = Math.max(...readdirSync(pkgDir).map((f) => statSync(`${pkgDir}/${f}`).mtimeMs));
  if (!existsSync(tarballPath) || statSync(tarballPath).mtimeMs < built) pack();
  return tarballPath;
}

/** Installs the packed tarball into a consumer project (fresh node_modules, no lockfile). */
export function installPacked(dir) {
  tarball();
  rmSync(`${dir}/node_modules`, { recursive: true, force: true });
  execFileSync(
    "npm",
    ["install", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    { cwd: dir, stdio: ["ignore", "inherit", "inherit"] },
  );
}

/**
 * `installPacked`, skipped when `dir`'s node_modules already holds this very tarball (same size
 * and time as when it was installed there): for consumer projects that several test files share
 * (tests/consumers/webhooks: webhooks.test.mjs and workers.test.mjs, which need the same workerd).
 */
export function installPackedOnce(dir) {
  const { size, mtimeMs } = statSync(tarball());
  const mark = `${dir}/node_modules/.estatekit-tarball`;
  const stamp = `${size} ${mtimeMs}`;
  if (existsSync(mark) && readFileSync(mark, "utf8") === stamp) return;
  installPacked(dir);
  writeFileSync(mark, stamp);
}

/**
 * Installs a consumer project that locks its own dependencies (its package-lock.json) with
 * `npm ci`: node_modules exactly as locked, from the registry or npm's cache (the tarball is a
 * local file), whatever was there before; no install script runs.
 */
export function installLocked(dir) {
  tarball();
  execFileSync("npm", ["ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/**
 * The Bun binary of a locked consumer project `dir`: its platform package's (@oven/bun-<os>-<cpu>,
 * where Bun says aarch64 for arm64), the same program as the `bun` package's launcher, which its
 * install script writes and installLocked does not run.
 */
export function bunBinary(dir) {
  return `${dir}/node_modules/@oven/bun-${process.platform}-${process.arch === "arm64" ? "aarch64" : process.arch}/bin/bun`;
}

/**
 * Checks a locked consumer project's lock: each of `pinned` (a package name -> the manifest's
 * section naming it) locked at exactly the manifest's version, and estatekit as the packed
 * tarball with no integrity (its hash changes with every build). Returns the manifest.
 */
export function assertLocked(assert, dir, pinned) {
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  const lock = JSON.parse(readFileSync(`${dir}/package-lock.json`, "utf8"));
  for (const [name, section] of Object.entries(pinned)) {
    assert.match(manifest[section][name], /^\d+\.\d+\.\d+$/, name);
    assert.equal(lock.packages[`node_modules/${name}`].version, manifest[section][name], name);
  }
  const entry = lock.packages["node_modules/estatekit"];
  assert.equal(entry.resolved, "file:../../../target/consumers/estatekit.tgz");
  assert.equal(
    entry.integrity,
    undefined,
    "package-lock.json pins the tarball's hash, which changes with every build: remove that `integrity` line",
  );
  return manifest;
}

/** A free TCP port on 127.0.0.1 (closed again before the caller binds it). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => server.listen(0, "127.0.0.1", resolve).on("error", reject));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the built emulator on a free loopback port, rate limit off; `stop()` ends it. */
export const startEmulator = (args = []) => startLocalEmulator(["--rate-limit", "0", ...args]);

/** Debian's redis-server (scripts/setup.sh installs it), or REDIS_SERVER. */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";

/**
 * A redis-server of its own: a free loopback port, no snapshot, an append-only file.
 * `outage(ms, { keep })` kills it (SIGKILL: the connections drop mid-command, replies are lost),
 * waits `ms`, and starts it again on the same port: with `keep`, from its append-only file, which
 * holds every write it acknowledged (Redis writes a command to the file before replying; the
 * file is in the OS's cache, which a process killed does not lose: no fsync is needed, nor asked,
 * so that a busy disk cannot slow the store down); without, with its files deleted: empty, every
 * mark forgotten. `whileDown` runs meanwhile. `onChild` sees each redis-server process started (a
 * test that tracks its processes passes its own).
 */
export async function startRedis({ onChild = (child) => child } = {}) {
  const port = await freePort();
  const data = mkdtempSync(`${tmpdir()}/estatekit-redis-`);
  let child;
  const start = async () => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "no", "--dir", data];
    child = onChild(spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] }));
    let out = "";
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 15_000);
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${out}`));
      });
    });
    child.stdout.resume();
  };
  await start();
  const stopped = () => child.exitCode !== null || child.signalCode !== null;
  return {
    port,
    /** @param {number} ms @param {{ keep: boolean, whileDown?: () => Promise<unknown> }} how */
    async outage(ms, { keep, whileDown }) {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
      if (!keep) {
        rmSync(data, { recursive: true, force: true });
        mkdirSync(data);
      }
      await Promise.all([sleep(ms), whileDown?.()]);
      await start();
    },
    async stop() {
      if (!stopped()) {
        const exited = once(child, "exit");
        child.kill("SIGKILL"); // nothing of it is needed any more
        await exited;
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/**
 * A cookie jar, as a browser keeps cookies for one site: `take(response)` takes its Set-Cookie
 * lines in (an expired or emptied cookie goes), `header()` is the Cookie header to send.
 */
export class Jar {
  cookies = new Map();
  set(name, value) {
    this.cookies.set(name, value);
  }
  take(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const gone = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (gone || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Registers a webhook directly over HTTP (what the pages then list). */
export async function registerWebhook(url, body, token = "dev-token") {
  const res = await fetch(`${url}/api/external-integrations/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`registering a webhook: HTTP ${res.status}`);
  return res.headers.get("location");
}

/** Fetches a document's metadata directly over HTTP (what an upload from a page stored). */
export async function documentMetadata(url, id, token = "dev-token") {
  const res = await fetch(`${url}/api/file-storage/company/documents/${encodeURIComponent(id)}/metadata`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`document ${id}: HTTP ${res.status}`);
  return res.json();
}

/**
 * Opens `url` in a browser of `engine` (browsers.mjs) and waits for the page to set
 * `document.body.dataset.result` (JSON). Returns it with the console messages, page errors and
 * failed requests seen, the .wasm files the page fetched, and `fetched`: each script, module and
 * .wasm file fetched, with its size.
 */
export async function runPage(engine, url, timeoutMs = 30_000) {
  const page = await openPage(engine);
  try {
    await page.goto(url);
    try {
      await page.waitFor(() => document.body.dataset.result, timeoutMs);
    } catch (e) {
      const seen = [page.consoleMessages, page.pageErrors, page.failed].flatMap((l) => l ?? []).join("\n  ");
      throw new Error(`${url} in ${engine}: no result in ${timeoutMs} ms (${e.message}); the page showed:\n  ${seen}`);
    }
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    const wasm = await page.evaluate(() =>
      performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).map((e) => e.name),
    );
    // Every script and module fetched, with its size as received (0 when it failed or came from
    // the cache): which .wasm file or chunk of the embedded copy a page loaded.
    const fetched = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => /\.(m?js|wasm)$/.test(new URL(e.name).pathname))
        .map((e) => `${new URL(e.name).pathname} (${e.encodedBodySize} bytes)`),
    );
    const { consoleMessages, pageErrors, failed } = page;
    return { result, consoleMessages, pageErrors, failed, wasm, fetched };
  } finally {
    await page.close();
  }
}

/** Checks the page's upload: progress reported up to the whole body, and the document stored. */
export async function checkUpload(assert, url, upload) {
  assert.equal(typeof upload?.id, "string", JSON.stringify(upload));
  assert.ok(upload.reports.length > 0, "onProgress was called");
  const [loaded, total] = upload.reports.at(-1);
  assert.ok(total >= upload.size && loaded === total, `last progress report ${loaded}/${total}`);
  const stored = await documentMetadata(url, upload.id);
  assert.equal(stored.id, upload.id);
}

/**
 * The browser checks both page consumers share, in each engine of enginesToRun(), each engine
 * with its own emulator serving `staticDir`: the page lists a webhook registered beforehand
 * (lazy init, no init() call) and uploads a file; with a wrong token it gets an ApiError of
 * kind `unauthorized`. Console messages, page errors and failed requests are checked where the
 * engine's driver reports them (not WebKit's: browsers.mjs).
 */
export function browserChecks(test, assert, staticDir) {
  for (const engine of enginesToRun()) {
    test.describe(`in ${ENGINE_NAMES[engine]}`, () => {
      let emulator;
      test.before(async () => {
        emulator = await startEmulator(["--static", staticDir]);
      });
      test.after(() => emulator?.stop());

      test.it("completes listWebhooks and an upload without calling init()", async () => {
        const hook = { type: "UNIT_CREATED", url: "http://127.0.0.1:9/estatekit-consumer" };
        const id = await registerWebhook(emulator.url, hook);
        const run = await runPage(engine, `${emulator.url}/`);
        if (engine !== "webkit") {
          assert.deepEqual(run.pageErrors, []);
          assert.deepEqual(run.failed, []);
          assert.deepEqual(run.consoleMessages.filter((m) => /^(error|warning)/.test(m)), []);
        }
        assert.equal(run.result.ok, true, run.result.message);
        assert.equal(run.result.baseUrl, emulator.url);
        assert.equal(run.result.eventTypes, 28);
        assert.deepEqual(
          run.result.webhooks.map((w) => [w.id, w.type, w.url]),
          [[id, hook.type, hook.url]],
        );
        await checkUpload(assert, emulator.url, run.result.upload);
        assert.equal(run.wasm.length, 1, "the page fetched one .wasm file");
        const copies = run.fetched.filter((f) => /_fallback|_embedded/.test(f));
        assert.deepEqual(copies, [], "the embedded copy is not fetched when the .wasm file loads");
      });

      test.it("rejects with an ApiError of kind unauthorized for a wrong token", async () => {
        const run = await runPage(engine, `${emulator.url}/?token=wrong-token`);
        if (engine !== "webkit") assert.deepEqual(run.pageErrors, []);
        assert.equal(run.result.ok, false);
        assert.equal(run.result.apiError, true);
        assert.equal(run.result.kind, "unauthorized");
      });
    });
  }
}
