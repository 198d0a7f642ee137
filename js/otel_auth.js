// estatekit/otel's part for estatekit/auth: a token provider (`createTokenProvider`) or user
// tokens (`createUserTokens`) instrumented in place, through their internal hook (see
// ./auth_tokens.js, `observers`): the object comes back as it is (frozen, same methods), and
// each call made while it is observed hands the module a function told what the round it starts
// does. Only OpenTelemetry's API is used; nothing secret is read (the events carry none).
//
// - Each grant request is a CLIENT span `estatekit token <grant type>` (one request to the token
//   endpoint, the remote service: its status code, server and URL are a client request's; a
//   grant repeated after a failure gives one span per request, as the events do). It is the
//   child of the context where the call that started the round was made (concurrent callers
//   share the first caller's round, so its context), read at that call, synchronously. It is
//   recorded when the request ended (the module tells a grant once it is answered or failed)
//   with its real start: the end minus the request's duration, measured by the module.
//   Attributes: `http.request.method`, `server.address`, `server.port`, `url.full` (the token
//   endpoint), `http.response.status_code` when answered, `estatekit.token.grant_type`,
//   `estatekit.token.outcome` (`ok` or the ApiError kind), and on a failure `error.type` (the
//   status code when the answer was an error, else the kind) with status ERROR.
//   A `getToken` that a Client calls (its `getToken` option) is called from the client's module,
//   where the active context is not the call's: the Client's instrumentation is what makes it
//   the operation's (by calling it inside the operation span's context).
// - `shared`, `successor`, `storeUnavailable` and the store waits are events of the caller's
//   span (the span active where the call was made; none when there is none).
// - `estatekit.token.grants` counts the grant requests by grant type and outcome.
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import { active, serverAttributes, within } from "./otel_telemetry.js";

/** The hook's key (./auth_tokens.js). */
const OBSERVE = Symbol.for("estatekit.tokens.observe");

/** Attribute names of the token spans, events and metric. */
const TOKEN_ATTRIBUTES = Object.freeze({
  grantType: "estatekit.token.grant_type",
  outcome: "estatekit.token.outcome",
  hops: "estatekit.token.successor.hops",
  storeOperation: "estatekit.store.operation",
});

/** The span events' names, by the signal they come from. */
const TOKEN_EVENTS = Object.freeze({
  shared: "estatekit.token.shared",
  successor: "estatekit.token.successor",
  storeUnavailable: "estatekit.token.store_unavailable",
  storeWait: "estatekit.token.store_wait",
});

/**
 * The objects instrumented so far, with the telemetry of each instrumentation: instrumenting
 * the same object twice with the same telemetry adds nothing.
 * @type {WeakMap<object, WeakSet<object>>}
 */
const instrumented = new WeakMap();

/**
 * Whether `x` is a token provider or user tokens of estatekit/auth (any copy of the package).
 * @param {unknown} x
 * @returns {boolean}
 */
export function isTokens(x) {
  return typeof x === "object" && x !== null && typeof (/** @type {Record<symbol, unknown>} */ (x))[OBSERVE] === "function";
}

/**
 * The span attributes of a request to the token endpoint `tokenUrl` (none when it is unknown).
 * @param {string | undefined} tokenUrl
 * @returns {import("@opentelemetry/api").Attributes}
 */
function endpointAttributes(tokenUrl) {
  if (!tokenUrl) return { "http.request.method": "POST" };
  return { "http.request.method": "POST", ...serverAttributes(new URL(tokenUrl)), "url.full": tokenUrl };
}

/**
 * Instruments a token provider or user tokens in place (see the module's comment) and gives it
 * back.
 * @template {object} T
 * @param {T} target
 * @param {import("./otel_telemetry.js").Telemetry} telemetry
 * @returns {T}
 */
