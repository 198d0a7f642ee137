// Bundlers that do not turn `new URL("x.wasm", import.meta.url)` into an asset, each with its
// default options, building the same two pages (tests/consumers/bundlers/src) from the packed
// estatekit: esbuild `--bundle --format=esm`, esbuild's default format (iife: no
// import.meta.url), Rollup 4 with @rollup/plugin-node-resolve, and Bun's bundler. None emits a
// .wasm file; the browser entries then load their embedded copies (a lazy chunk where the bundler
// splits, inlined where it does not). Each build is served by its own emulator and run in
// Chromium: main.js lists the webhooks, registers one, lists the documents and uploads with
// progress; testing.js runs estatekit/testing in the page. One install (the project's own
// package-lock.json); what each page printed and fetched is printed. Then a Rollup build whose
// lazy chunks were not deployed: the call rejects with the URL tried, what came back and the fix;
// and one with the package's .wasm copied next to it (the fix named): the page loads the file, not
// the copy, and under a CSP without 'wasm-unsafe-eval' it rejects with the CSP's fix, with no
// copy fetched.
// Last, Vite's dev server on the same pages with a custom `cacheDir` (pre-bundled dependencies
// in a folder the loader does not recognise).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { assertLocked, bunBinary, checkUpload, enginesToRun, installLocked, root, runPage, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/bundlers`;
const bin = `${dir}/node_modules/.bin`;
const bun = () => bunBinary(dir);
const ENTRIES = ["src/main.js", "src/testing.js"];

const BUILDS = [
  { key: "esbuild-esm", name: "esbuild --bundle --format=esm", cmd: (out) => [`${bin}/esbuild`, [...ENTRIES, "--bundle", "--format=esm", `--outdir=${out}`]] },
  // esbuild warns that import.meta is empty in this format: that is the case tested.
  { key: "esbuild-iife", name: "esbuild --bundle (iife)", classic: true, cmd: (out) => [`${bin}/esbuild`, [...ENTRIES, "--bundle", `--outdir=${out}`]] },
  { key: "rollup", name: "Rollup 4 + node-resolve", cmd: (out) => [`${bin}/rollup`, [...ENTRIES, "-d", out, "-f", "es", "-p", "node-resolve"]] },
  { key: "bun", name: "bun build", cmd: (out) => [bun(), ["build", ...ENTRIES, "--outdir", out]] },
];

/**
 * Writes the two pages' HTML (which load src/ as Vite's dev server serves it) next to a build's
 * JavaScript (a classic script for an iife).
 */
function writePages(out, classic) {
  for (const page of ["index.html", "testing.html"]) {
    let html = readFileSync(`${dir}/${page}`, "utf8").replace('src="./src/', 'src="./');
    if (classic) html = html.replace('<script type="module"', "<script");
    writeFileSync(`${out}/${page}`, html);
  }
}

/** The files of a build directory, for the log. */
const listing = (out) => readdirSync(out).sort().join(", ");

const chromium = enginesToRun().includes("chromium");

