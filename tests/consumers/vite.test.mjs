// A Vite 7 production build (no wasm plugin, no config) of a page that imports the packed
// estatekit, served by the emulator and run in Chromium, Firefox and WebKit.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import {
  ENGINE_NAMES,
  browserChecks,
  checkUpload,
  enginesToRun,
  installPacked,
  registerWebhook,
  root,
  runPage,
  startEmulator,
} from "./lib.mjs";

const dir = `${root}tests/consumers/vite`;

test.describe("Vite 7 production build", () => {
  test.before(() => {
    installPacked(dir);
    execFileSync(`${root}node_modules/.bin/vite`, ["build", "--logLevel", "warn", "--emptyOutDir"], {
      cwd: dir,
      stdio: ["ignore", "inherit", "inherit"],
    });
  });

  test.it("emits the .wasm file as an asset", () => {
    const assets = readdirSync(`${dir}/dist/assets`);
    assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 1, assets.join(", "));
  });

  browserChecks(test, assert, `${dir}/dist`);
});

// The dev server pre-bundles dependencies, which moves the glue away from its .wasm file: the
// README's advice (optimizeDeps.exclude) is what makes it work, checked here with /api proxied.
test.describe("Vite 7 dev server with optimizeDeps.exclude", () => {
  let emulator;
  let server;
  test.before(async () => {
    emulator = await startEmulator();
    const { createServer } = await import("vite");
    server = await createServer({
      root: dir,
      configFile: false,
      logLevel: "error",
      optimizeDeps: { exclude: ["estatekit"] },
      server: { host: "127.0.0.1", port: 0, strictPort: false, proxy: { "/api": emulator.url } },
    });
    await server.listen();
  });
  test.after(async () => {
    await server?.close();
    await emulator?.stop();
  });

  for (const engine of enginesToRun()) {
    test.it(`completes listWebhooks and an upload in ${ENGINE_NAMES[engine]}`, async () => {
      const id = await registerWebhook(emulator.url, { type: "OWNER_CREATED", url: `http://127.0.0.1:9/dev-${engine}` });
      const run = await runPage(engine, server.resolvedUrls.local[0]);
      if (engine !== "webkit") assert.deepEqual(run.pageErrors, []);
      assert.equal(run.result.ok, true, run.result.message);
      assert.ok(run.result.webhooks.some((w) => w.id === id), JSON.stringify(run.result.webhooks));
      await checkUpload(assert, emulator.url, run.result.upload);
    });
  }
});
