// A Vite 7 production build (no wasm plugin, no config) of a page that imports the packed
// estatekit, served by the emulator and run in headless Chromium.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { browserChecks, installPacked, root } from "./lib.mjs";

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
