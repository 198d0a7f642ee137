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

// The dev server with its default config: it pre-bundles dependencies into
// node_modules/.vite/deps/, away from their .wasm files; the entries then load their embedded
// copies (chunks of the pre-bundled deps). /api is proxied to the emulator.
test.describe("Vite 7 dev server, default config", () => {
  let emulator;
  let server;
  test.before(async () => {
    emulator = await startEmulator();
    const { createServer } = await import("vite");
    server = await createServer({
      root: dir,
      configFile: false,
      logLevel: "error",
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
      console.log(`vite dev, ${engine}: webhooks listed ${run.result.webhooks.length}, upload ${run.result.upload.id}; fetched ${run.fetched.join(", ")}`);
    });

    test.it(`loads estatekit/testing too in ${ENGINE_NAMES[engine]}`, async () => {
      const run = await runPage(engine, new URL("testing.html", server.resolvedUrls.local[0]).href);
      assert.equal(run.result.ok, true, run.result.message);
      assert.deepEqual(run.result.listed, [run.result.id]);
      console.log(`vite dev, ${engine}: estatekit/testing registered and listed ${run.result.id}; fetched ${run.fetched.join(", ")}`);
    });
  }
});
