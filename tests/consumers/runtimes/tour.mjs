// A backend's tour of the packed estatekit, the same file run by Node, Bun and Deno
// (tests/consumers/runtimes.test.mjs), each resolving the package's `node` entries from this
// project's node_modules:
// - estatekit/auth's token provider signs in (password grant) against the native emulator
//   (ESTATEKIT_EMULATOR_URL), and a Client with it makes every operation once, inside an app's
//   span (as a route handler's call is), plus one refused call;
// - estatekit/testing's in-process emulator delivers a webhook event twice (same uuid) to
//   estatekit/webhooks' handler (dedupe on): handled once;
// - estatekit/otel instruments the provider, the client and the handler with OpenTelemetry's SDK
//   (spans kept in memory, AsyncLocalStorage as the context manager, metrics read on demand).
// It prints one JSON line: what the calls answered, the span tree (names, kinds, parents), the
// metrics' names and how many of the secrets (the client secret, the password, every access and
// refresh token the token endpoint issued, the webhook body's marker) appear anywhere in the
// exported spans and metric points. It never prints a secret.
import { ROOT_CONTEXT, SpanKind, context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { Client, isApiError } from "estatekit";
import { createTokenProvider } from "estatekit/auth";
import { instrument } from "estatekit/otel";
import { createTestService } from "estatekit/testing";
import { createWebhookHandler } from "estatekit/webhooks";

const runtime = typeof Deno !== "undefined" ? "deno" : typeof Bun !== "undefined" ? "bun" : "node";
const env = (name) => (typeof Deno !== "undefined" ? Deno.env.get(name) : process.env[name]);
const baseUrl = env("ESTATEKIT_EMULATOR_URL");
if (!baseUrl) throw new Error("tour.mjs: set ESTATEKIT_EMULATOR_URL to the emulator's URL");

const SECRETS = { clientSecret: "dev-secret", password: "dev-password" };
const BODY_MARKER = "tour-body-marker-Z4q8";

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
class OnDemandReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}
const reader = new OnDemandReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const providers = { tracerProvider, meterProvider };
const tracer = tracerProvider.getTracer("tour");

// Calls over HTTP, with a signed-in staff user's tokens. The global `fetch` (which the provider and
// the client use, as an app's do) keeps every token the token endpoint issues (access and
// refresh), for the secrets check.
const given = [];
const issued = [];
const platformFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const response = await platformFetch(input, init);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (response.ok && new URL(url).pathname.endsWith("/accounts/oauth/token")) {
    const set = await response.clone().json();
    for (const token of [set.access_token, set.refresh_token]) if (typeof token === "string") issued.push(token);
  }
  return response;
};
const provider = instrument(
  createTokenProvider({ baseUrl, clientId: "dev-client", clientSecret: SECRETS.clientSecret, username: "admin@acme.test", password: SECRETS.password }),
  providers,
);
const client = instrument(
  new Client({
    baseUrl,
    getToken: async (reason) => {
      const token = await provider.getToken(reason);
      given.push(typeof token === "string" ? token : token.token);
      return token;
    },
  }),
  providers,
);

const answers = await tracer.startActiveSpan("GET /app/route", async (route) => {
  const webhookId = await client.registerWebhook({ type: "UNIT_CREATED", url: `https://hooks.example/${runtime}` });
  const ensured = await client.ensureWebhook({ type: "UNIT_CREATED", url: `https://hooks.example/${runtime}` });
  const webhooks = await client.listWebhooks();
  const file = new Blob(["tour ".repeat(200)], { type: "text/plain" });
  const uploaded = await client.uploadDocument({ file, resourcePath: `units/${runtime}`, name: `${runtime}.txt` });
  const listed = await client.listDocuments();
  const got = await client.getDocument(uploaded.id);
  await client.deleteDocument(uploaded.id);
  const messages = await client.listMessages({ candidateId: "cand-bulk" }, { fields: ["id"] });
  await client.deleteWebhook(webhookId);
  let refused;
  try {
    await client.getDocument(uploaded.id);
  } catch (e) {
    refused = { isApiError: isApiError(e), kind: e.kind, status: e.status };
  }
  route.end();
  return {
    registered: webhookId === ensured,
    listed: webhooks.some((w) => w.id === webhookId),
    uploaded: { title: uploaded.title, size: uploaded.size, listed: listed.some((d) => d.id === uploaded.id), got: got.id === uploaded.id },
    messages: messages.length,
    refused,
  };
});

// Webhook deliveries from the in-process emulator: one event sent twice.
const handled = [];
const handler = instrument(
  createWebhookHandler({
    dedupe: true,
    on: {
      UNIT_CREATED: (event) =>
        tracer.startActiveSpan("app: unit created", async (span) => {
          await Promise.resolve();
          handled.push(event.uuid);
          span.end();
        }),
    },
  }),
  providers,
);
const service = await createTestService({ deliveryBackoffMs: 1, deliver: (url, init) => handler(new Request(url, init)) });
const local = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
await local.registerWebhook({ type: "UNIT_CREATED", url: "https://hooks.example/tour" });
const emitted = await service.emit("UNIT_CREATED", { data: { unitId: "unit-tour", note: BODY_MARKER }, copies: 1 });
const records = await service.settled();
service.close();
const deliveries = { statuses: records.map((r) => r.status), handledOnce: handled.length === 1 && handled[0] === emitted.uuid };

// What was exported, as a tree of names (ids replaced by the parent's name).
const spans = exporter.getFinishedSpans();
const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
const tree = spans
  .map((s) => {
    const parent = byId.get(s.parentSpanContext?.spanId ?? "");
    return `${s.name} [${SpanKind[s.kind]}] < ${parent ? parent.name : "-"}`;
  })
  .sort();
const { resourceMetrics } = await reader.collect();
const metrics = resourceMetrics.scopeMetrics
  .flatMap((scope) => scope.metrics.map((m) => m.descriptor.name))
  .sort();
const exported = JSON.stringify([
  spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })),
  resourceMetrics,
]);
const secrets = [SECRETS.clientSecret, SECRETS.password, BODY_MARKER, ...issued]; // `given` among them
const secretHits = secrets.filter((secret) => exported.includes(secret)).length;

console.log(
  JSON.stringify({
    runtime,
    answers,
    deliveries,
    tree,
    metrics,
    tokensGiven: given.length,
    tokensIssued: issued.length,
    givenWereIssued: given.every((token) => issued.includes(token)),
    secretsChecked: secrets.length,
    secretHits,
    rootContext: context.active() === ROOT_CONTEXT,
  }),
);