test.describe("bundlers that emit no .wasm asset (default options)", { skip: !chromium && "Chromium is not in ESTATEKIT_BROWSERS" }, () => {
  test.before(() => {
    assertLocked(assert, dir, {
      esbuild: "devDependencies",
      rollup: "devDependencies",
      "@rollup/plugin-node-resolve": "devDependencies",
      bun: "devDependencies",
    });
    installLocked(dir);
  });

  for (const build of BUILDS) {
    test.describe(build.name, () => {
      const out = `${dir}/dist/${build.key}`;
      let emulator;
      test.before(async () => {
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out, { recursive: true });
        const [command, args] = build.cmd(out);
        const started = Date.now();
        execFileSync(command, args, { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
        writePages(out, build.classic);
        console.log(`${build.name}: built in ${Date.now() - started} ms: ${listing(out)}`);
        emulator = await startEmulator(["--static", out]);
      });
      test.after(() => emulator?.stop());

      test.it("emits no .wasm file", () => {
        assert.deepEqual(readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith(".wasm")), []);
      });

      test.it("lists and registers webhooks, lists documents and uploads with progress", async () => {
        const run = await runPage("chromium", `${emulator.url}/?tool=${build.key}`);
        assert.deepEqual(run.pageErrors, []);
        // The one failed request: the .wasm file the bundler did not emit.
        assert.ok(run.failed.every((f) => /estatekit_wasm_bg\.wasm HTTP 404$/.test(f)), run.failed.join("\n"));
        assert.equal(run.result.ok, true, run.result.message);
        assert.ok(run.result.webhooks.includes(run.result.registered));
        assert.equal(typeof run.result.documents, "number");
        await checkUpload(assert, emulator.url, run.result.upload);
        console.log(`${build.name}: the page printed ${JSON.stringify(run.result)}; fetched ${run.fetched.join(", ")}`);
      });

      test.it("runs estatekit/testing in the page", async () => {
        const run = await runPage("chromium", `${emulator.url}/testing.html`);
        assert.deepEqual(run.pageErrors, []);
        assert.equal(run.result.ok, true, run.result.message);
        assert.deepEqual(run.result.listed, [run.result.id]);
        console.log(`${build.name}, estatekit/testing: the page printed ${JSON.stringify(run.result)}; fetched ${run.fetched.join(", ")}`);
      });
    });
  }

  test.describe("a Rollup build deployed without its lazy chunks", () => {
    const from = `${dir}/dist/rollup`;
    const out = `${dir}/dist/rollup-incomplete`;
    let emulator;
    test.before(async () => {
      rmSync(out, { recursive: true, force: true });
      cpSync(from, out, { recursive: true, filter: (f) => !/_fallback|_embedded/.test(f) });
      emulator = await startEmulator(["--static", out]);
    });
    test.after(() => emulator?.stop());

    test.it("rejects with kind network: the URL tried, what came back, the fix", async () => {
      const run = await runPage("chromium", `${emulator.url}/`);
      assert.equal(run.result.ok, false);
      assert.equal(run.result.apiError, true);
      assert.equal(run.result.kind, "network");
      const url = `${emulator.url}/estatekit_wasm_bg.wasm`;
      const fallback = /^\/estatekit_wasm_fallback-[\w-]+\.js$/;
      const chunk = readdirSync(from).find((f) => fallback.test(`/${f}`));
      assert.equal(
        run.result.message,
        `estatekit: could not load its WebAssembly module from ${url} (HTTP 404, application/json; ` +
          `fallback: TypeError: Failed to fetch dynamically imported module: ${emulator.url}/${chunk}); ` +
          "copy node_modules/estatekit/estatekit_wasm_bg.wasm there, or call init({ module_or_path }) with its URL.",
      );
      console.log(`Rollup, lazy chunks missing: the page printed ${JSON.stringify(run.result)}`);
    });

    test.it("estatekit/testing rejects with kind network too", async () => {
      const run = await runPage("chromium", `${emulator.url}/testing.html`);
      assert.equal(run.result.ok, false);
      assert.equal(run.result.kind, "network");
      assert.match(
        run.result.message,
        /^estatekit\/testing: could not load its WebAssembly module from \S+\/estatekit_testing_wasm_bg\.wasm \(HTTP 404, application\/json; fallback: TypeError: Failed to fetch dynamically imported module: \S+\/estatekit_testing_wasm_embedded-[\w-]+\.js\); copy node_modules\/estatekit\/estatekit_testing_wasm_bg\.wasm there\.$/,
      );
      console.log(`Rollup, lazy chunks missing, estatekit/testing: the page printed ${JSON.stringify(run.result)}`);
    });
  });

  // The fix the error names, done: the package's .wasm file copied next to the Rollup build.
  test.describe("a Rollup build with the .wasm file copied next to it", () => {
    const from = `${dir}/dist/rollup`;
    const out = `${dir}/dist/rollup-with-wasm`;
    let emulator;
    test.before(async () => {
      rmSync(out, { recursive: true, force: true });
      cpSync(from, out, { recursive: true });
      cpSync(`${dir}/node_modules/estatekit/estatekit_wasm_bg.wasm`, `${out}/estatekit_wasm_bg.wasm`);
      // The same page under a Content-Security-Policy that does not allow compiling WebAssembly.
      const csp = `<meta http-equiv="Content-Security-Policy" content="script-src 'self'" />`;
      writeFileSync(`${out}/csp.html`, readFileSync(`${out}/index.html`, "utf8").replace("<title>", `${csp}\n    <title>`));
      emulator = await startEmulator(["--static", out]);
    });
    test.after(() => emulator?.stop());

    test.it("loads the file, not the embedded copy", async () => {
      const run = await runPage("chromium", `${emulator.url}/`);
      assert.equal(run.result.ok, true, run.result.message);
      assert.deepEqual(run.failed, []);
      assert.deepEqual(run.fetched.filter((f) => /_fallback|_embedded/.test(f)), []);
      console.log(`Rollup + the .wasm copied: fetched ${run.fetched.join(", ")}`);
    });

    test.it("under script-src 'self': the CSP's fix, and no embedded copy fetched (it would be refused too)", async () => {
      const run = await runPage("chromium", `${emulator.url}/csp.html`);
      assert.equal(run.result.ok, false);
      assert.equal(run.result.kind, "network");
      const url = `${emulator.url}/estatekit_wasm_bg.wasm`;
      assert.ok(
        run.result.message.startsWith(`estatekit: could not load its WebAssembly module from ${url} (HTTP 200, application/wasm: CompileError: `),
        run.result.message,
      );
      assert.ok(run.result.message.endsWith("); allow script-src 'wasm-unsafe-eval' in the page's CSP."), run.result.message);
      assert.deepEqual(run.fetched.filter((f) => /_fallback|_embedded/.test(f)), []);
      console.log(`Rollup, CSP script-src 'self': the page printed ${JSON.stringify(run.result)}`);
    });
  });

  test.describe("Vite 7 dev server, a custom cacheDir", () => {
    let emulator;
    let server;
    test.before(async () => {
      emulator = await startEmulator();
      const { createServer } = await import("vite");
      server = await createServer({
        root: dir,
        configFile: false,
        cacheDir: "node_modules/.cache/portal-vite",
        logLevel: "error",
        server: { host: "127.0.0.1", port: 0, strictPort: false, proxy: { "/api": emulator.url } },
      });
      await server.listen();
    });
    test.after(async () => {
      await server?.close();
      await emulator?.stop();
    });

    test.it("lists and registers webhooks, lists documents and uploads with progress", async () => {
      const run = await runPage("chromium", `${server.resolvedUrls.local[0]}?tool=vite-cachedir`);
      assert.deepEqual(run.pageErrors, []);
      assert.equal(run.result.ok, true, run.result.message);
      assert.ok(run.result.webhooks.includes(run.result.registered));
      await checkUpload(assert, emulator.url, run.result.upload);
      assert.ok(run.fetched.some((f) => f.startsWith("/node_modules/.cache/portal-vite/deps/")), run.fetched.join(", "));
      console.log(`vite dev, cacheDir node_modules/.cache/portal-vite: the page printed ${JSON.stringify(run.result)}; fetched ${run.fetched.join(", ")}`);
    });

    test.it("runs estatekit/testing in the page", async () => {
      const run = await runPage("chromium", new URL("testing.html", server.resolvedUrls.local[0]).href);
      assert.equal(run.result.ok, true, run.result.message);
      assert.deepEqual(run.result.listed, [run.result.id]);
      console.log(`vite dev, custom cacheDir, estatekit/testing: the page printed ${JSON.stringify(run.result)}; fetched ${run.fetched.join(", ")}`);
    });
  });
});
