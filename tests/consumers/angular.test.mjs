// An Angular 21 app using the packed estatekit (tests/consumers/angular/: the files
// `ng new portal --ssr` writes, with the esbuild `application` builder and no configuration for
// estatekit; its one page is src/app/app.ts, rendered per request). Angular's builder emits no
// .wasm file, and its dev server serves the package away from it: the browser entries load their
// embedded copies. One install (the project's own package-lock.json)
// and one `ng build` serve three checks in Chromium, each page listing and registering
// webhooks, listing documents and uploading with progress against its own emulator (the page's
// `?service=` parameter):
// - the build's browser files served statically (index.csr.html as the index, as a static host
//   of the client-side app serves it);
// - its SSR server (dist/portal/server/server.mjs, the `node` entry): the server render shows
//   the calls' answers, and the hydrated page keeps its content (angular.json's
//   `security.allowedHosts`, empty as written, lists `localhost`: Angular's SSR renders only for
//   the hosts listed there);
// - `ng serve`.
// What each page printed and fetched is printed.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, readdirSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { assertLocked, checkUpload, enginesToRun, freePort, installLocked, root, runPage, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/angular`;
const ng = `${dir}/node_modules/@angular/cli/bin/ng.js`;
// No analytics prompt or upload, no colours in the log.
const env = { ...process.env, NG_CLI_ANALYTICS: "false", NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" };
const chromium = enginesToRun().includes("chromium");

/**
 * Starts `args` (node) in `dir` in its own process group, and polls `url` until it answers
 * (bounded). Returns `{ log(), stop() }`.
 */
async function startServer(args, url, extraEnv = {}) {
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...env, ...extraEnv }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exited, sleep(5_000)]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGKILL");
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(url);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${args.join(" ")}: ${url} did not answer in 180 s:\n${log}`);
    }
    await sleep(250);
  }
  return { log: () => log, stop };
}

/** The page's checks: the calls' answers, shown after hydration (or client rendering). */
async function checkPage(url, emulatorUrl, label) {
  const run = await runPage("chromium", url, 60_000);
  assert.deepEqual(run.pageErrors, []);
  assert.equal(run.result.ok, true, run.result.message);
  assert.equal(run.result.where, "browser");
  assert.ok(run.result.webhooks.includes(run.result.registered));
  assert.equal(typeof run.result.documents, "number");
  await checkUpload(assert, emulatorUrl, run.result.upload);
  // Chromium logs each 404 as a console error: only the .wasm file's (the builder emits none),
  // and the favicon's (the page has none), are expected.
  assert.ok(run.failed.every((f) => /\/(estatekit_wasm_bg\.wasm|favicon\.ico) HTTP 404$/.test(f)), run.failed.join("\n"));
  assert.deepEqual(run.consoleMessages.filter((m) => /^error/.test(m) && !/Failed to load resource: .* 404/.test(m)), []);
  console.log(`${label}: the page printed ${JSON.stringify(run.result)}; fetched ${run.fetched.join(", ")}`);
}

test.describe("Angular 21 (application builder)", { skip: !chromium && "Chromium is not in ESTATEKIT_BROWSERS" }, () => {
  let emulator;
  test.before(async () => {
    assertLocked(assert, dir, {
      "@angular/core": "dependencies",
      "@angular/ssr": "dependencies",
      "@angular/build": "devDependencies",
      "@angular/cli": "devDependencies",
    });
    installLocked(dir);
    emulator = await startEmulator();
  });
  test.after(() => emulator?.stop());

  test.describe("ng build", () => {
    test.before(() => {
      rmSync(`${dir}/dist`, { recursive: true, force: true });
      const started = Date.now();
      execFileSync(process.execPath, [ng, "build"], { cwd: dir, env, stdio: ["ignore", "inherit", "inherit"] });
      console.log(`ng build: ${Date.now() - started} ms; browser files: ${readdirSync(`${dir}/dist/portal/browser`).sort().join(", ")}`);
    });

    test.it("emits no .wasm file", () => {
      const files = readdirSync(`${dir}/dist/portal`, { recursive: true }).map(String);
      assert.deepEqual(files.filter((f) => f.endsWith(".wasm")), []);
    });

    test.it("served statically: the page's calls complete", async () => {
      const site = `${dir}/dist/static`;
      rmSync(site, { recursive: true, force: true });
      cpSync(`${dir}/dist/portal/browser`, site, { recursive: true });
      copyFileSync(`${site}/index.csr.html`, `${site}/index.html`);
      const host = await startEmulator(["--static", site]);
      try {
        await checkPage(`${host.url}/?service=${encodeURIComponent(emulator.url)}`, emulator.url, "ng build, served statically");
      } finally {
        await host.stop();
      }
    });

    test.it("SSR: the server render shows the answers, and the hydrated page keeps them", async () => {
      const port = await freePort();
      const url = `http://localhost:${port}/?service=${encodeURIComponent(emulator.url)}`;
      // Polled on a static file: the render of a page without `?service=` would show an error.
      const server = await startServer(["dist/portal/server/server.mjs"], `http://localhost:${port}/index.csr.html`, { PORT: String(port) });
      try {
        const html = await (await fetch(url)).text();
        const rendered = html.match(/<output id="out">([^<]*)<\/output>/)?.[1] ?? "";
        const fromServer = JSON.parse(rendered.replaceAll("&quot;", '"'));
        assert.equal(fromServer.ok, true, rendered);
        assert.equal(fromServer.where, "server");
        console.log(`ng build, SSR: the server rendered ${rendered}`);
        await checkPage(url, emulator.url, "ng build, SSR, hydrated");
      } finally {
        await server.stop();
        if (server.log().trim()) console.log(`SSR server's log:\n${server.log().trim()}`);
      }
    });
  });

  test.describe("ng serve", () => {
    test.it("the page's calls complete", async () => {
      const port = await freePort();
      const base = `http://localhost:${port}/`;
      const started = Date.now();
      const server = await startServer([ng, "serve", "--port", String(port)], base);
      console.log(`ng serve: answered after ${Date.now() - started} ms`);
      try {
        await checkPage(`${base}?service=${encodeURIComponent(emulator.url)}`, emulator.url, "ng serve");
      } finally {
        await server.stop();
      }
    });
  });
});
