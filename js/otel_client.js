// estatekit/otel's part for a `Client` (./otel.js hands it the `Telemetry` of ./otel_telemetry.js).
// `instrumentClient(client, telemetry)` returns the same client, its operation methods defined as
// own properties of it (non-enumerable) that wrap the prototype's: each call captures the active
// context and hands the module a view of the call's options with its own `onEvent`, an observer
// that the module tells each event's plain values (./events.js: no event object is made for it;
// the caller's `onEvent` still gets every event; nothing is copied or changed). From the call's
// events (its `callId` ties them; an iterated list call's pages are calls of their own) it makes:
// - per call, an INTERNAL span `estatekit <operation>` (child of the context active at the method
//   call), created at the call's first event (for a call refused before any event, when it is
//   refused), with the rate budget's waits and the shared store's failures as span events, and
//   `error.type` (the ApiError's kind) when the call fails;
// - per HTTP request sent (attempt), a CLIENT span under it named by the HTTP conventions
//   (`GET /api/external-integrations/webhooks/{webhookId}`), retries as siblings carrying
//   `http.request.resend_count`, and a point of `http.client.request.duration`;
// - the counters of retries and of waits for the rate budget.
// The client's hooks (its undeclared `Symbol.for("estatekit.instrument")`, see ./client.js): the
// one around `fetch` runs each request inside its CLIENT span's context with tracing suppressed,
// so that an app's own fetch instrumentation (undici's, @vercel/otel's, Next.js's fetch span)
// makes no second CLIENT span of the same request, and, with `propagate: true`, adds W3C
// `traceparent`; the one around `getToken` runs it in the call's span.
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator, suppressTracing } from "@opentelemetry/core";
import { OPERATIONS } from "./otel_routes.js";
import { active, serverAttributes, within } from "./otel_telemetry.js";
import { apiError } from "./api_error.js";
// The events' keys where the module gives their values (wasm-bindgen's copy of js/events.js, whose
// GENERATED block core's `events-js` writes from `ClientEvent`).
import { AT } from "./snippets/js/events.js";

/** @typedef {import("@opentelemetry/api").Span} Span */
/** @typedef {import("@opentelemetry/api").Context} Context */
/** @typedef {import("@opentelemetry/api").Attributes} Attributes */
/** @typedef {import("./otel_telemetry.js").Telemetry} Telemetry */
/** @typedef {import("./estatekit_wasm.js").ClientEvent} ClientEvent */
/** @typedef {import("./estatekit_wasm.js").Operation} Operation */

/** The wrapper's seam (./client.js): `client[INSTRUMENT]({ send, ask })`. */
/** Where a call's listener keeps the function that takes its events' plain values (./events.js). */
const OBSERVE = Symbol.for("estatekit.observe");
const INSTRUMENT = Symbol.for("estatekit.instrument");

/** Clients already instrumented: instrumenting one again changes nothing. */
const instrumented = new WeakSet();

/** The request id's attribute: the HTTP conventions' response header attribute (an array). */
export const REQUEST_ID = "http.response.header.x-request-id";

const propagator = new W3CTraceContextPropagator();
/** @type {import("@opentelemetry/api").TextMapSetter<Record<string, string>>} */
const HEADERS = {
  set: (headers, key, value) => {
    headers[key] = value;
  },
};

/**
 * Query parameters whose value is never written into `url.full` (the conventions' list, and any
 * name of a credential). The client puts none of them in its URLs: this only guards.
 */
const SECRET_PARAM = /^(sig|signature|x-goog-signature|awsaccesskeyid)$|token|secret|password|passwd|key|code|auth/i;

/**
 * `attributes` without the undefined ones (an attribute is set only when known).
 * @param {Record<string, import("@opentelemetry/api").AttributeValue | undefined>} attributes
 * @returns {Attributes}
 */
function known(attributes) {
  /** @type {Attributes} */
  const out = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The value of `key` among an event's plain values (see ./events.js's `AT`).
 * @param {string} type
 * @param {readonly any[]} values
 * @param {string} key
 * @returns {any}
 */
const read = (type, values, key) => values[AT[type]?.[key] ?? -1];

/**
 * An event's plain values from its keys' values (see ./events.js's `AT`).
 * @param {string} type
 * @param {Record<string, unknown>} given
 * @returns {unknown[]}
 */
function valuesOf(type, given) {
  const at = AT[type] ?? {};
  /** @type {unknown[]} */
  const values = Object.keys(at).map(() => undefined);
  for (const key in given) values[at[key]] = given[key];
  return values;
}

