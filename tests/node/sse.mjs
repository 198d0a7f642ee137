// A Server-Sent Events reader for the tests of estatekit/live: the frames of a `text/event-stream`
// answer as EventSource reads them (`id`, `event`, `data` lines joined by "\n"; comments and
// `retry:` kept apart), pulled as they come.

/**
 * @typedef {{ id?: string, event?: string, data?: string, comment?: string, retry?: string }} Frame
 */

/**
 * Parses one frame's text.
 * @param {string} text
 * @returns {Frame}
 */
function parse(text) {
  /** @type {Frame} */
  const frame = {};
  /** @type {string[]} */
  const data = [];
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    const at = line.indexOf(":");
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
    else if (field === "data") data.push(value);
    else if (field === "retry") frame.retry = value;
  }
  if (data.length) frame.data = data.join("\n");
  return frame;
}

/**
 * The frames of a stream answer, as they come: `next()` resolves the next frame, or `undefined`
 * when the stream ended (or failed: `failed` then says so); `cancel()` stops reading.
 * @param {Response | ReadableStream<Uint8Array>} answer
 */
export function sseReader(answer) {
  const body = answer instanceof Response ? answer.body : answer;
  if (!body) throw new Error("no body");
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let done = false;
  const state = { failed: /** @type {unknown} */ (undefined) };
  return {
    state,
    /** @returns {Promise<Frame | undefined>} */
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const text = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return parse(text);
        }
        if (done) return undefined;
        try {
          const { done: over, value } = await reader.read();
          if (over) done = true;
          else buffer += value;
        } catch (e) {
          state.failed = e;
          done = true;
        }
      }
    },
    /**
     * The next frames until `count` carrying an `id` (heartbeats, `retry:` skipped), or fewer when
     * the stream ended.
     * @param {number} count
     */
    async ids(count) {
      /** @type {Frame[]} */
      const got = [];
      while (got.length < count) {
        const frame = await this.next();
        if (!frame) break;
        if (frame.id !== undefined) got.push(frame);
      }
      return got;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
