// Type tests of estatekit/otel: `instrument` gives back what it was given, with the same type
// (a Client, a token provider, user tokens), or a new function for a webhook handler, takes
// OpenTelemetry's providers, and refuses anything else. Checked by `tsc --strict --noEmit` (make test-types); never run.
import { Client, type ClientEvent } from "estatekit";
import { createTokenProvider, createUserTokens, type TokenProvider, type UserTokens } from "estatekit/auth";
import { createWebhookHandler } from "estatekit/webhooks";
import { createEventStream, createMemoryEventLog, type EventStreamRoute } from "estatekit/live";
import { instrument, VERSION, type InstrumentOptions } from "estatekit/otel";
import { metrics, trace } from "@opentelemetry/api";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expect<T extends true>(): void {}

const client = instrument(new Client({ baseUrl: "https://acme.example.com", token: "t" }));
expect<Equal<typeof client, Client>>();
void client.listWebhooks({ onEvent: (event: ClientEvent) => void event.callId });

class AppClient extends Client {
  extra = 1;
}
const sub = instrument(new AppClient({ baseUrl: "https://acme.example.com", token: "t" }), { propagate: true });
expect<Equal<typeof sub, AppClient>>();

const options: InstrumentOptions = {
  tracerProvider: trace.getTracerProvider(),
  meterProvider: metrics.getMeterProvider(),
  propagate: false,
};
const provider = instrument(
  createTokenProvider({ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "s", username: "u", password: "p" }),
  options,
);
expect<Equal<typeof provider, TokenProvider>>();
const tokens = instrument(createUserTokens({ baseUrl: "https://acme.example.com", clientId: "c", clientSecret: "s" }));
expect<Equal<typeof tokens, UserTokens>>();
const handler = instrument(createWebhookHandler({ subdomain: "acme", on: {} }));
expect<Equal<typeof handler, (request: Request) => Promise<Response>>>();
// A handler is wrapped in a new function: what comes back is a handler, not the object given.
const tagged = Object.assign(createWebhookHandler({ on: {} }), { route: "/hooks" });
const wrapped = instrument(tagged);
expect<Equal<typeof wrapped, (request: Request) => Promise<Response>>>();
// @ts-expect-error the wrapper is not the handler given (its own properties are not promised)
const sameHandler: typeof tagged = wrapped;
void sameHandler;

// A stream route comes back as it is (the same function, its close() and open kept).
const stream = instrument(createEventStream({ log: createMemoryEventLog(), authorize: () => ({ account: "acme" }) }));
expect<Equal<typeof stream, EventStreamRoute>>();
const openStreams: number = stream.open;
void openStreams;

const version: string = VERSION;
void version;

// @ts-expect-error not something estatekit/otel instruments
instrument({ listWebhooks: () => Promise.resolve([]) });
// @ts-expect-error propagate is a boolean
instrument(client, { propagate: "yes" });
// @ts-expect-error a tracer is not a tracer provider
instrument(client, { tracerProvider: trace.getTracer("app") });
