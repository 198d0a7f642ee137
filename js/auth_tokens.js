// estatekit/auth's API, shared by its server entries (./auth.node.js for Node, Deno, Bun and the
// server side of Next.js; ./auth.workerd.js for Cloudflare Workers): the token grants and the
// token provider of the module built with the `auth` feature (src/web/auth.rs), through the same
// module instance as the main entry's of that runtime, which the entry gives (`entry(init)`). A
// thin wrapper: it loads the module on first use (no top-level await), and gives a provider whose
// methods can be passed around unbound (`getToken: provider.getToken`) and whose printed forms
// (`util.inspect`, `JSON.stringify`, `String`) name no secret.
import {
  TokenProvider as WasmTokenProvider,
  passwordGrant as wasmPasswordGrant,
  refreshGrant as wasmRefreshGrant,
  authorizationCodeGrant as wasmAuthorizationCodeGrant,
} from "./estatekit_wasm_node.js";
import { apiError } from "./loader.js";

/** @typedef {import("./auth.js").TokenProvider} TokenProvider */
/** @typedef {import("./auth.js").TokenProviderOptions} TokenProviderOptions */
/** @typedef {import("./auth.js").GrantOptions} GrantOptions */
/** @typedef {import("./auth.js").PasswordCredentials} PasswordCredentials */
/** @typedef {import("./auth.js").AuthorizationCode} AuthorizationCode */
/** @typedef {import("./auth.js").TokenSet} TokenSet */
/** @typedef {import("./auth.js").TokenReason} TokenReason */
/** @typedef {import("./auth.js").AccessToken} AccessToken */

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * Loads the module (the main entry's `init` of this runtime); set by `entry`, which every entry
 * calls first.
 * @type {() => Promise<unknown>}
 */
let init;

/**
 * A provider's description without its secrets.
 * @param {unknown} options
 */
function describe(options) {
  const { baseUrl, clientId } = /** @type {{ baseUrl?: unknown, clientId?: unknown }} */ (options ?? {});
  return { baseUrl: String(baseUrl), clientId: String(clientId) };
}

/**
 * Gets, keeps and refreshes the access token of one user of one OAuth client. See ./auth.d.ts.
 * @param {TokenProviderOptions} options
 * @returns {TokenProvider}
 */
function createTokenProvider(options) {
  // Read as they are now (like the Client's options); dropped once the provider is made.
  /** @type {TokenProviderOptions | undefined} */
  let given = options !== null && typeof options === "object" ? { ...options } : options;
  const about = describe(options);
  /** @type {WasmTokenProvider | undefined} */
  let inner;
  /** @type {Promise<WasmTokenProvider> | undefined} */
  let making;
  let closed = false;

  /** The wasm provider, made once the module is loaded; bad options reject every call alike. */
  const made = () =>
    (making ??= init().then(
      () => {
        inner = new WasmTokenProvider(/** @type {TokenProviderOptions} */ (given)); // throws ApiError invalid_input
        given = undefined;
        if (closed) inner.close();
        return inner;
      },
      (cause) => {
        making = undefined; // the module failed to load: the next call tries again
        throw cause;
      },
    ));

  return Object.freeze({
    /** @param {TokenReason} [reason] @returns {Promise<AccessToken>} */
    async getToken(reason) {
      if (closed) throw apiError("invalid_input", "invalid tokenProvider: this token provider was closed");
      return /** @type {Promise<AccessToken>} */ ((await made()).getToken(reason));
    },
    invalidate() {
      inner?.invalidate();
    },
    close() {
      closed = true;
      given = undefined;
      inner?.close();
    },
    toJSON: () => ({ tokenProvider: about }),
    toString: () => `[TokenProvider ${about.clientId} at ${about.baseUrl}]`,
    [INSPECT]: () => `TokenProvider { baseUrl: '${about.baseUrl}', clientId: '${about.clientId}' }`,
  });
}

/**
 * Signs a user in with the password grant. See ./auth.d.ts.
 * @param {GrantOptions} options
 * @param {PasswordCredentials} credentials
 * @returns {Promise<TokenSet>}
 */
async function passwordGrant(options, credentials) {
  await init();
  return wasmPasswordGrant(options, credentials);
}

/**
 * Gets a new access token with a refresh token. See ./auth.d.ts.
 * @param {GrantOptions} options
 * @param {string} refreshToken
 * @returns {Promise<TokenSet>}
 */
async function refreshGrant(options, refreshToken) {
  await init();
  return wasmRefreshGrant(options, refreshToken);
}

/**
 * Exchanges the sign-in dialog's code for tokens. See ./auth.d.ts.
 * @param {GrantOptions} options
 * @param {AuthorizationCode} code
 * @returns {Promise<TokenSet>}
 */
async function authorizationCodeGrant(options, code) {
  await init();
  return wasmAuthorizationCodeGrant(options, code);
}

/**
 * estatekit/auth's API on the module that `load` (the main entry's `init` of this runtime) loads;
 * one module per realm, shared with the main entry.
 * @param {() => Promise<unknown>} load
 */
export function entry(load) {
  init ??= load;
  return { createTokenProvider, passwordGrant, refreshGrant, authorizationCodeGrant };
}
