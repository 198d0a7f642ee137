// An app tested with vitest and estatekit/testing (tests/consumers/vitest/): its module
// (src/tenant-docs.ts) is written against `estatekit` only, its tests against `estatekit` and
// `estatekit/testing`; the client sends through `fetch: service.fetch`, so nothing listens and
// nothing leaves the process. vitest is pinned by the project's own package-lock.json; estatekit
// is the packed tarball (its lock entry has no integrity, as the tarball changes with every build).
import test from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { assertLocked, installLocked, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/vitest`;
test.describe("vitest project with estatekit/testing", () => {
  test.before(() => installLocked(dir));

  test.it("locks vitest exactly, and estatekit as the packed tarball with no integrity", () => {
    assertLocked(assert, dir, { vitest: "devDependencies" });
    const installed = JSON.parse(readFileSync(`${dir}/node_modules/estatekit/package.json`, "utf8"));
    assert.ok(installed.exports["./testing"], "the installed estatekit has its ./testing export");
  });

  test.it("type-checks the app and its tests against the installed declarations (tsc --strict)", () => {
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", dir], {
      stdio: ["ignore", "inherit", "inherit"],
    });
  });

  test.it("the testing recipe (docs/testing.md) quotes the project's test file", () => {
    const doc = readFileSync(`${root}docs/testing.md`, "utf8");
    const recipe = doc.match(/```ts\n([\s\S]*?)\n```/)[1].split("\n");
    const file = readFileSync(`${dir}/test/tenant-docs.test.ts`, "utf8").split("\n");
    // Every line of the recipe is a line of the test file, in the same order.
    let at = 0;
    for (const line of recipe) {
      const found = file.indexOf(line, at);
      assert.ok(found >= 0, `docs/testing.md recipe line not in test/tenant-docs.test.ts (in order): ${JSON.stringify(line)}`);
      at = line.trim() === "" ? at : found + 1;
    }
  });

  // The uploads of test/upload.{jsdom,happy-dom}.test.ts also go over HTTP, to an emulator of
  // their own (ESTATEKIT_EMULATOR_URL).
  test.it("npx vitest run passes every test (node, jsdom and happy-dom environments)", async () => {
    const emulator = await startEmulator();
    try {
      const out = await new Promise((resolve, reject) =>
        execFile(
          "npx",
          ["--no-install", "vitest", "run", "--reporter=verbose", "--color=false"],
          {
            cwd: dir,
            encoding: "utf8",
            env: { ...process.env, CI: "1", NO_COLOR: "1", ESTATEKIT_EMULATOR_URL: emulator.url },
            timeout: 120_000,
          },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
        ),
      );
      process.stdout.write(out);
      for (const environment of ["jsdom", "happy-dom"]) {
        assert.match(out, new RegExp(`${environment}, in process: stored 5 bytes, title hello.txt`));
        assert.match(out, new RegExp(`${environment}, over HTTP: stored 70000 bytes`));
        assert.match(out, new RegExp(`${environment}, without arrayBuffer\\(\\): stored 9 bytes`));
      }
      assert.match(out, /Tests\s+15 passed \(15\)/);
    } finally {
      await emulator.stop();
    }
  });
});
