// `WebhookEventError`, the error of a webhook delivery that is not a valid event
// (estatekit/webhooks), written once: the receiver's module constructs it through its binding
// (webhooks/src/lib.rs imports this file: wasm-bindgen copies it beside that glue), and the
// receiver's JavaScript calls the same class. Not an `ApiError`: no call failed. One class per
// realm, as ./api_error.js's.

const registry = /** @type {Record<symbol, unknown>} */ (globalThis);

const EVENT_REGISTRY = Symbol.for("estatekit.WebhookEventError");

/** The `WebhookEventError` class (made once per realm). */
function makeEventError() {
  /**
   * A webhook delivery that is not a valid event (estatekit/webhooks): not an `ApiError` (no
   * call failed), its own class; `path` is the JSON path of the first violation.
   */
  class WebhookEventError extends Error {
    /**
     * @param {string} message
     * @param {string} [path] The JSON path of the first violation (`.` for the envelope).
     */
    constructor(message, path = ".") {
      super(message);
      /** @type {"invalid_event"} */
      this.kind = "invalid_event";
      this.path = path;
    }

    /** `WebhookEventError`, also after minification. */
    get name() {
      return "WebhookEventError";
    }

    /**
     * `e instanceof WebhookEventError`, whichever module copy or realm made it.
     * @param {unknown} value
     */
    static [Symbol.hasInstance](value) {
      return isInvalidEvent(value);
    }
  }
  return WebhookEventError;
}

/**
 * Whether `e` is the error of an invalid webhook delivery.
 * @param {unknown} e
 * @returns {e is Error & { kind: "invalid_event", path: string }}
 */
export function isInvalidEvent(e) {
  if (e === null || typeof e !== "object") return false;
  const error = /** @type {{ name?: unknown, kind?: unknown }} */ (e);
  return error.name === "WebhookEventError" && error.kind === "invalid_event" && Object.prototype.toString.call(e) === "[object Error]";
}

/** The error of an invalid webhook delivery (see ./webhooks.d.ts). */
export const WebhookEventError = /** @type {ReturnType<typeof makeEventError>} */ (registry[EVENT_REGISTRY] ??= makeEventError());
