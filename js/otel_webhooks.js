// estatekit/otel's part for estatekit/webhooks: a handler made by `createWebhookHandler`, wrapped
// (a new function with the same call signature and the original's own properties) so that each
// delivery is a SERVER span `estatekit webhook receive` inside which the original handler runs
// (`context.with`): the spans the app makes in its event callbacks are its children. The handler
// tells how the delivery ended through its internal hook (see ./webhooks_receiver.js,
// `Delivery`): the event's type and id and the outcome, nothing of the body. Only
// OpenTelemetry's API is used.
//
// - The span: `http.request.method`, `http.response.status_code` (the answer's),
//   `estatekit.webhook.outcome` (`new`, `duplicate`, `in_progress`, `handler_failed`,
//   `store_unavailable`, `refused`, `error`), `estatekit.webhook.event_type` and
//   `estatekit.webhook.delivery_id` once the body was read as an event, `error.type` for a
//   refusal (its reason: `method`, `too_large`, `invalid_event`, `subdomain`) and for the
//   failures (the outcome). Status ERROR for the failures (`handler_failed`,
//   `store_unavailable`, `error`: a 5xx the receiver is to blame for); a refusal is a 4xx, which
//   the HTTP server conventions leave unset; `in_progress` asks the sender to retry (503) as
//   dedupe means to. No `url.*`: a webhook's URL may hold the app's secret path segment.
// - `estatekit.webhook.deliveries` counts deliveries by outcome, event type (a type outside the
//   28 counts as `_OTHER`) and `error.type`.
// - With `queue` (the queued mode), the SERVER span ends when the job is added (outcome
//   `queued`, or `queue_unavailable`: a 503), and its trace context travels in the job's data
//   (`traceparent`). A processor made by `webhookProcessor`, instrumented, gives each job a
//   CONSUMER span `process <queue>` linked to the delivery's span (a new trace: the job may run
//   much later, several times), with the event's type and uuid, the attempt and the outcome
//   (`handled` / `failed`, status ERROR), and records the time the job waited in the queue
//   (`estatekit.webhook.queue.wait`, seconds: from the job's creation to the start of this run).
import { SpanKind, SpanStatusCode, TraceFlags, context, trace } from "@opentelemetry/api";
import { within } from "./otel_telemetry.js";

/** The hook's key (./webhooks_receiver.js). */
const OBSERVE = Symbol.for("estatekit.webhooks.observe");
/** The processor's hook's key (./webhooks_receiver.js). */
const PROCESS = Symbol.for("estatekit.webhooks.process");

/** The outcomes that are the receiver's failures (span status ERROR). */
const FAILURES = new Set(["handler_failed", "store_unavailable", "queue_unavailable", "error"]);

/** @typedef {import("./webhooks_receiver.js").Delivery} Delivery */
/** @typedef {(request: Request, observer: ((delivery: Delivery) => void) | undefined, traceparent: (() => string | undefined) | undefined) => Promise<Response>} Observed */
/** @typedef {import("./webhooks_receiver.js").Processed} Processed */
/** @typedef {import("./webhooks_receiver.js").WebhookJob} WebhookJob */
/** @typedef {(job: WebhookJob, token: string | undefined, observer: ((processed: Processed) => void) | undefined) => Promise<void>} Processing */

/**
 * The W3C `traceparent` of a span (version 00).
 * @param {import("@opentelemetry/api").Span} span
 */
