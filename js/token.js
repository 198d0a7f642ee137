/* @ts-self-types="./token.d.ts" */
// estatekit/token: the browser's side of the token route (estatekit/auth's createTokenRoute, on
// the app's backend). Plain JavaScript with no module of its own, so that the main entry does not
// grow: createSessionToken asks the route for the signed-in staff member's `{ token, expiresAt }`
// and hands it to the Client (which keeps it in memory, renews it before it expires and asks once
// for many calls); the route's 401 is the sign-in-required ApiError; clear() (sign-out) reaches
// the page's other tabs through a BroadcastChannel. Nothing is ever written to storage.
import { apiError, isApiError } from "./api_error.js";

/** @typedef {import("./token.js").SessionTokenOptions} SessionTokenOptions */
/** @typedef {import("./token.js").SessionToken} SessionToken */

/**
 * Whether `e` is the ApiError marked `signInRequired: true`, or an error (a Client's call) caused
 * by one. See ./token.d.ts.
 * @param {unknown} e
 * @returns {boolean}
 */
export function isSignInRequired(e) {
  /** @param {unknown} x */
  const marked = (x) => isApiError(x) && /** @type {{ signInRequired?: unknown }} */ (x).signInRequired === true;
  return marked(e) || (isApiError(e) && marked(/** @type {{ cause?: unknown }} */ (e).cause));
}

/**
 * The sign-in-required ApiError of the route at `url` (kind `unauthorized`, status 401).
 * @param {string} url
 * @param {string} why
 */
function signInRequired(url, why) {
  const e = apiError("unauthorized", `sign-in required: the token route ${url} answered 401: ${why}`, { status: 401 });
  return Object.assign(e, { signInRequired: true });
}

/**
 * The `message` of a route's JSON answer, at most 200 characters, or "".
 * @param {Response} response
 */
async function messageOf(response) {
  try {
    const body = /** @type {{ message?: unknown }} */ (await response.json());
    return typeof body?.message === "string" ? body.message.slice(0, 200) : "";
  } catch {
    return "";
  }
}

/**
 * The browser's token from the app's token route. See ./token.d.ts.
 * @param {SessionTokenOptions | string} options
 * @returns {SessionToken}
 */
export function createSessionToken(options) {
  const given = typeof options === "string" ? { url: options } : options ?? /** @type {SessionTokenOptions} */ ({});
  const { url, fetch: send, channel: name = "estatekit-token" } = given;
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) {
    throw apiError("invalid_input", "invalid options.url: must be the token route's path on the page's own origin (`/api/estate-token`)");
  }
  if (send !== undefined && typeof send !== "function") throw apiError("invalid_input", "invalid options.fetch: must be a function");
  if (typeof name !== "string" || name === "") throw apiError("invalid_input", "invalid options.channel: must be a non-empty string");
  /** @type {Set<() => void>} */
  const listeners = new Set();
  // Bumped by every sign-out: a token asked for before it is not handed out after it.
  let generation = 0;
  const cleared = () => {
    generation++;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure is not the sign-out's.
      }
    }
  };
  /** @type {BroadcastChannel | undefined} */
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : undefined;
  if (channel) {
    channel.onmessage = (event) => {
      if (/** @type {{ type?: unknown }} */ (event.data)?.type === "clear") cleared();
    };
    /** @type {{ unref?: () => void }} */ (/** @type {unknown} */ (channel)).unref?.(); // Node: never keeps a process alive
  }
  return Object.freeze({
    /** @param {string} [reason] */
    async getToken(reason) {
      const at = generation;
      const response = await (send ?? fetch)(reason === "unauthorized" ? `${url}?reason=unauthorized` : url, {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: { accept: "application/json" },
      });
      if (at !== generation) throw signInRequired(url, "signed out while the token was on its way");
      if (response.status === 401) throw signInRequired(url, (await messageOf(response)) || "no one is signed in");
      if (!response.ok) {
        const why = await messageOf(response);
        throw new Error(`the token route ${url} answered HTTP ${response.status}${why ? `: ${why}` : ""}`);
      }
      /** @type {{ token?: unknown, expiresAt?: unknown } | undefined} */
      let body;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (at !== generation) throw signInRequired(url, "signed out while the token was on its way");
      if (typeof body?.token !== "string" || typeof body.expiresAt !== "number") {
        throw new Error(`the token route ${url} answered HTTP ${response.status} with a body that is not { token, expiresAt }`);
      }
      return { token: body.token, expiresAt: body.expiresAt };
    },
    clear() {
      cleared();
      channel?.postMessage({ type: "clear" });
    },
    /** @param {() => void} listener */
    onClear(listener) {
      if (typeof listener !== "function") throw apiError("invalid_input", "invalid listener: onClear takes a function");
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  });
}
