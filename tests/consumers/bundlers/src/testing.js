// estatekit/testing in a bundled page: the emulator in the page, a client sending through its
// fetch. Neither bundler here emits the .wasm files: both entries load their embedded copies.
import { Client, isApiError } from "estatekit";
import { createTestService } from "estatekit/testing";

function show(result) {
  document.querySelector("#out").textContent = JSON.stringify(result, null, 2);
  document.body.dataset.result = JSON.stringify(result);
}

async function run() {
  const service = await createTestService();
  const client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
  const id = await client.registerWebhook({ type: "UNIT_CREATED", url: "https://example.com/hook" });
  const webhooks = await client.listWebhooks();
  return { ok: true, id, listed: webhooks.map((w) => w.id) };
}

run().then(show, (e) => show({ ok: false, apiError: isApiError(e), kind: e?.kind, message: String(e?.message ?? e) }));
