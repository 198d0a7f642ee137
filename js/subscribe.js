/* @ts-self-types="./subscribe.d.ts" */
// estatekit/subscribe: the browser side of estatekit/live. `subscribe(url, { on, onReset,
// onError })` over the platform's EventSource: one stream per page and URL for all its
// subscribers; the position (the last event's id) kept, so that when EventSource gives up (an
// answer other than 200) the stream is reopened after a backoff from it (`?lastEventId=`); a 401
// is told as the sign-in-required error (the package's ApiError, kind `unauthorized`, status 401,
// `signInRequired: true`). No module, no dependency but ./api_error.js: kept small (size.mjs).
// Its declarations are ./subscribe.d.ts.
import { apiError } from "./api_error.js";

const RESET = "estatekit.reset";
const POSITION = "estatekit.position";

/** @typedef {import("./subscribe.js").SubscribeOptions} SubscribeOptions */
/** @typedef {{ options: SubscribeOptions }} Sub */

/** @type {Map<string, ReturnType<typeof shared>>} */
const streams = new Map();

/**
 * Subscribes to a stream route's events. See ./subscribe.d.ts.
 * @param {string | URL} url
 * @param {SubscribeOptions} options
 */
export function subscribe(url, options) {
  const href = new URL(url, globalThis.location?.href).href;
  let stream = streams.get(href);
  if (!stream) streams.set(href, (stream = shared(href, !!options.withCredentials)));
  /** @type {Sub} */
  const sub = { options };
  stream.add(sub);
  let open = true;
  return {
    close() {
      if (!open) return;
      open = false;
      if (stream.remove(sub)) streams.delete(href);
    },
  };
}

/**
 * The one EventSource of a URL, shared by its subscribers.
 * @param {string} href
 * @param {boolean} withCredentials
 */
function shared(href, withCredentials) {
  /** @type {Set<Sub>} */
  const subs = new Set();
  /** @type {Set<string>} */
  const types = new Set([RESET, POSITION]);
  /** @type {EventSource | undefined} */
  let source;
  /** @type {string | undefined} */
  let position;
  let tries = 0;
  let signedOut = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @param {(sub: Sub) => void} call */
  const each = (call) => {
    for (const sub of [...subs]) {
      try {
        call(sub);
      } catch (e) {
        setTimeout(() => {
          throw e;
        });
      }
    }
  };
  /** @param {Event} e */
  const message = (e) => {
    const { type, data, lastEventId } = /** @type {MessageEvent<string>} */ (e);
    tries = 0;
    signedOut = false;
    if (lastEventId) position = lastEventId;
    if (type === POSITION) return;
    if (type === RESET) return each((s) => s.options.onReset?.({ position: lastEventId }));
    let event;
    try {
      event = JSON.parse(data);
    } catch {
      return;
    }
    each((s) => /** @type {any} */ (s.options.on)?.[type]?.(event, { id: lastEventId, data }));
  };
  const connect = () => {
    const url = new URL(href);
    if (position) url.searchParams.set("lastEventId", position);
    source = new EventSource(url, { withCredentials });
    for (const type of types) source.addEventListener(type, message);
    source.onopen = () => (tries = 0);
    source.onerror = () => {
      if (source?.readyState === 2) gaveUp(url);
    };
  };
  /** EventSource gave up: why (a 401 is the sign-in-required error), then reopen after a backoff. @param {URL} url */
  const gaveUp = async (url) => {
    source = undefined;
    let status = 0;
    try {
      const answer = await fetch(url, { credentials: withCredentials ? "include" : "same-origin", headers: { accept: "text/event-stream" } });
      status = answer.status;
      answer.body?.cancel().catch(() => {});
    } catch {
      // Offline: retried.
    }
    if (!subs.size) return;
    if (status === 401 && !signedOut) {
      signedOut = true;
      const error = /** @type {import("./subscribe.js").SignInRequiredStreamError} */ (
        /** @type {unknown} */ (
          Object.assign(
            apiError("unauthorized", "estatekit/subscribe: sign in again to follow these events (the stream was answered 401)", { status: 401, retryable: false }),
            { signInRequired: true },
          )
        )
      );
      each((s) => s.options.onError?.(error));
      // Closed by its handler (the page shows its sign-in): no reopening.
      if (!subs.size) return;
    }
    const wait = Math.min(30_000, 1_000 * 2 ** tries++) * (0.5 + Math.random() / 2);
    timer = setTimeout(connect, wait);
  };
  return {
    /** @param {Sub} sub */
    add(sub) {
      subs.add(sub);
      for (const type of Object.keys(sub.options.on ?? {})) {
        if (types.has(type)) continue;
        types.add(type);
        source?.addEventListener(type, message);
      }
      if (!source && !timer) connect();
    },
    /** Whether it was the last one (the stream is then closed). @param {Sub} sub */
    remove(sub) {
      subs.delete(sub);
      if (subs.size) return false;
      clearTimeout(timer);
      source?.close();
      return true;
    },
  };
}