export function instrumentTokens(target, telemetry) {
  let seen = instrumented.get(target);
  if (seen?.has(telemetry)) return target;
  if (!seen) instrumented.set(target, (seen = new WeakSet()));
  seen.add(telemetry);
  const { tracer, grants } = telemetry;
  /** @type {import("@opentelemetry/api").Attributes} */
  let endpoint = {};
  const hook = /** @type {(observer: unknown) => { tokenUrl?: string }} */ (/** @type {Record<symbol, unknown>} */ (target)[OBSERVE]);
  const observer = {
    /** The caller's context, read at the call. */
    begin: active,
    /**
     * Sends a grant request with tracing suppressed below the caller's context: an app's fetch
     * instrumentation (undici's, @vercel/otel's, Next.js's) makes no span of it, the grant's own
     * CLIENT span is the one.
     * @param {(url: string, init: RequestInit) => unknown} fetch
     * @param {string} url
     * @param {RequestInit} init
     * @param {unknown} scope
     */
    send: (fetch, url, init, scope) =>
      within(() => suppressTracing(/** @type {import("@opentelemetry/api").Context} */ (scope)), fetch, url, init),
    /**
     * Records a signal of the round; what fails in the telemetry is dropped (it never reaches
     * the caller, and the next observer is still told).
     * @param {{ type: string, grant?: string, ok?: boolean, kind?: string, status?: number, durationMs?: number, hops?: number, operation?: string }} signal
     * @param {unknown} scope
     */
    signal(signal, scope) {
      try {
        record(signal, /** @type {import("@opentelemetry/api").Context} */ (scope));
      } catch {
        // A tracer or meter that throws is not the caller's failure.
      }
    },
  };
  /**
   * Records one signal of a round in the context `parent` (the caller's), as the module's
   * comment says.
   * @param {{ type: string, grant?: string, ok?: boolean, kind?: string, status?: number, durationMs?: number, hops?: number, operation?: string }} signal
   * @param {import("@opentelemetry/api").Context} parent
   */
  function record(signal, parent) {
    switch (signal.type) {
      case "grant": {
        const grantType = String(signal.grant);
        const outcome = signal.ok ? "ok" : String(signal.kind);
        const end = Date.now();
        /** @type {import("@opentelemetry/api").Attributes} */
        const attributes = { ...endpoint, [TOKEN_ATTRIBUTES.grantType]: grantType, [TOKEN_ATTRIBUTES.outcome]: outcome };
        if (typeof signal.status === "number") attributes["http.response.status_code"] = signal.status;
        // As on the client's CLIENT spans (the HTTP conventions): an error status code when
        // the answer says one, else the ApiError kind.
        if (!signal.ok) attributes["error.type"] = typeof signal.status === "number" && signal.status >= 400 ? String(signal.status) : outcome;
        const span = tracer.startSpan(
          `estatekit token ${grantType}`,
          { kind: SpanKind.CLIENT, startTime: end - Math.max(0, Number(signal.durationMs) || 0), attributes },
          parent,
        );
        if (!signal.ok) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end(end);
        grants.add(1, { [TOKEN_ATTRIBUTES.grantType]: grantType, [TOKEN_ATTRIBUTES.outcome]: outcome });
        return;
      }
      case "shared":
        return trace.getSpan(parent)?.addEvent(TOKEN_EVENTS.shared);
      case "successor":
        return trace.getSpan(parent)?.addEvent(TOKEN_EVENTS.successor, { [TOKEN_ATTRIBUTES.hops]: Number(signal.hops) });
      case "storeUnavailable":
        // The operation only: the reason (secrets hidden) stays with onEvent.
        return trace.getSpan(parent)?.addEvent(TOKEN_EVENTS.storeUnavailable, { [TOKEN_ATTRIBUTES.storeOperation]: String(signal.operation) });
      case "storeWait":
        return trace.getSpan(parent)?.addEvent(TOKEN_EVENTS.storeWait);
      default:
        return; // a signal of a later version
    }
  }
  endpoint = endpointAttributes(hook.call(target, observer).tokenUrl);
  return target;
}
