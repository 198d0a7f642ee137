// One rule for base URLs, from the packed tarball: tests/node/base_url.test.mjs (every entry that
// takes a base URL refuses http://acme.example.com where it is given and accepts localhost,
// 127.0.0.0/8, [::1] and https; the rule's verdicts on its table; the wrapper and the module, which
// imports the rule, agreeing on every URL) run against the package
// as an app installs it (tests/consumers/testing/node_modules/estatekit), not pkg/.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { installPackedOnce, root } from "./lib.mjs";

const dir = `${root}tests/consumers/testing`;
installPackedOnce(dir);
// The installed package's root, through its exports (".", "node": estatekit.node.js).
const installed = dirname(createRequire(`${dir}/package.json`).resolve("estatekit"));

test("the base URL probes pass against the installed tarball", () => {
  assert.ok(installed.endsWith("node_modules/estatekit"), installed);
  // Without NODE_TEST_CONTEXT (set by this runner), the child reports in TAP on its stdout.
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", `${root}tests/node/base_url.test.mjs`], {
    env: { ...env, ESTATEKIT_PACKAGE_DIR: installed },
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^# pass 4$/m);
  assert.match(run.stdout, /^# fail 0$/m);
});