/**
 * The time now: `performance.now()`, which the SDK takes as a start time (a number not after
 * `performance.now()` is a performance timestamp, converted to the clock its own spans use).
 */
const now = () => performance.now();

/**
 * Whether `x` is a `Client` of estatekit (any build of the package): it has the wrapper's seam.
 * @param {unknown} x
 * @returns {x is import("./estatekit.js").Client}
 */
export function isClient(x) {
  return typeof x === "object" && x !== null && typeof (/** @type {Record<symbol, unknown>} */ (x))[INSTRUMENT] === "function";
}

/**
 * Where a client's requests go, read from its base URL.
 * @typedef {{ origin: string, prefix: string, address: string, port: number }} Server
 */

/**
 * @param {string} baseUrl
 * @returns {Server}
 */
function serverOf(baseUrl) {
  const url = new URL(baseUrl);
  const { "server.address": address, "server.port": port } = serverAttributes(url);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, ""), address, port };
}

/**
 * `url.full`: the origin (never a user info part: a base URL has none) and the path, a query
 * parameter named like a credential written `REDACTED`.
 * @param {string} origin
 * @param {string} path
 */
export function fullUrl(origin, path) {
  const at = path.indexOf("?");
  if (at < 0) return origin + path;
  const query = path
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      let name = eq < 0 ? pair : pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {}
      return eq >= 0 && SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=REDACTED` : pair;
    });
  return `${origin}${path.slice(0, at)}?${query.join("&")}`;
}

/**
 * The route of a request of `operation`: its `url.template` (under the base URL's path) and its
 * GraphQL operation, by the method and the path (without the query) the request event gives.
 * @param {Operation} operation
 * @param {string} method
 * @param {string} path
 * @param {string} prefix the base URL's path
 * @returns {readonly string[] | undefined} `[method, template, graphql type?, graphql name?]`
 */
function routeOf(operation, method, path, prefix) {
  const bare = path.split("?")[0];
  const rest = bare.startsWith(prefix) ? bare.slice(prefix.length) : bare;
  const got = rest.split("/");
  return (TEMPLATES[operation] ?? []).find(
    ({ route, parts }) =>
      route[0] === method && parts.length === got.length && parts.every((part, i) => (part.startsWith("{") ? got[i] !== "" : part === got[i])),
  )?.route;
}

/**
 * Each operation's routes with their templates split into path segments once.
 * @type {Record<string, { route: readonly string[], parts: string[] }[]>}
 */
const TEMPLATES = Object.fromEntries(
  Object.entries(OPERATIONS).map(([operation, [, routes]]) => [operation, routes.map((route) => ({ route, parts: route[1].split("/") }))]),
);

/**
 * One HTTP request in flight: its CLIENT span, when it was sent, and its metric's attributes.
 * @typedef {{ span: Span, started: number, attributes: Attributes }} Attempt
 */

/**
 * One call (one `callId`): its operation's span and the request it sends now.
 * @typedef {{ span: Span, attempt?: Attempt }} Call
 */

/**
 * The caller's options seen with `onEvent` as this call's listener: every other property read
 * from the caller's object itself (its getters run on it, private fields included; its own
 * properties, enumerable or not, and its prototype's), nothing copied, nothing changed. The view
 * reports each property configurable (the only way it may differ from its empty target).
 * @param {object} options
 * @param {(event: ClientEvent) => void} onEvent
 * @returns {object}
 */
function withListener(options, onEvent) {
  const listening = { value: onEvent, writable: true, enumerable: true, configurable: true };
  return new Proxy(
    {},
    {
      get: (_, key) => (key === "onEvent" ? onEvent : Reflect.get(options, key)),
      has: (_, key) => key === "onEvent" || Reflect.has(options, key),
      ownKeys: () => [...Reflect.ownKeys(options).filter((key) => key !== "onEvent"), "onEvent"],
      getOwnPropertyDescriptor: (_, key) => {
        if (key === "onEvent") return listening;
        const own = Reflect.getOwnPropertyDescriptor(options, key);
        return own && { ...own, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(options),
    },
  );
}

/**
 * What the parts of one instrumented client share: the tracer and instruments, the client's
 * server (read at its first request: its base URL is valid then), the request being sent now by
 * each call (by `callId`) with the context it runs in (what the hook around `fetch` needs), and
 * the context of each call that asks `getToken` now (its operation span's).
 * @typedef {{
 *   telemetry: Telemetry,
 *   tracer: import("@opentelemetry/api").Tracer,
 *   where: () => Server,
 *   sending: Map<number, { span: Span, parent: Context }>,
 *   asking: Map<number, Context>,
 * }} Instrumented
 */

/**
 * The first call of one method call: when the method was called (its span starts then: its token
 * and its wait for the module are the call's time too; undefined once used, or for a list call's
 * pages, sent when awaited or iterated), and whether any event came.
 * @typedef {{ started?: number, seen?: boolean }} First
 */

/**
 * What takes a call's events' plain values (see ./events.js).
 * @typedef {(type: string, operation: string, callId: number, values: readonly any[]) => void} Tell
 */

/**
 * Instruments `client` (see the file's comment); returns it.
 * @template {import("./estatekit.js").Client} C
 * @param {C} client
 * @param {Telemetry} telemetry
 * @returns {C}
 */
export function instrumentClient(client, telemetry) {
  if (instrumented.has(client)) return client;
  if (!Object.isExtensible(client)) {
    // Its methods are wrapped as its own properties: refused before anything is changed.
    throw apiError("invalid_input", "estatekit/otel: this Client is frozen (or sealed): instrument it before freezing it");
  }
  instrumented.add(client);
  /** @type {Server | undefined} */
  let server;
  /** @type {Instrumented} */
  const state = {
    telemetry,
    tracer: telemetry.tracer,
    where: () => (server ??= serverOf(client.baseUrl)),
    sending: new Map(),
    asking: new Map(),
  };
  /** @type {Record<symbol, (hooks: ReturnType<typeof hooksOf>) => void>} */ (/** @type {unknown} */ (client))[INSTRUMENT](hooksOf(state));
  for (const [name, [at]] of Object.entries(OPERATIONS)) {
    const method = /** @type {(...args: unknown[]) => unknown} */ (/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (client))[name]);
    if (typeof method === "function") wrapMethod(client, name, at, method, state);
  }
  return client;
}

/**
 * The client's hooks (./client.js's `INSTRUMENT`), each of which must call what it is handed at
 * once and return what that returns:
 * - `ask(getToken, reason, callId)` runs `getToken(reason)` (the `token` event came just before)
 *   in the call's span, so that a token provider's grant (estatekit/otel's tokens part) is its
 *   child;
 * - `send(fetch, url, init, callId)` runs `fetch(url, init)` in the CLIENT span's context,
 *   tracing suppressed below it, and adds `traceparent` to `init.headers` (the request's headers,
 *   a plain object) when asked.
 * @param {Instrumented} state
 */
function hooksOf({ telemetry, sending, asking }) {
  /**
   * @param {(reason: string) => unknown} getToken
   * @param {string} reason
   * @param {number} callId
   */
  const ask = (getToken, reason, callId) => {
    const asked = asking.get(callId);
    asking.delete(callId);
    return asked ? within(() => asked, getToken, reason) : getToken(reason);
  };
  /**
   * @param {(url: string, init: RequestInit) => unknown} fetch
   * @param {string} url
   * @param {RequestInit & { headers: Record<string, string> }} init
   * @param {number} callId
   */
  const send = (fetch, url, init, callId) => {
    const current = sending.get(callId);
    if (!current) return fetch(url, init);
    return within(
      () => {
        const active = trace.setSpan(current.parent, current.span);
        if (telemetry.propagate) {
          try {
            propagator.inject(active, init.headers, HEADERS);
          } catch {
            // Headers that cannot be changed: sent without.
          }
        }
        return suppressTracing(active);
      },
      fetch,
      url,
      init,
    );
  };
  return { send, ask };
}

/**
 * Defines the client's own `name` method (non-enumerable), which calls the prototype's `method`
 * with a view of its options (argument `at`) that tells this module its events (see
 * {@link listened}); telemetry never breaks a call: if the view cannot be made, the call is made
 * as given.
 * @param {object} client
 * @param {string} name
 * @param {number} at
 * @param {(...args: unknown[]) => unknown} method
 * @param {Instrumented} state
 */
function wrapMethod(client, name, at, method, state) {
  Object.defineProperty(client, name, {
    configurable: true,
    writable: true,
    enumerable: false,
    value: {
      /** @this {unknown} @param {unknown[]} args */
      [name](...args) {
        /** @type {First} */
        const first = { started: now() };
        /** @type {Tell} */
        let tell;
        /** @type {unknown[]} */
        let call;
        try {
          tell = guarded(observer(state, active(), first));
          call = listened(args, at, tell);
        } catch {
          // Telemetry never breaks a call: the call as given.
          return method.apply(this, args);
        }
        return settled(method.apply(this, call), name, first, tell);
      },
    }[name],
  });
}

/**
 * `tell`, whose failures are ignored: telemetry never breaks a call.
 * @param {Tell} tell
 * @returns {Tell}
 */
function guarded(tell) {
  return (type, operation, callId, values) => {
    try {
      tell(type, operation, callId, values);
    } catch {
      // Telemetry never breaks a call.
    }
  };
}

/**
 * A method call's arguments with, at `at`, its options seen with a listener that is an observer
 * (./events.js), told the plain values (the caller's own `onEvent` still gets every event
 * object). Options the call refuses (not an object, an `onEvent` that is not a function) are
 * given as they are: the call's span is made when it is refused ({@link settled}).
 * @param {unknown[]} args
 * @param {number} at
 * @param {Tell} tell
 * @returns {unknown[]}
 */
function listened(args, at, tell) {
  const options = /** @type {{ onEvent?: unknown } | null | undefined} */ (args[at]);
  const own = /** @type {((event: ClientEvent) => void) | null | undefined} */ (options?.onEvent);
  if ((options != null && typeof options !== "object") || (own != null && typeof own !== "function")) return args;
  /** @param {ClientEvent} event */
  const onEvent = function onEvent(event) {
    if (own) own(event);
  };
  Object.defineProperty(onEvent, OBSERVE, {
    /**
     * @param {string} type @param {string} operation @param {number} callId
     * @param {readonly unknown[]} values @param {() => ClientEvent} event
     */
    value: (type, operation, callId, values, event) => {
      tell(type, operation, callId, values);
      if (own) own(event());
    },
  });
  const call = [...args];
  call[at] = options == null ? { onEvent } : withListener(options, onEvent);
  return call;
}

/**
 * What a method call returns. A list call's PagePromise sends nothing before it is awaited or
 * iterated: it is returned as it is (its pages' calls have their spans). A call refused before it
 * told any event (its arguments, its options, a freed client, a module that could not load): the
 * listener is told the error the module would have told, which makes the call's span, from the
 * method call to now.
 * @param {unknown} result
 * @param {string} name
 * @param {First} first
 * @param {Tell} tell
 */
function settled(result, name, first, tell) {
  if (!(result instanceof Promise) || Symbol.asyncIterator in result) {
    first.started = undefined;
    return result;
  }
  return result.then(undefined, (error) => {
    if (!first.seen) {
      const kind = /** @type {{ kind?: unknown } | null | undefined} */ (error)?.kind;
      tell("error", name, 0, valuesOf("error", { kind: typeof kind === "string" ? kind : "_OTHER", attempts: 0 }));
    }
    throw error;
  });
}

/**
 * The observer one method call adds to its calls' options (see ./events.js: the module hands it
 * each event's plain values, read by their keys' places, ./events.js's `AT`; no event object is
 * made for it): `parent`, the context active at the method call. A
 * call's span is made at its first event, and ended at its `error` or `done`.
 * @param {Instrumented} state
 * @param {Context} parent
 * @param {First} first
 * @returns {Tell}
 */
function observer(state, parent, first) {
  /** @type {Map<number, Call>} */
  const calls = new Map();
  return (type, operation, id, values) => {
    let call = calls.get(id);
    if (!call) {
      call = startCall(state, parent, first, operation);
      calls.set(id, call);
    }
    observe(state, { call, id, operation, parent }, type, values);
    if (type === "error" || type === "done") calls.delete(id);
  };
}

/**
 * A call's INTERNAL span, started at the method call for its first call, else now.
 * @param {Instrumented} state
 * @param {Context} parent
 * @param {First} first
 * @param {string} operation
 * @returns {Call}
 */
function startCall(state, parent, first, operation) {
  first.seen = true;
  const span = state.tracer.startSpan(
    `estatekit ${operation}`,
    { kind: SpanKind.INTERNAL, startTime: first.started, attributes: { "estatekit.operation": operation } },
    parent,
  );
  first.started = undefined;
  return { span };
}

/**
 * One call's event, where it was seen.
 * @typedef {{ call: Call, id: number, operation: string, parent: Context }} Seen
 */

/**
 * What an event of a call does to its spans and the instruments.
 * @param {Instrumented} state
 * @param {Seen} seen
 * @param {string} type
 * @param {readonly any[]} values
 */
function observe(state, seen, type, values) {
  const { call, id, operation, parent } = seen;
  const { span } = call;
  switch (type) {
    case "request":
      return startAttempt(state, seen, values);
    case "response": {
      const at = (/** @type {string} */ key) => read(type, values, key);
      return endAttempt(state, call, id, { status: at("status"), durationMs: at("durationMs"), requestId: at("requestId") });
    }
    case "retry":
      return retried(state, seen, values);
    case "token":
      span.addEvent("estatekit.token.request", { "estatekit.token.reason": read(type, values, "reason") });
      state.asking.set(id, trace.setSpan(parent, span));
      return;
    case "rateWait":
      span.addEvent("estatekit.rate_limit.wait", { "estatekit.rate_limit.delay_ms": read(type, values, "delayMs") });
      state.telemetry.rateLimitWaits.add(1, known({ "estatekit.operation": operation, "server.address": state.where().address }));
      return;
    case "store":
      span.addEvent("estatekit.store.failure", {
        "estatekit.store.purpose": read(type, values, "purpose"),
        "estatekit.store.reason": read(type, values, "reason"),
      });
      return;
    case "error":
      return failed(state, seen, values);
    case "done":
      span.setAttribute("estatekit.attempts", read(type, values, "attempts"));
      span.end();
  }
}

/**
 * A `request` event: the request before it ended (none but after a lost event), and a CLIENT
 * span for this one, under the call's span, named by the HTTP conventions.
 * @param {Instrumented} state
 * @param {Seen} seen
 * @param {readonly any[]} values
 */
function startAttempt(state, { call, id, operation, parent }, values) {
  const [method, path, attempt] = ["method", "path", "attempt"].map((key) => read("request", values, key));
  endAttempt(state, call, id, {});
  const { origin, prefix, address, port } = state.where();
  const route = routeOf(/** @type {Operation} */ (operation), method, path, prefix);
  const template = route && prefix + route[1];
  const attributes = known({
    "http.request.method": method,
    "server.address": address,
    "server.port": port,
    "url.template": template,
  });
  const child = state.tracer.startSpan(
    template ? `${method} ${template}` : method,
    {
      kind: SpanKind.CLIENT,
      attributes: known({
        ...attributes,
        "url.full": fullUrl(origin, path),
        "http.request.resend_count": attempt > 1 ? attempt - 1 : undefined,
        "graphql.operation.type": route?.[2],
        "graphql.operation.name": route?.[3],
      }),
    },
    trace.setSpan(parent, call.span),
  );
  call.attempt = { span: child, started: now(), attributes };
  state.sending.set(id, { span: child, parent });
}

/**
 * Ends `call`'s request in flight: with its answer's status, or, when none came, with `kind`.
 * @param {Instrumented} state
 * @param {Call} call
 * @param {number} callId
 * @param {{ status?: number, kind?: string, durationMs?: number, requestId?: string }} outcome
 */
function endAttempt(state, call, callId, outcome) {
  const attempt = call.attempt;
  if (!attempt) return;
  call.attempt = undefined;
  state.sending.delete(callId);
  const { span, attributes } = attempt;
  /** @type {Attributes} */
  const ended = { ...attributes }; // known already
  if (outcome.status !== undefined) ended["http.response.status_code"] = outcome.status;
  const error = outcome.status === undefined ? outcome.kind ?? "_OTHER" : outcome.status >= 400 ? String(outcome.status) : undefined;
  if (error) ended["error.type"] = error;
  span.setAttributes(
    known({
      "http.response.status_code": outcome.status,
      "error.type": error,
      [REQUEST_ID]: outcome.requestId === undefined ? undefined : [outcome.requestId],
    }),
  );
  if (error) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
  const ms = outcome.durationMs ?? now() - attempt.started;
  try {
    state.telemetry.duration.record(ms / 1000, ended);
  } catch {
    // A meter's failure ends nothing early: the call's span is still ended by its caller.
  }
}

/**
 * A `retry` event: the failed request ended, and the retries counted.
 * @param {Instrumented} state
 * @param {Seen} seen
 * @param {readonly any[]} values
 */
function retried(state, { call, id, operation }, values) {
  const [kind, status] = [read("retry", values, "kind"), read("retry", values, "status")];
  endAttempt(state, call, id, { kind });
  state.telemetry.retries.add(
    1,
    known({
      "estatekit.operation": operation,
      "error.type": status === undefined ? kind : String(status),
      "server.address": state.where().address,
    }),
  );
}

/**
 * An `error` event: the request in flight ended, and the call's span ended with the error's kind.
 * @param {Instrumented} state
 * @param {Seen} seen
 * @param {readonly any[]} values
 */
function failed(state, { call, id }, values) {
  const [kind, attempts] = [read("error", values, "kind"), read("error", values, "attempts")];
  endAttempt(state, call, id, { kind });
  call.span.setAttributes({ "error.type": kind, "estatekit.attempts": attempts });
  call.span.setStatus({ code: SpanStatusCode.ERROR });
  call.span.end();
}
