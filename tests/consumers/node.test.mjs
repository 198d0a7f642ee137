// Node 20 (server-side rendering) with the packed estatekit: tests/consumers/node/smoke.mjs (the
// server entry, the `node` condition), app.cjs (import() from CommonJS, both entries), and the
// browser entry in Node, which cannot fetch its .wasm file (a file: URL) and loads its embedded
// copy.
import test from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { installPacked, registerWebhook, root, startEmulator } from "./lib.mjs";

const dir = `${root}tests/consumers/node`;
const run = (args, env = {}) =>
  promisify(execFile)(process.execPath, args, { cwd: dir, env: { ...process.env, ...env }, timeout: 60_000 });

// Node < 20.16 has no process.getBuiltinModule: the server entry then unpacks its embedded
// module with DecompressionStream, and the browser entry tries fetch on a file: URL.
const OLD_NODE = ["--import", "data:text/javascript,delete process.getBuiltinModule"];
// The browser entry imported in Node: fetch reads no file: URL, so it loads its embedded copy.
const BROWSER_ENTRY_CALL = `
  import { Client } from "./node_modules/estatekit/estatekit.js";
  const client = new Client({ baseUrl: process.env.ESTATEKIT_EMULATOR_URL, token: "dev-token" });
  const hooks = await client.listWebhooks();
  console.log(JSON.stringify({ hooks: hooks.length }));
`;

test.describe("Node 20", () => {
  let emulator;
  test.before(async () => {
    installPacked(dir);
    emulator = await startEmulator();
  });
  test.after(() => emulator?.stop());

  test.it("imports the package without throwing (smoke.mjs, no emulator)", async () => {
    const { stdout } = await run(["smoke.mjs"], { ESTATEKIT_EMULATOR_URL: "" });
    assert.match(stdout, /imported estatekit/);
    assert.doesNotMatch(stdout, /listWebhooks/);
  });

  test.it("calls listWebhooks through Node's global fetch (smoke.mjs)", async () => {
    await registerWebhook(emulator.url, { type: "UNIT_DELETED", url: "http://127.0.0.1:9/node" });
    const { stdout } = await run(["smoke.mjs"], { ESTATEKIT_EMULATOR_URL: emulator.url });
    assert.match(stdout, /listWebhooks answered 1 webhook\(s\)/);
  });

  test.it("works where process.getBuiltinModule is missing (Node < 20.16)", async () => {
    const { stdout } = await run([...OLD_NODE, "smoke.mjs"], { ESTATEKIT_EMULATOR_URL: emulator.url });
    assert.match(stdout, /listWebhooks answered \d+ webhook\(s\)/);
  });

  test.it("loads both entries with import() from a CommonJS file (app.cjs)", async () => {
    const { stdout } = await run(["app.cjs"], { ESTATEKIT_EMULATOR_URL: emulator.url });
    assert.match(stdout, /cjs: listWebhooks over HTTP answered \d+; estatekit\/testing registered \S+/);
    console.log(stdout.trim());
  });

  for (const [label, args] of [["Node 20", []], ["old Node (DecompressionStream)", OLD_NODE]]) {
    test.it(`the browser entry in ${label}: its file: URL cannot be fetched, its embedded copy loads`, async () => {
      const { stdout } = await run([...args, "--input-type=module", "-e", BROWSER_ENTRY_CALL], {
        ESTATEKIT_EMULATOR_URL: emulator.url,
      });
      assert.equal(JSON.parse(stdout).hooks, 1);
    });
  }
});
