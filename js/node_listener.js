// toNodeListener: a node:http / Express listener around a `Request -> Response` handler, shared
// by estatekit/webhooks (deliveries) and estatekit/live (event streams). Internal file: the
// entries export it.

/** @typedef {import("./webhooks.js").NodeRequest} NodeRequest */
/** @typedef {import("./webhooks.js").NodeResponse} NodeResponse */

/**
 * A node:http / Express listener around a `Request -> Response` handler. See ./webhooks.d.ts.
 * An answer of type `text/event-stream` is written chunk by chunk as it comes, and its stream
 * cancelled when the client goes (the connection closes); any other answer is written whole.
 * @param {(request: Request) => Promise<Response>} handler
 * @returns {(req: NodeRequest, res: NodeResponse) => void}
 */
export function toNodeListener(handler) {
  return (req, res) => {
    run(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  };

  /** @param {NodeRequest} req @param {NodeResponse} res */
  async function run(req, res) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    }
    const method = req.method ?? "GET";
    const body = method !== "GET" && method !== "HEAD" ? bodyOf(req) : undefined;
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
    // Aborted when the client goes before the answer ends (an event stream's page closed).
    const gone = new AbortController();
    res.once?.("close", () => gone.abort());
    const response = await handler(new Request(url, /** @type {RequestInit} */ ({ method, headers, body, duplex: "half", signal: gone.signal })));
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (response.body && res.write && /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) {
      return streamAnswer(response.body, res, gone.signal);
    }
    // A body left unread (413) is not drained: the connection is closed once answered.
    const unread = body !== undefined && typeof body !== "string" && !req.readableEnded;
    if (unread) res.setHeader("connection", "close");
    res.end(new Uint8Array(await response.arrayBuffer()));
    if (unread) res.once?.("finish", () => req.destroy?.());
  }
}

/**
 * The request's body: what a body parser (Express) already read, or the stream.
 * @param {NodeRequest} req
 * @returns {BodyInit}
 */
function bodyOf(req) {
  const parsed = req.body; // set by a body parser (Express) that already read the stream
  if (req.readableEnded && (typeof parsed === "string" || parsed instanceof Uint8Array)) return /** @type {BodyInit} */ (parsed);
  if (req.readableEnded && parsed !== undefined) return JSON.stringify(parsed);
  return streamOf(req);
}

/**
 * Writes a streamed answer as it comes (each chunk flushed), ending it when the stream ends or
 * fails; when the client went (`gone`), the stream is cancelled, so that its producer stops.
 * @param {ReadableStream<Uint8Array>} body
 * @param {NodeResponse} res
 * @param {AbortSignal} gone
 */
async function streamAnswer(body, res, gone) {
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  if (gone.aborted) stop();
  gone.addEventListener("abort", stop, { once: true });
  res.flushHeaders?.();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      /** @type {(chunk: Uint8Array) => unknown} */ (res.write).call(res, value);
    }
    res.end();
  } catch {
    // The stream failed (a slow reader dropped, the log gone): the connection is cut, so that
    // the page reconnects and resumes from the last event it got.
    res.destroy?.();
  } finally {
    gone.removeEventListener("abort", stop);
  }
}

/**
 * The request's body as a web stream, pulled chunk by chunk (nothing is read ahead).
 * @param {NodeRequest} req
 * @returns {ReadableStream<Uint8Array>}
 */
function streamOf(req) {
  const chunks = req[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === "string" ? new TextEncoder().encode(value) : value);
    },
    // cancel (413): nothing more is read; the listener closes the connection once it answered
    // (ending the iteration here would destroy the request, and the answer with it).
  });
}
