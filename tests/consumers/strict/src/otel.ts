// `estatekit/otel` alone: OpenTelemetry for a Client, a token provider, user tokens or a webhook
// handler (its types from @opentelemetry/api, an optional peer this project installs).
import { instrument, VERSION } from "estatekit/otel";
import type { InstrumentOptions, WebhookRequestHandler } from "estatekit/otel";

export function traced<T extends WebhookRequestHandler>(handler: T, options: InstrumentOptions = { propagate: false }): [T, string] {
  return [instrument(handler, options), VERSION];
}
