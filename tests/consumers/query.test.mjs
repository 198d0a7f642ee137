// A portal written with TanStack Query and estatekit/query (tests/consumers/query/): React 19 in
// StrictMode and Vue, in vitest + jsdom, every request answered by estatekit/testing in process
// (nothing listens). TanStack Query, React, Vue and vitest are pinned by the project's own
// package-lock.json; estatekit is the packed tarball (its lock entry has no integrity).
import test from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { assertLocked, installLocked, root } from "./lib.mjs";

const dir = `${root}tests/consumers/query`;
test.describe("TanStack Query project with estatekit/query", () => {
  test.before(() => installLocked(dir));

  test.it("locks TanStack Query, React, Vue and vitest exactly, and estatekit as the packed tarball", () => {
    assertLocked(assert, dir, {
      "@tanstack/react-query": "dependencies",
      "@tanstack/vue-query": "dependencies",
      react: "dependencies",
      "react-dom": "dependencies",
      vue: "dependencies",
      vitest: "devDependencies",
    });
    const installed = JSON.parse(readFileSync(`${dir}/node_modules/estatekit/package.json`, "utf8"));
    assert.ok(installed.exports["./query"], "the installed estatekit has its ./query export");
    assert.equal(installed.dependencies, undefined, "estatekit depends on nothing, TanStack included");
  });

  test.it("type-checks the tests against the installed declarations (tsc --strict)", () => {
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", dir], {
      stdio: ["ignore", "inherit", "inherit"],
    });
  });

  test.it("npx vitest run passes every test (React in StrictMode, Vue; jsdom)", async () => {
    const out = await new Promise((resolve, reject) =>
      execFile(
        "npx",
        ["--no-install", "vitest", "run", "--reporter=verbose", "--color=false"],
        { cwd: dir, encoding: "utf8", env: { ...process.env, CI: "1", NO_COLOR: "1" }, timeout: 180_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    process.stdout.write(out);
    assert.match(out, /Tests\s+11 passed \(11\)/);
  });
});
