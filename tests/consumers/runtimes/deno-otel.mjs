// estatekit/otel on Deno's own OpenTelemetry (OTEL_DENO=true; no SDK imported): `instrument(client)`
// with no providers reports to the global ones, which Deno registers with npm:@opentelemetry/api.
// Run by tests/consumers/runtimes.test.mjs, which sets OTEL_EXPORTER_OTLP_* to its receiver and
// decodes what Deno exports:
// - one call to the emulator (ESTATEKIT_EMULATOR_URL) inside an app's span;
// - one call to the test's recorder (RECORDER_URL, which keeps each request's `traceparent`) by a
//   client instrumented with `propagate: true`, then one by a client instrumented without.
// Prints one JSON line.
import { trace } from "@opentelemetry/api";
import { Client } from "estatekit";
import { instrument } from "estatekit/otel";

const env = (name) => Deno.env.get(name);
const client = instrument(new Client({ baseUrl: env("ESTATEKIT_EMULATOR_URL"), token: "dev-token" }));
const webhooks = await trace.getTracer("app").startActiveSpan("GET /app/route", async (span) => {
  try {
    return await client.listWebhooks();
  } finally {
    span.end();
  }
});
const recorder = (options) => instrument(new Client({ baseUrl: env("RECORDER_URL"), token: "dev-token" }), options);
await recorder({ propagate: true }).listWebhooks();
await recorder().listWebhooks();
console.log(JSON.stringify({ webhooks: webhooks.length }));
