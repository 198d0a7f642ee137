// A CommonJS app that `require`s estatekit (an ES module package: "type": "module", no CJS
// build). Node 20.19+ (and 22.12+) load an ES module with require() when its graph has no
// top-level await, which estatekit's has not (package.test.mjs): every entry then works, the
// same module as import() gives. Older Node 20 releases (20.0 to 20.18), and Node run with
// --no-experimental-require-module, throw ERR_REQUIRE_ESM, whose message says to use import().
// Prints, as JSON, what each require gave, and with require working, a call through
// estatekit/testing. Usage: node require.cjs (strict.test.mjs).
const ENTRIES = ["estatekit", "estatekit/testing", "estatekit/webhooks", "estatekit/auth", "estatekit/store", "estatekit/query", "estatekit/otel"];

const loaded = {};
for (const entry of ENTRIES) {
  try {
    loaded[entry] = Object.keys(require(entry)).sort();
  } catch (e) {
    loaded[entry] = { code: e.code, message: e.message };
  }
}

(async () => {
  const result = { requireModule: process.features.require_module === true, loaded };
  if (Array.isArray(loaded.estatekit)) {
    const { ApiError, Client } = require("estatekit");
    const { createTestService } = require("estatekit/testing");
    result.sameAsImport = (await import("estatekit")).Client === Client && (await import("estatekit/testing")).createTestService === createTestService;
    const service = await createTestService();
    try {
      const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
      await client.registerWebhook({ type: "OWNER_CREATED", url: "https://example.com/cjs" });
      result.webhooks = (await client.listWebhooks()).length;
      result.notFound = await client.getDocument("no-such-document").then(
        () => null,
        (e) => (e instanceof ApiError && e.kind === "not_found" ? e.status : String(e)),
      );
    } finally {
      service.close();
    }
  }
  console.log(JSON.stringify(result));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
