// `ApiError`, the one class of every failure of estatekit, written once. The WebAssembly module
// constructs it through its binding (web/src/js_error.rs imports this file: wasm-bindgen copies it
// beside the glue), and the JavaScript wrappers (the loader's refusal, `baseUrl`, a freed client,
// estatekit/auth's and estatekit/query's refusals) call the same constructor. No error object is
// assembled field by field anywhere else.
//
// One class per realm: the class is kept under a registered symbol of the realm's global, so that
// the copy wasm-bindgen places beside each glue and the package's own ./api_error.js (and a
// second copy of the package) give the same object. `instanceof` also holds across realms and
// versions: it is `isApiError`, a check of `name` and `kind`.

const REGISTRY = Symbol.for("estatekit.ApiError");

/** The kinds whose failure a later identical call may cure, when nothing says otherwise. */
const RETRYABLE = new Set(["network", "timeout", "rate_limited"]);

/** The fields an `ApiError` carries besides `name`, `message`, `stack` and `cause`, in order. */
const FIELDS = ["kind", "status", "code", "requestId", "retryAfterMs", "attempts", "retryable", "details", "data"];

/**
 * Whether `value` is an `ApiError` of estatekit, whichever module copy, version or realm made it.
 * @param {unknown} value
 * @returns {boolean}
 */
function isApiError(value) {
  if (value === null || typeof value !== "object") return false;
  const e = /** @type {{ name?: unknown, kind?: unknown }} */ (value);
  return e.name === "ApiError" && typeof e.kind === "string" && Object.prototype.toString.call(value) === "[object Error]";
}

/** How many causes deep `toJSON` follows a chain (a cycle or a long chain stops there). */
const CAUSE_DEPTH = 5;

/**
 * A cause as plain data: `{ name, message, code, cause }` of an error (each when there, at most
 * CAUSE_DEPTH deep), the text of anything else.
 * @param {unknown} cause
 * @param {number} depth
 * @returns {Record<string, unknown>}
 */
function causeJSON(cause, depth) {
  if (cause === null || typeof cause !== "object") return { message: String(cause) };
  const { name, message, code, cause: next } = /** @type {Record<string, unknown>} */ (cause);
  return {
    ...(typeof name === "string" && { name }),
    message: typeof message === "string" ? message : String(cause),
    ...((typeof code === "string" || typeof code === "number") && { code }),
    ...(next !== undefined && depth < CAUSE_DEPTH - 1 && { cause: causeJSON(next, depth + 1) }),
  };
}

/** The `ApiError` class (made once per realm, see `ApiError` below). */
function make() {
  /** Every failure of estatekit: a real `Error` (with a stack), discriminated by `kind`. */
  class ApiError extends Error {
    /**
     * Makes an `ApiError`, e.g. for a test double: `new ApiError({ kind: "not_found", message, status: 404 })`.
     * `retryable` defaults to what the kind implies (network, timeout, rate_limited, a 5xx);
     * `attempts` to 0.
     * @param {Record<string, unknown>} init
     */
    constructor(init) {
      const given = init !== null && typeof init === "object" ? init : {};
      const message = typeof given.message === "string" ? given.message : `estatekit: ${String(given.kind)}`;
      super(message, "cause" in given && given.cause !== undefined ? { cause: given.cause } : undefined);
      const self = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (this));
      for (const key of FIELDS) if (given[key] !== undefined) self[key] = given[key];
      if (typeof self.kind !== "string") self.kind = "invalid_input";
      if (typeof self.attempts !== "number") self.attempts = 0;
      if (typeof self.retryable !== "boolean") {
        const status = typeof self.status === "number" ? self.status : 0;
        self.retryable = RETRYABLE.has(/** @type {string} */ (self.kind)) || status >= 500;
      }
    }

    /** `ApiError`, also after minification. */
    get name() {
      return "ApiError";
    }

    /**
     * The error as plain data (what `JSON.stringify` writes): `name`, `message` and every field,
     * `cause` as the chain of causes (`name`, `message`, `code`, its own `cause`), so that a log
     * line holds the platform's reason (`ECONNREFUSED`). `ApiError.fromJSON` makes an `ApiError`
     * of it again.
     */
    toJSON() {
      const self = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (this));
      /** @type {Record<string, unknown>} */
      const json = { name: "ApiError", message: this.message };
      for (const key of FIELDS) if (self[key] !== undefined) json[key] = self[key];
      if (this.cause !== undefined) json.cause = causeJSON(this.cause, 0);
      return json;
    }

    /**
     * An `ApiError` again from what `toJSON` gave (after `JSON.parse`, a server action or
     * `postMessage`); `cause` is kept as the data it was sent as.
     * @param {unknown} json
     */
    static fromJSON(json) {
      if (json === null || typeof json !== "object" || typeof (/** @type {{ kind?: unknown }} */ (json).kind) !== "string") {
        throw new TypeError("ApiError.fromJSON: not an ApiError's JSON (an object with a string `kind`)");
      }
      return new ApiError(/** @type {Record<string, unknown>} */ (json));
    }

    /**
     * `e instanceof ApiError`: any estatekit error, whichever module copy, version or realm made it.
     * @param {unknown} value
     */
    static [Symbol.hasInstance](value) {
      return isApiError(value);
    }
  }
  return ApiError;
}

const registry = /** @type {Record<symbol, unknown>} */ (globalThis);
/** Every failure of estatekit (see ./estatekit.d.ts). */
export const ApiError = /** @type {ReturnType<typeof make>} */ (registry[REGISTRY] ??= make());

/**
 * Makes an `ApiError` (the wrappers' shorthand).
 * @param {string} kind
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 */
export function apiError(kind, message, extra) {
  return new ApiError({ ...extra, kind, message });
}

export { isApiError };
