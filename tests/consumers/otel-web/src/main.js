// A page tracing its calls as an app does with OpenTelemetry's web SDK: a WebTracerProvider
// registered globally (its StackContextManager, the W3C propagator), here with an in-memory
// exporter the test reads, and a Client instrumented by estatekit/otel with the global providers
// (no meter provider: the API's no-op one). Inside a span of its own the page lists the webhooks,
// then asks for a document that does not exist (a 404). The service is `?api=` (another origin,
// so that every call is preceded by a CORS preflight); `?propagate=1` turns propagation on.
// The finished spans go to document.body.dataset.result.
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { WebTracerProvider } from "@opentelemetry/sdk-trace-web";
import { Client, isApiError } from "estatekit";
import { instrument } from "estatekit/otel";

const exporter = new InMemorySpanExporter();
new WebTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

const params = new URLSearchParams(location.search);
const propagate = params.get("propagate") === "1";
const client = instrument(new Client({ baseUrl: params.get("api") ?? location.origin, token: "dev-token" }), { propagate });

/** A finished span as plain data (tests/consumers/otel-spans.mjs reads this shape). */
const plain = (span) => ({
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId,
  name: span.name,
  kind: span.kind,
  scope: span.instrumentationScope.name,
  attributes: span.attributes,
  status: span.status,
  events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
});

async function run() {
  const page = trace.getTracer("estatekit-consumer-otel-web").startSpan("show webhooks");
  const inPage = trace.setSpan(context.active(), page);
  const result = { instrumentedIsClient: client instanceof Client, propagate };
  try {
    // context.with runs the call's first, synchronous part with the page's span active: that is
    // when the instrumented client reads its parent (the StackContextManager keeps no context
    // across an await).
    const webhooks = await context.with(inPage, () => client.listWebhooks());
    result.webhooks = webhooks.map((w) => w.id);
    try {
      await context.with(inPage, () => client.getDocument("no-such-document"));
      result.missing = "found";
    } catch (e) {
      result.missing = isApiError(e) ? e.kind : String(e);
    }
    result.ok = true;
  } catch (e) {
    Object.assign(result, { ok: false, kind: e?.kind, message: String(e?.message ?? e) });
  } finally {
    page.end();
  }
  result.spans = exporter.getFinishedSpans().map(plain);
  return result;
}

run().then(
  (result) => {
    document.querySelector("#out").textContent = JSON.stringify(result, null, 2);
    document.body.dataset.result = JSON.stringify(result);
  },
  (e) => (document.body.dataset.result = JSON.stringify({ ok: false, message: String(e?.stack ?? e) })),
);
