// A Vite app using estatekit as a front end would: no init() call, no wasm plugin.
import { Client, EVENT_TYPES, isApiError } from "estatekit";

const params = new URLSearchParams(location.search);
const client = new Client({ baseUrl: location.origin, token: params.get("token") ?? "dev-token" });

function show(result) {
  document.querySelector("#out").textContent = JSON.stringify(result, null, 2);
  document.body.dataset.result = JSON.stringify(result);
}

client.listWebhooks().then(
  (hooks) => show({ ok: true, baseUrl: client.baseUrl, eventTypes: EVENT_TYPES.length, webhooks: hooks }),
  (e) => show({ ok: false, apiError: isApiError(e), kind: e?.kind, message: String(e?.message ?? e) }),
);
