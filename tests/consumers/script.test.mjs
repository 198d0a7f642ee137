// A plain <script type="module"> page (an import map, no bundler) that imports the packed
// estatekit from node_modules, served by the emulator and run in Chromium, Firefox and WebKit.
import test from "node:test";
import assert from "node:assert/strict";
import { browserChecks, installPacked, root } from "./lib.mjs";

const dir = `${root}tests/consumers/script`;

test.describe("plain module script page", () => {
  test.before(() => installPacked(dir));
  browserChecks(test, assert, dir);
});
