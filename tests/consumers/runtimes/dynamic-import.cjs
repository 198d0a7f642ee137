// A CommonJS backend loading the packed estatekit, which has no CommonJS build, with import(), as
// docs/runtimes.md says; run by Node, Bun and Deno (tests/consumers/runtimes.test.mjs). A token
// from estatekit/auth's password grant, one call and one refused call against the native emulator
// (ESTATEKIT_EMULATOR_URL), estatekit/webhooks loaded. Prints one JSON line, never a secret.
const process = require("node:process");

const runtime = typeof Deno !== "undefined" ? "deno" : typeof Bun !== "undefined" ? "bun" : "node";

async function main() {
  const baseUrl = process.env.ESTATEKIT_EMULATOR_URL;
  if (!baseUrl) throw new Error("dynamic-import.cjs: set ESTATEKIT_EMULATOR_URL to the emulator's URL");
  const { Client, isApiError } = await import("estatekit");
  const { createTokenProvider } = await import("estatekit/auth");
  const { createWebhookHandler } = await import("estatekit/webhooks");
  const tokens = createTokenProvider({
    baseUrl,
    clientId: "dev-client",
    clientSecret: "dev-secret",
    username: "admin@acme.test",
    password: "dev-password",
  });
  const client = new Client({ baseUrl, getToken: (reason) => tokens.getToken(reason) });
  const webhooks = await client.listWebhooks();
  let refused;
  try {
    await client.getDocument("doc-missing-cjs");
  } catch (e) {
    refused = { isApiError: isApiError(e), kind: e.kind, status: e.status };
  }
  // A body that is not an event: refused with 400, told to onError.
  let told;
  const handler = createWebhookHandler({ on: {}, onError: (error) => (told = error.status) });
  const notEvent = await handler(new Request("http://127.0.0.1/hooks", { method: "POST", body: "{}" }));
  console.log(
    JSON.stringify({
      runtime,
      commonJs: typeof module === "object" && typeof require === "function",
      listed: Array.isArray(webhooks),
      refused,
      notEvent: [notEvent.status, told],
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
