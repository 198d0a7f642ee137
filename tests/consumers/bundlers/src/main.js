// A page bundled by esbuild, Rollup or Bun with their default options (none of them emits the
// .wasm file): no init() call, no plugin but Rollup's node-resolve. It lists the webhooks,
// registers one, lists the documents and uploads a file with progress, and shows the result.
import { Client, EVENT_TYPES, isApiError } from "estatekit";

const params = new URLSearchParams(location.search);
const client = new Client({ baseUrl: location.origin, token: params.get("token") ?? "dev-token" });

function show(result) {
  document.querySelector("#out").textContent = JSON.stringify(result, null, 2);
  document.body.dataset.result = JSON.stringify(result);
}

async function run() {
  const before = await client.listWebhooks();
  const registered = await client.registerWebhook({ type: "UNIT_UPDATED", url: `http://127.0.0.1:9/${params.get("tool") ?? "page"}` });
  const webhooks = await client.listWebhooks();
  const documents = await client.listDocuments({ take: 20 });
  const file = new Blob(["estatekit consumer upload\n"], { type: "text/plain" });
  const reports = [];
  const record = await client.uploadDocument(
    { file, resourcePath: "units/consumer", name: "consumer.txt" },
    { onProgress: ({ loaded, total }) => reports.push([loaded, total]) },
  );
  return {
    ok: true,
    eventTypes: EVENT_TYPES.length,
    before: before.length,
    registered,
    webhooks: webhooks.map((w) => w.id),
    documents: documents.length,
    upload: { id: record.id, size: file.size, reports },
  };
}

run().then(show, (e) => show({ ok: false, apiError: isApiError(e), kind: e?.kind, message: String(e?.message ?? e) }));
