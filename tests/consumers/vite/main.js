// A Vite app using estatekit as a front end would: no init() call, no wasm plugin.
import { Client, EVENT_TYPES, isApiError } from "estatekit";

const params = new URLSearchParams(location.search);
const client = new Client({ baseUrl: location.origin, token: params.get("token") ?? "dev-token" });

function show(result) {
  document.querySelector("#out").textContent = JSON.stringify(result, null, 2);
  document.body.dataset.result = JSON.stringify(result);
}

// List the webhooks, then upload a small file (FormData, with progress reports).
async function run() {
  const webhooks = await client.listWebhooks();
  const file = new Blob(["estatekit consumer upload\n"], { type: "text/plain" });
  const reports = [];
  const record = await client.uploadDocument(
    { file, resourcePath: "units/consumer", name: "consumer.txt" },
    { onProgress: ({ loaded, total }) => reports.push([loaded, total]) },
  );
  return { ok: true, baseUrl: client.baseUrl, eventTypes: EVENT_TYPES.length, webhooks, upload: { id: record.id, size: file.size, reports } };
}

run().then(show, (e) =>
  show({ ok: false, apiError: isApiError(e), kind: e?.kind, message: String(e?.message ?? e) }),
);
