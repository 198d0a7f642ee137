// A CommonJS server module that loads estatekit's ES modules with import(), as a Next.js custom
// server, an Express app or a script written in CommonJS would: both entries, the server ones
// (the `node` condition) with their modules embedded.
// Usage: node tests/consumers/node/app.cjs (ESTATEKIT_EMULATOR_URL set; the tarball installed).
const assert = require("node:assert/strict");

(async () => {
  const { Client } = await import("estatekit");
  const { createTestService } = await import("estatekit/testing");
  const client = new Client({ baseUrl: process.env.ESTATEKIT_EMULATOR_URL, token: "dev-token" });
  const overHttp = await client.listWebhooks();
  const service = await createTestService();
  const local = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
  const id = await local.registerWebhook({ type: "OWNER_CREATED", url: "https://example.com/cjs" });
  assert.deepEqual((await local.listWebhooks()).map((w) => w.id), [id]);
  console.log(`cjs: listWebhooks over HTTP answered ${overHttp.length}; estatekit/testing registered ${id}`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
