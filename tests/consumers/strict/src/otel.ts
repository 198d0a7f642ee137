// `estatekit/otel` alone: OpenTelemetry for a Client, a token provider, user tokens or a webhook
// handler (its types from @opentelemetry/api, an optional peer this project installs).
import { instrument, VERSION } from "estatekit/otel";
import type { InstrumentOptions, WebhookRequestHandler } from "estatekit/otel";

export function traced(handler: WebhookRequestHandler, options: InstrumentOptions = { propagate: false }): [WebhookRequestHandler, string] {
  return [instrument(handler, options), VERSION];
}
