// One request of the client, sent in one crossing from the module (web/src/transport.rs imports
// `sendRequest` through wasm-bindgen: wasm-bindgen copies this file beside its glue, in
// snippets/js/). The module prepares the method, URL, headers and body; this builds the `Request`,
// calls `fetch` (the global one, the client's `fetch` option, or estatekit/otel's hook around
// either), wires the attempt's timeout and the caller's signal only when
// there is one, reads the whole answer and settles once, never rejecting: what happened is in the
// `Sent` it resolves to.

/**
 * What one request came to: an answer (its `Response`, the body's bytes and their UTF-8 text), or
 * what was thrown or rejected with and why the request stopped.
 * @typedef {object} Sent
 * @property {Response | undefined} response the answer, its body read whole
 * @property {boolean} redirected the answer is a redirect (never followed, its body not read)
 * @property {ArrayBuffer | undefined} bytes the whole body
 * @property {string | undefined} text the body decoded as UTF-8 (a leading byte order mark removed), undefined when it is not UTF-8
 * @property {unknown} failure what `fetch` threw or rejected with, or reading the body did (undefined when nothing was)
 * @property {"timeout" | "aborted" | ""} stop why the request stopped: its timer fired, or the caller's signal aborted; "" when it did not stop
 * @property {boolean} notResponse the `fetch` option resolved to something that is not a `Response`
 */

/** A fatal UTF-8 decoder, made once (a leading byte order mark is removed, as `Response.text()` does). */
let utf8;

/**
 * @param {ArrayBuffer} bytes
 * @returns {string | undefined}
 */
function utf8Text(bytes) {
  try {
    return (utf8 ??= new TextDecoder("utf-8", { fatal: true })).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Sends one request and reads its whole answer; never rejects.
 * @param {((request: Request) => unknown) | undefined} fetchOption the client's `fetch` option (raced with the attempt's signal: one that ignores it cannot outlast an abort or a timeout), or undefined for the global `fetch`
 * @param {((fetch: (request: Request) => unknown, request: Request, callId: number) => unknown) | undefined} hook estatekit/otel's hook around the `fetch` call, or undefined
 * @param {number} callId the call's id, handed to the hook
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} authorization the `Authorization` header's value, or undefined for none
 * @param {boolean} json whether the body is JSON text (`Content-Type: application/json`)
 * @param {string | FormData | undefined} body
 * @param {AbortSignal | undefined} signal the caller's signal (never given to `fetch` itself: linked, so that whatever reason it aborts with, the request stops with an ordinary AbortError)
 * @param {number} timeoutMs the attempt's timeout (0: none)
 * @returns {Promise<Sent>}
 */
export async function sendRequest(fetchOption, hook, callId, method, url, authorization, json, body, signal, timeoutMs) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (authorization !== undefined) headers.Authorization = authorization;
  if (json) headers["Content-Type"] = "application/json";
  /** @type {RequestInit} */
  const init = { method, headers, body, redirect: "manual", credentials: "omit" };
  /** @type {AbortController | undefined} */
  let controller;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let timedOut = false;
  const abort = () => controller?.abort();
  if (signal !== undefined || timeoutMs > 0) {
    controller = new AbortController();
    init.signal = controller.signal;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        abort();
      }, timeoutMs);
    }
    signal?.addEventListener("abort", abort);
  }
  /** @type {Sent} */
  const sent = { response: undefined, redirected: false, bytes: undefined, text: undefined, failure: undefined, stop: "", notResponse: false };
  try {
    // One function sends: the global `fetch` or the `fetch` option (through the hook when there
    // is one). The option and the hook take the one `Request` they are documented to take; the
    // global `fetch` is given the URL and the options, of which it makes its own (a `Request` made
    // here would be made twice: 48 us of a 2.9 ms call in `make profile`).
    /** @type {unknown} */
    let pending;
    if (fetchOption || hook) {
      const go = fetchOption ?? fetch;
      const request = new Request(url, init);
      pending = hook ? hook(go, request, callId) : go(request);
    } else {
      pending = fetch(url, init);
    }
    if (fetchOption && controller) {
      const stopped = controller.signal;
      pending = Promise.race([
        pending,
        new Promise((_, reject) => stopped.addEventListener("abort", () => reject(undefined), { once: true })),
      ]);
    }
    const response = await pending;
    if (!(response instanceof Response)) {
      sent.notResponse = true;
    } else if (response.type === "opaqueredirect") {
      sent.redirected = true;
    } else {
      const bytes = await response.arrayBuffer();
      sent.response = response;
      sent.bytes = bytes;
      sent.text = utf8Text(bytes);
    }
  } catch (failure) {
    sent.failure = failure;
    sent.stop = timedOut ? "timeout" : controller?.signal.aborted ? "aborted" : "";
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
  return sent;
}