function traceparentOf(span) {
  const { traceId, spanId, traceFlags } = span.spanContext();
  if (!trace.isSpanContextValid(span.spanContext())) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? "01" : "00"}`;
}

/**
 * The span context a `traceparent` names (version 00), or undefined.
 * @param {unknown} value
 * @returns {import("@opentelemetry/api").SpanContext | undefined}
 */
function parseTraceparent(value) {
  const m = typeof value === "string" ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value) : null;
  if (!m) return undefined;
  const found = { traceId: /** @type {string} */ (m[1]), spanId: /** @type {string} */ (m[2]), traceFlags: parseInt(/** @type {string} */ (m[3]), 16) & TraceFlags.SAMPLED, isRemote: true };
  return trace.isSpanContextValid(found) ? found : undefined;
}

/**
 * The telemetries each handler (original or wrapped) reports to already: instrumenting it again
 * with one of them gives it back as it is.
 * @type {WeakMap<Function, object[]>}
 */
const reporting = new WeakMap();

/**
 * Whether `x` is a handler made by estatekit/webhooks' `createWebhookHandler` (any copy of the
 * package), or one instrumented already.
 * @param {unknown} x
 * @returns {boolean}
 */
export function isHandler(x) {
  return typeof x === "function" && typeof (/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (x)))[OBSERVE] === "function";
}

/** The HTTP methods the semantic conventions know (others are `_OTHER`). */
const KNOWN_METHODS = new Set(["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE", "QUERY"]);

/**
 * `http.request.method` of a delivery as the HTTP conventions give it: a known method as sent,
 * any other `_OTHER` with the sent one in `http.request.method_original` (the sender chooses it).
 * @param {unknown} method
 * @returns {import("@opentelemetry/api").Attributes}
 */
function methodAttributes(method) {
  if (typeof method !== "string") return {};
  if (KNOWN_METHODS.has(method)) return { "http.request.method": method };
  return { "http.request.method": "_OTHER", "http.request.method_original": method };
}

/**
 * The handler wrapped (see the module's comment), or `handler` itself when it reports to
 * `telemetry` already.
 * @template {(request: Request) => Promise<Response>} H
 * @param {H} handler
 * @param {import("./otel_telemetry.js").Telemetry} telemetry
 * @returns {H}
 */
export function instrumentHandler(handler, telemetry) {
  const already = reporting.get(handler) ?? [];
  if (already.includes(telemetry)) return handler;
  const deliver = /** @type {Observed} */ ((/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (handler)))[OBSERVE]);
  const { tracer, deliveries } = telemetry;

  /** @type {Observed} */
  const observed = (request, outer, _traceparent) => {
    const method = /** @type {{ method?: unknown }} */ (request ?? {}).method;
    /** @type {import("@opentelemetry/api").Span} */
    let span;
    /** @type {import("@opentelemetry/api").Context} */
    let inSpan;
    try {
      span = tracer.startSpan("estatekit webhook receive", {
        kind: SpanKind.SERVER,
        attributes: methodAttributes(method),
      });
      inSpan = trace.setSpan(context.active(), span);
    } catch {
      // A broken tracer or context manager: the delivery is handled as without telemetry.
      return deliver(request, outer, undefined);
    }
    /** @type {Delivery | undefined} */
    let told;
    /** @param {Delivery} delivery */
    const observer = (delivery) => {
      told = delivery;
      outer?.(delivery);
    };
    /** @param {Response | undefined} response */
    const finish = (response) => {
      try {
        report(response);
      } catch {
        // Telemetry never changes how a delivery is answered.
      }
    };
    /** @param {Response | undefined} response */
    const report = (response) => {
      const outcome = told?.outcome ?? "error";
      /** @type {import("@opentelemetry/api").Attributes} */
      const attributes = { "estatekit.webhook.outcome": outcome };
      /** @type {import("@opentelemetry/api").Attributes} */
      const counted = { "estatekit.webhook.outcome": outcome };
      // The body is not signed: what it names is bounded (an unknown type is `_OTHER`, as the
      // conventions write a value outside a closed list; an id at most 128 characters).
      if (told?.type !== undefined) {
        attributes["estatekit.webhook.event_type"] = counted["estatekit.webhook.event_type"] = told.known ? told.type : "_OTHER";
      }
      if (told?.id !== undefined) attributes["estatekit.webhook.delivery_id"] = String(told.id).slice(0, 128);
      const errorType = outcome === "refused" ? told?.refusal : FAILURES.has(outcome) ? outcome : undefined;
      if (errorType !== undefined) attributes["error.type"] = counted["error.type"] = errorType;
      if (response) attributes["http.response.status_code"] = response.status;
      span.setAttributes(attributes);
      if (FAILURES.has(outcome)) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      deliveries.add(1, counted);
    };
    /** @type {Promise<Response>} */
    let answered;
    try {
      answered = within(() => inSpan, deliver, request, observer, () => traceparentOf(span));
    } catch (e) {
      finish(undefined);
      throw e;
    }
    return Promise.resolve(answered).then(
      (response) => {
        finish(response);
        return response;
      },
      (error) => {
        finish(undefined);
        throw error;
      },
    );
  };

  /** @param {Request} request */
  const wrapped = async function receive(request) {
    return observed(request, undefined, undefined);
  };
  for (const key of Reflect.ownKeys(handler)) {
    if (key === "prototype" || key === OBSERVE) continue;
    const descriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(handler, key));
    try {
      Object.defineProperty(wrapped, key, descriptor);
    } catch {
      // A property the new function cannot take (none of an ordinary function's).
    }
  }
  Object.defineProperty(wrapped, OBSERVE, { value: observed });
  if (Object.isFrozen(handler)) Object.freeze(wrapped);
  reporting.set(wrapped, [...already, telemetry]);
  return /** @type {H} */ (/** @type {unknown} */ (wrapped));
}

/**
 * Whether `x` is a processor made by estatekit/webhooks' `webhookProcessor`.
 * @param {unknown} x
 */
export function isProcessor(x) {
  return typeof x === "function" && typeof (/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (x)))[PROCESS] === "function";
}

/**
 * The processor wrapped (see the module's comment), or `processor` itself when it reports to
 * `telemetry` already.
 * @template {(job: WebhookJob, token?: string) => Promise<void>} P
 * @param {P} processor
 * @param {import("./otel_telemetry.js").Telemetry} telemetry
 * @returns {P}
 */
export function instrumentProcessor(processor, telemetry) {
  const already = reporting.get(processor) ?? [];
  if (already.includes(telemetry)) return processor;
  const run = /** @type {Processing} */ ((/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (processor)))[PROCESS]);
  const { tracer, queueWait } = telemetry;

  /** @type {Processing} */
  const observed = (job, token, outer) => {
    /** @type {import("@opentelemetry/api").Span} */
    let span;
    /** @type {import("@opentelemetry/api").Context} */
    let inSpan;
    const queueName = /** @type {{ queueName?: unknown }} */ (job ?? {}).queueName;
    const destination = typeof queueName === "string" ? queueName : undefined;
    try {
      const linked = parseTraceparent(/** @type {{ traceparent?: unknown }} */ (/** @type {{ data?: unknown }} */ (job ?? {}).data ?? {}).traceparent);
      /** @type {import("@opentelemetry/api").Attributes} */
      const attributes = { "messaging.operation.type": "process", "messaging.operation.name": "process" };
      if (destination !== undefined) attributes["messaging.destination.name"] = destination;
      if (typeof job?.id === "string") attributes["messaging.message.id"] = job.id.slice(0, 128);
      span = tracer.startSpan(
        destination === undefined ? "process" : `process ${destination}`,
        { kind: SpanKind.CONSUMER, attributes, links: linked ? [{ context: linked }] : [], root: true },
      );
      inSpan = trace.setSpan(context.active(), span);
      const created = Number(job?.timestamp);
      const started = Number(job?.processedOn ?? Date.now());
      if (Number.isFinite(created) && Number.isFinite(started) && started >= created) {
        queueWait.record((started - created) / 1000, destination === undefined ? {} : { "messaging.destination.name": destination });
      }
    } catch {
      return run(job, token, outer);
    }
    /** @type {Processed | undefined} */
    let told;
    /** @param {Processed} processed */
    const observer = (processed) => {
      told = processed;
      outer?.(processed);
    };
    /** @param {unknown} [error] */
    const finish = (error) => {
      try {
        const outcome = told?.outcome ?? "failed";
        /** @type {import("@opentelemetry/api").Attributes} */
        const attributes = { "estatekit.webhook.outcome": outcome };
        if (told?.type !== undefined) attributes["estatekit.webhook.event_type"] = told.known ? told.type : "_OTHER";
        if (told?.id !== undefined) attributes["estatekit.webhook.delivery_id"] = String(told.id).slice(0, 128);
        if (told) attributes["estatekit.webhook.attempt"] = told.attempt;
        if (outcome === "failed") {
          attributes["error.type"] = error instanceof Error ? error.name : "failed";
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.setAttributes(attributes);
        span.end();
      } catch {
        // Telemetry never changes how a job runs.
      }
    };
    /** @type {Promise<void>} */
    let ran;
    try {
      ran = within(() => inSpan, run, job, token, observer);
    } catch (e) {
      finish(e);
      throw e;
    }
    return Promise.resolve(ran).then(
      () => finish(),
      (error) => {
        finish(error);
        throw error;
      },
    );
  };

  /** @param {WebhookJob} job @param {string} [token] */
  const wrapped = async function process(job, token) {
    return observed(job, token, undefined);
  };
  Object.defineProperty(wrapped, PROCESS, { value: observed });
  reporting.set(wrapped, [...already, telemetry]);
  return /** @type {P} */ (/** @type {unknown} */ (wrapped));
}
