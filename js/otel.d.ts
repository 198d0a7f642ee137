// The declarations of otel.js (`estatekit/otel`): OpenTelemetry traces and metrics for a Client,
// estatekit/auth's token provider and user tokens, and estatekit/webhooks' handler. The types of
// OpenTelemetry come from @opentelemetry/api (an optional peer of the package: install it, and
// an SDK, to use this entry).
import type { MeterProvider, TracerProvider } from "@opentelemetry/api";
import type { Client } from "./estatekit.js";
import type { TokenProvider, UserTokens } from "./auth.js";
import type { EventStreamRoute } from "./live.js";

/** How `instrument` reports. */
export interface InstrumentOptions {
    /** The tracer provider spans go to (default: the global one, `trace.getTracerProvider()`). */
    tracerProvider?: TracerProvider;
    /** The meter provider metrics go to (default: the global one, `metrics.getMeterProvider()`). */
    meterProvider?: MeterProvider;
    /**
     * Adds W3C trace context (`traceparent`, `tracestate`) to every request the client sends
     * through `fetch` (default `false`: whether the service accepts the header is unknown, and a
     * browser's CORS preflight may refuse it, which would fail every call). Uploads a browser
     * sends by XMLHttpRequest (with `onProgress`) never carry it.
     */
    propagate?: boolean;
}

/** A webhook handler of estatekit/webhooks (`createWebhookHandler(...)`). */
export type WebhookRequestHandler = (request: Request) => Promise<Response>;

/** A job processor of estatekit/webhooks (`webhookProcessor(...)`), for a BullMQ Worker. */
export type WebhookJobProcessor = (job: never, token?: string) => Promise<void>;

/**
 * Instruments a `Client`: returns the same object, its operation methods defined as own
 * properties that wrap the prototype's (instrumenting it again changes nothing). Per call, an
 * INTERNAL span `estatekit <operation>` (child of the span active at the method call) parent of
 * one CLIENT span per HTTP request sent (retries are siblings with `http.request.resend_count`),
 * by the HTTP client conventions; `http.client.request.duration`, and the counters
 * `estatekit.client.retries` and `estatekit.client.rate_limit.waits`. Each request runs with
 * tracing suppressed below its CLIENT span, so that an app's own fetch instrumentation does not
 * report the same request twice. No token or secret is ever reported.
 */
export function instrument<T extends Client>(client: T, options?: InstrumentOptions): T;
/** Instruments estatekit/auth's token provider (`createTokenProvider(...)`): token grants as spans and counted. */
export function instrument<T extends TokenProvider>(provider: T, options?: InstrumentOptions): T;
/** Instruments estatekit/auth's user tokens (`createUserTokens(...)`): refresh grants as spans and counted. */
export function instrument<T extends UserTokens>(tokens: T, options?: InstrumentOptions): T;
/**
 * Instruments estatekit/live's stream route (`createEventStream(...)`): returns the same route
 * (its `close()` and `open` unchanged), whose streams opened from then on are reported: the
 * UpDownCounter `estatekit.live.open_streams`, the counter `estatekit.live.events.sent` (by
 * `estatekit.webhook.event_type`) and the histogram `estatekit.live.delay` (seconds, from the
 * receiver's append of the event to its write on each stream; `estatekit.live.catch_up`).
 * (Before the handler's signature, which a route also has.)
 */
export function instrument<T extends EventStreamRoute>(route: T, options?: InstrumentOptions): T;
/**
 * Instruments estatekit/webhooks' handler (`createWebhookHandler(...)`): returns a new function
 * (the handler given is left as it is), a SERVER span per delivery, the handler's own spans
 * under it, deliveries counted by outcome.
 */
export function instrument(handler: WebhookRequestHandler, options?: InstrumentOptions): WebhookRequestHandler;
/**
 * Instruments estatekit/webhooks' job processor (`webhookProcessor(...)`, a BullMQ Worker's):
 * returns a wrapper, a CONSUMER span `process <queue>` per job run, linked to the delivery's
 * SERVER span (the trace context travels in the job's data), with the event's type and uuid,
 * `estatekit.webhook.attempt` and the outcome (`handled`, `failed`); the time the job waited in
 * the queue is the histogram `estatekit.webhook.queue.wait` (seconds).
 */
export function instrument(processor: WebhookJobProcessor, options?: InstrumentOptions): WebhookJobProcessor;

/** estatekit's version, the instrumentation scope's (the scope's name is `estatekit`). */
export declare const VERSION: string;
