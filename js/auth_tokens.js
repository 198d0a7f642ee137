// estatekit/auth's API, shared by its server entries (./auth.node.js for Node, Deno, Bun and the
// server side of Next.js; ./auth.workerd.js for Cloudflare Workers): the token grants and the
// token provider of the module built with the `auth` feature (web/src/auth.rs), through the same
// module instance as the main entry's of that runtime, which the entry gives (`entry(init)`). A
// thin wrapper: it loads the module on first use (no top-level await), and gives a provider whose
// methods can be passed around unbound (`getToken: provider.getToken`) and whose printed forms
// (`util.inspect`, `JSON.stringify`, `String`) name no secret.
import {
  TokenProvider as WasmTokenProvider,
  UserTokens as WasmUserTokens,
  passwordGrant as wasmPasswordGrant,
  refreshGrant as wasmRefreshGrant,
  authorizationCodeGrant as wasmAuthorizationCodeGrant,
} from "./estatekit_wasm_node.js";
import { apiError, isApiError } from "./api_error.js";
import { checkedStore } from "./store.js";
import { checkBaseUrl } from "./base_url.js";

/** @typedef {import("./auth.js").TokenProvider} TokenProvider */
/** @typedef {import("./auth.js").TokenProviderOptions} TokenProviderOptions */
/** @typedef {import("./auth.js").GrantOptions} GrantOptions */
/** @typedef {import("./auth.js").PasswordCredentials} PasswordCredentials */
/** @typedef {import("./auth.js").AuthorizationCode} AuthorizationCode */
/** @typedef {import("./auth.js").TokenSet} TokenSet */
/** @typedef {import("./auth.js").TokenReason} TokenReason */
/** @typedef {import("./auth.js").AccessToken} AccessToken */
/** @typedef {import("./auth.js").UserTokens} UserTokens */
/** @typedef {import("./auth.js").UserTokensOptions} UserTokensOptions */
/** @typedef {import("./auth.js").HeldTokenSet} HeldTokenSet */
/** @typedef {import("./auth.js").SignInAccount} SignInAccount */
/** @typedef {import("./auth.js").SignInRequiredError} SignInRequiredError */
/** @typedef {import("./auth.js").ProviderOptions} ProviderOptions */
/** @typedef {import("./auth.js").BetterAuthProviderOptions} BetterAuthProviderOptions */
/** @typedef {import("./auth.js").AuthjsProvider} AuthjsProvider */
/** @typedef {import("./auth.js").BetterAuthProvider} BetterAuthProvider */
/** @typedef {import("./auth.js").StaffUserInfo} StaffUserInfo */
/** @typedef {import("./auth.js").StaffProfile} StaffProfile */

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * The key of the internal hook by which estatekit/otel observes a token provider or user tokens
 * (not declared; `Symbol.for`, so that it holds across copies of the package). See `observers`.
 */
const OBSERVE = Symbol.for("estatekit.tokens.observe");

/**
 * The mark of user tokens made by `createUserTokens` (any copy of the package): what
 * `createTokenRoute` requires, so that no route can hand a browser a token provider's (the
 * service account's) token.
 */
const USER_TOKENS = Symbol.for("estatekit.userTokens");

/**
 * What observes a provider or user tokens (estatekit/otel's, internal): `begin` is asked at each
 * call, synchronously, for a scope (the caller's tracing context); `signal` is told each event
 * of the round that call starts, with that scope: the round's `TokenEvent`s (as `onEvent` gets
 * them) and `{ type: "storeWait" }` (another process holds the store's claim to refresh);
 * `send`, when there, sends a grant request: it calls `fetch(url, init)` at once, exactly once, and
 * returns what it returns. An observer guards itself (telemetry never breaks what it watches):
 * `begin` and `signal` never throw, and `send` throws only what `fetch` threw, whatever its own
 * part does, as the Client's hooks do (estatekit/otel's `within`).
 * @typedef {{
 *   begin(): unknown,
 *   signal(signal: import("./auth.js").TokenEvent | { type: "storeWait" }, scope: unknown): void,
 *   send?(fetch: (url: string, init: RequestInit) => unknown, url: string, init: RequestInit, scope: unknown): unknown,
 * }} TokenObserver
 */

/**
 * The observers of one provider or user tokens, and their hook (`object[OBSERVE](observer)`,
 * which gives back the token endpoint's URL). Nothing is asked or made at a call while none
 * observes.
 * @param {string} baseUrl the base URL, checked (./base_url.js)
 */
function observers(baseUrl) {
  /** @type {TokenObserver[]} */
  const list = [];
  return {
    /** @param {TokenObserver} observer @returns {{ tokenUrl: string | undefined }} */
    hook(observer) {
      list.push(observer);
      return { tokenUrl: `${baseUrl}/accounts/oauth/token` };
    },
    /**
     * What a call hands the module as `(tell, send)`, or none while none observes; called
     * synchronously at the call, where each observer's scope is read:
     * - `tell(signal)` is told the events and signals of the round the call starts;
     * - `send(fetch, url, init)` sends the round's grant requests: through the first observer
     *   with a `send` (estatekit/otel's suppresses an app's fetch instrumentation there), or as
     *   they are; it calls `fetch(url, init)` at once (see `Observer` in web/src/auth.rs).
     * @returns {[tell: (signal: any) => void, send: ((fetch: (url: string, init: RequestInit) => unknown, url: string, init: RequestInit) => unknown) | undefined] | []}
     */
    atCall() {
      if (list.length === 0) return [];
      const scoped = list.map((observer) => /** @type {const} */ ([observer, observer.begin()]));
      /** @param {any} signal */
      const tell = (signal) => {
        for (const [observer, scope] of scoped) observer.signal(signal, scope);
      };
      const sender = scoped.find(([observer]) => typeof observer.send === "function");
      if (!sender) return [tell, undefined];
      const [observer, scope] = sender;
      /** @param {(url: string, init: RequestInit) => unknown} fetch @param {string} url @param {RequestInit} init */
      const send = (fetch, url, init) => /** @type {NonNullable<TokenObserver["send"]>} */ (observer.send).call(observer, fetch, url, init, scope);
      return [tell, send];
    },
  };
}

/**
 * Loads the module (the main entry's `init` of this runtime); set by `entry`, which every entry
 * calls first.
 * @type {() => Promise<unknown>}
 */
let init;

/**
 * The base URL of `options`, checked where it is given (./base_url.js): throws an ApiError of
 * kind invalid_input at once for a missing or wrong one.
 * @param {unknown} options
 */
const baseUrlOf = (options) => checkBaseUrl(options);

/**
 * A provider's description without its secrets.
 * @param {unknown} options
 * @param {string} baseUrl
 */
function describe(options, baseUrl) {
  const { clientId } = /** @type {{ clientId?: unknown }} */ (options ?? {});
  return { baseUrl, clientId: String(clientId) };
}

/**
 * A copy of the caller's options (read as they are now) whose `store`, when it is one, answers
 * through `checkedStore` (a wrong answer is an error naming the method, at once).
 * @template T
 * @param {T} options
 * @returns {T}
 */
function withCheckedStore(options) {
  if (options === null || typeof options !== "object") return options;
  const copy = /** @type {T & { store?: unknown }} */ ({ ...options });
  if (copy.store !== null && typeof copy.store === "object") copy.store = checkedStore(copy.store);
  return copy;
}

/**
 * Gets, keeps and refreshes the access token of one user of one OAuth client. See ./auth.d.ts.
 * @param {TokenProviderOptions} options
 * @returns {TokenProvider}
 */
function createTokenProvider(options) {
  const base = baseUrlOf(options);
  // Read as they are now (like the Client's options); dropped once the provider is made.
  /** @type {TokenProviderOptions | undefined} */
  let given = withCheckedStore(options);
  const about = describe(options, base);
  /** @type {WasmTokenProvider | undefined} */
  let inner;
  /** @type {Promise<WasmTokenProvider> | undefined} */
  let making;
  let closed = false;
  const watch = observers(base);

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

  const provider = {
    /** @param {TokenReason} [reason] @returns {Promise<AccessToken>} */
    async getToken(reason) {
      const [tell, send] = watch.atCall();
      if (closed) throw apiError("invalid_input", "invalid tokenProvider: this token provider was closed");
      return /** @type {Promise<AccessToken>} */ ((await made()).getToken(reason, tell, send));
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
  };
  return Object.freeze(Object.defineProperty(provider, OBSERVE, { value: watch.hook }));
}

/**
 * Signs a user in with the password grant. See ./auth.d.ts.
 * @param {GrantOptions} options
 * @param {PasswordCredentials} credentials
 * @returns {Promise<TokenSet>}
 */
async function passwordGrant(options, credentials) {
  baseUrlOf(options); // refused before anything is loaded or sent
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
  baseUrlOf(options); // refused before anything is loaded or sent
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
  baseUrlOf(options); // refused before anything is loaded or sent
  await init();
  return wasmAuthorizationCodeGrant(options, code);
}

/**
 * The signed-in users' token sets of one OAuth client, refreshed without races. See ./auth.d.ts.
 * @param {UserTokensOptions} options
 * @returns {UserTokens}
 */
function createUserTokens(options) {
  const base = baseUrlOf(options);
  /** @type {UserTokensOptions | undefined} */
  let given = withCheckedStore(options);
  const about = describe(options, base);
  const watch = observers(base);
  /** @type {Promise<WasmUserTokens> | undefined} */
  let making;
  const made = () =>
    (making ??= init().then(
      () => {
        const inner = new WasmUserTokens(/** @type {UserTokensOptions} */ (given)); // throws ApiError invalid_input
        given = undefined;
        return inner;
      },
      (cause) => {
        making = undefined;
        throw cause;
      },
    ));
  const userTokens = {
    /** @param {HeldTokenSet} tokenSet @param {TokenReason} [reason] @returns {Promise<TokenSet>} */
    async fresh(tokenSet, reason) {
      const [tell, send] = watch.atCall();
      return /** @type {Promise<TokenSet>} */ ((await made()).fresh(tokenSet, reason, tell, send));
    },
    toJSON: () => ({ userTokens: about }),
    toString: () => `[UserTokens ${about.clientId} at ${about.baseUrl}]`,
    [INSPECT]: () => `UserTokens { baseUrl: '${about.baseUrl}', clientId: '${about.clientId}' }`,
  };
  return Object.freeze(Object.defineProperties(userTokens, { [OBSERVE]: { value: watch.hook }, [USER_TOKENS]: { value: true } }));
}

/**
 * Whether `e` is the `ApiError` of a refresh token only a new sign-in can replace. See ./auth.d.ts.
 * @param {unknown} e
 * @returns {e is SignInRequiredError}
 */
export function isSignInRequired(e) {
  return isApiError(e) && /** @type {{ signInRequired?: unknown }} */ (e).signInRequired === true;
}

/** An access token's lifetime when an account says none (the service's default hour). */
const DEFAULT_LIFETIME_MS = 3_600_000;

/**
 * `invalid_input` naming `field` of the account (never its value).
 * @param {string} field
 * @param {string} reason
 */
const badAccount = (field, reason) => apiError("invalid_input", `invalid account.${field}: ${reason}`);

/**
 * A number of seconds (an OAuth library's `expires_at`/`expires_in`), or undefined when absent.
 * @param {Record<string, unknown>} account
 * @param {string} field
 */
function seconds(account, field) {
  const value = account[field];
  if (value == null) return undefined;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) throw badAccount(field, "must be a number of seconds");
  return n;
}

/**
 * The TokenSet of the `account` a sign-in library hands its callbacks. Synchronous and plain
 * (the module is loaded asynchronously, a sign-in callback needs it at once). See ./auth.d.ts.
 * @param {SignInAccount} account
 * @returns {TokenSet}
 */
export function toTokenSet(account) {
  if (account === null || typeof account !== "object") {
    throw apiError("invalid_input", "invalid account: must be the account object of the sign-in callback");
  }
  const a = /** @type {Record<string, unknown>} */ (account);
  const accessToken = a.access_token ?? a.accessToken;
  if (typeof accessToken !== "string" || accessToken === "") {
    throw badAccount(
      "access_token",
      "is missing: the sign-in gave no access token (is this the account of an OAuth sign-in with authjsProvider or betterAuthProvider?)",
    );
  }
  const givenRefreshToken = a.refresh_token ?? a.refreshToken;
  /** @type {string | undefined} */
  let refreshToken;
  if (typeof givenRefreshToken === "string") refreshToken = givenRefreshToken || undefined;
  else if (givenRefreshToken != null) throw badAccount("refresh_token", "must be a string");
  /** @type {number} */
  let expiresAt;
  const now = Date.now();
  const expiresAtS = seconds(a, "expires_at");
  const expiresIn = seconds(a, "expires_in");
  const date = a.accessTokenExpiresAt;
  // The lifetime the set records (the refresh margin is at most a quarter of it): the library's
  // `expires_in`, else, with no expiry at all, the default hour.
  /** @type {number | undefined} */
  let lifetimeMs;
  if (expiresIn !== undefined && expiresIn > 0) {
    lifetimeMs = expiresIn * 1000;
  } else if (expiresAtS === undefined && date == null) {
    lifetimeMs = DEFAULT_LIFETIME_MS;
  }
  if (expiresAtS !== undefined) {
    // Seconds since the epoch, as Auth.js and openid-client keep it; a value in milliseconds is refused.
    if (expiresAtS >= 1e11) throw badAccount("expires_at", "must be seconds since the Unix epoch (this looks like milliseconds)");
    expiresAt = expiresAtS * 1000;
  } else if (date != null) {
    const ms = date instanceof Date ? date.getTime() : typeof date === "string" ? Date.parse(date) : typeof date === "number" ? date : NaN;
    if (!Number.isFinite(ms) || ms < 1e11) throw badAccount("accessTokenExpiresAt", "must be a Date (or an ISO 8601 text, or milliseconds since the Unix epoch)");
    expiresAt = ms;
  } else {
    expiresAt = now + (expiresIn !== undefined ? expiresIn * 1000 : DEFAULT_LIFETIME_MS);
  }
  // Only an expiry (NextAuth keeps `expires_at` and no issue time): the time left now. The
  // sign-in callback runs just after the grant, so this is the lifetime to within that delay;
  // read later, it is shorter, so the margin is smaller: never an earlier refresh.
  if (lifetimeMs === undefined && expiresAt > now) lifetimeMs = expiresAt - now;
  const type = a.token_type ?? a.tokenType;
  /** @type {TokenSet} */
  const set = { accessToken, expiresAt, tokenType: typeof type === "string" && type !== "" ? type : "Bearer" };
  if (refreshToken) set.refreshToken = refreshToken;
  if (lifetimeMs !== undefined) set.lifetimeMs = lifetimeMs;
  return set;
}

/** The scope the providers ask for: what the vendor documents (a refresh token, every API). */
const SCOPE = "offline_access *";

/**
 * The service's OAuth endpoints for `options` (checked: the base URL by ./base_url.js's rule, a client
 * id and secret), or an `invalid_input` ApiError naming the option.
 * @param {ProviderOptions} options
 */
function endpoints(options) {
  const base = baseUrlOf(options);
  const { clientId, clientSecret } = /** @type {Partial<ProviderOptions>} */ (options ?? {});
  for (const [name, value] of /** @type {const} */ ([["clientId", clientId], ["clientSecret", clientSecret]])) {
    if (typeof value !== "string" || value === "") throw apiError("invalid_input", `invalid options.${name}: must be a non-empty string`);
  }
  return {
    authorize: `${base}/accounts/dialog/authorize`,
    token: `${base}/accounts/oauth/token`,
    userinfo: `${base}/accounts/api/userinfo`,
    clientId: /** @type {string} */ (clientId),
    clientSecret: /** @type {string} */ (clientSecret),
  };
}

/**
 * The user of the service's `/accounts/api/userinfo` as the sign-in libraries want one.
 * @param {StaffUserInfo} profile
 * @returns {StaffProfile}
 */
export function toStaffProfile(profile) {
  const p = profile ?? /** @type {StaffUserInfo} */ ({});
  if ((typeof p.id !== "string" || p.id === "") && (typeof p.id !== "number" || !Number.isFinite(p.id))) {
    // A profile without its id would sign a user in as "undefined": refused, as the type says.
    throw apiError("invalid_input", "invalid userinfo: the service's user has no id (a string or a number)");
  }
  const name = [p.firstName, p.lastName].filter((part) => typeof part === "string" && part.trim() !== "").join(" ");
  return {
    id: String(p.id),
    name: name || (typeof p.email === "string" ? p.email : null),
    email: typeof p.email === "string" ? p.email : null,
    image: typeof p.profilePhoto === "string" && p.profilePhoto !== "" ? p.profilePhoto : null,
  };
}

/**
 * An OAuth provider for NextAuth v4 and Auth.js (@auth/core). See ./auth.d.ts.
 * @param {ProviderOptions} options
 * @returns {AuthjsProvider}
 */
export function authjsProvider(options) {
  const e = endpoints(options);
  return {
    id: options.id ?? "estatekit",
    name: options.name ?? "estatekit",
    type: "oauth",
    authorization: { url: e.authorize, params: { scope: options.scope ?? SCOPE } },
    token: e.token,
    userinfo: e.userinfo,
    clientId: e.clientId,
    clientSecret: e.clientSecret,
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["pkce", "state"],
    profile: (profile) => toStaffProfile(profile),
  };
}

/**
 * A provider of Better Auth's `genericOAuth` plugin. See ./auth.d.ts.
 * @param {BetterAuthProviderOptions} options
 * @returns {BetterAuthProvider}
 */
export function betterAuthProvider(options) {
  const e = endpoints(options);
  const send = options.fetch ?? ((/** @type {string} */ url, /** @type {RequestInit} */ init) => fetch(url, init));
  return {
    providerId: options.id ?? "estatekit",
    authorizationUrl: e.authorize,
    tokenUrl: e.token,
    userInfoUrl: e.userinfo,
    clientId: e.clientId,
    clientSecret: e.clientSecret,
    scopes: (options.scope ?? SCOPE).split(" ").filter(Boolean),
    pkce: true,
    authentication: "basic",
    async getUserInfo(tokens) {
      if (!tokens?.accessToken) return null;
      const response = await send(e.userinfo, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
      });
      if (!response.ok) return null;
      /** @type {StaffProfile} */
      let user;
      try {
        user = toStaffProfile(/** @type {StaffUserInfo} */ (await response.json()));
      } catch {
        return null; // no user (no id): Better Auth refuses the sign-in
      }
      return { id: user.id, name: user.name ?? user.id, email: user.email, image: user.image ?? undefined, emailVerified: false };
    },
  };
}

/** The headers of every answer of a token route: never cached, never shared across origins. */
const ROUTE_HEADERS = { "cache-control": "no-store", vary: "Cookie", "content-type": "application/json", "x-content-type-options": "nosniff" };

/**
 * A JSON answer of a token route, with `extra` headers (a session's Set-Cookie) appended.
 * @param {number} status
 * @param {unknown} body
 * @param {HeadersInit} [extra]
 */
function routeAnswer(status, body, extra) {
  const headers = new Headers(ROUTE_HEADERS);
  if (status === 405) headers.set("allow", "GET, POST");
  if (extra !== undefined) new Headers(extra).forEach((value, name) => headers.append(name, value));
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Whether `request` comes from a page of the route's own origin: `Sec-Fetch-Site: same-origin`
 * (every current browser sends it), or, where the browser sends no `Sec-Fetch-Site`, a POST whose
 * `Origin` is the route's origin (`origins`, else the request URL's own).
 * @param {Request} request
 * @param {string[] | undefined} origins
 */
function sameOrigin(request, origins) {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (request.method !== "POST" || origin === null) return false;
  return (origins ?? [new URL(request.url).origin]).includes(origin);
}

/**
 * The allowed origins of `options.origin`, checked (an `invalid_input` ApiError naming it).
 * @param {unknown} given
 * @returns {string[] | undefined}
 */
function routeOrigins(given) {
  if (given === undefined) return undefined;
  const list = Array.isArray(given) ? given : [given];
  return list.map((o) => {
    /** @type {URL | undefined} */
    let url;
    try {
      url = typeof o === "string" ? new URL(o) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || url.origin !== o) {
      throw apiError("invalid_input", "invalid options.origin: must be an origin (`https://portal.example.com`, no path or trailing slash) or an array of them");
    }
    return o;
  });
}

/**
 * A route that gives the signed-in staff member's own access token to the browser. See ./auth.d.ts.
 * @param {import("./auth.js").TokenRouteOptions} options
 * @returns {(request: Request) => Promise<Response>}
 */
export function createTokenRoute(options) {
  const { userTokens, session, origin } = /** @type {Partial<import("./auth.js").TokenRouteOptions>} */ (options ?? {});
  const tokens = /** @type {Record<PropertyKey, unknown> | null | undefined} */ (/** @type {unknown} */ (userTokens));
  if (tokens === null || typeof tokens !== "object" || tokens[USER_TOKENS] !== true) {
    const provider = tokens !== null && typeof tokens === "object" && typeof tokens.getToken === "function";
    throw apiError(
      "invalid_input",
      provider
        ? "invalid options.userTokens: this is a token provider (createTokenProvider), whose token is the service account's, valid for " +
            "the whole account: it must never reach a browser. Give createUserTokens(...) and the session of the signed-in staff member"
        : "invalid options.userTokens: must be the user tokens of createUserTokens({ baseUrl, clientId, clientSecret })",
    );
  }
  const s = /** @type {{ get?: unknown, set?: unknown } | null | undefined} */ (session);
  if (s === null || typeof s !== "object" || typeof s.get !== "function" || typeof s.set !== "function") {
    throw apiError("invalid_input", "invalid options.session: must be { get(request), set(request, tokenSet) }, the app's session of the signed-in staff member");
  }
  const origins = routeOrigins(origin);
  const fresh = /** @type {UserTokens} */ (userTokens).fresh;
  const { get, set } = /** @type {import("./auth.js").TokenRouteSession} */ (s);

  return async function tokenRoute(request) {
    if (request.method !== "GET" && request.method !== "POST") {
      return routeAnswer(405, { error: "method_not_allowed", message: "the token route answers GET and POST from its own origin" });
    }
    if (!sameOrigin(request, origins)) {
      return routeAnswer(403, { error: "cross_origin", message: "the token route answers its own origin's pages only" });
    }
    /** @type {HeldTokenSet | null | undefined} */
    let held;
    try {
      held = await get(request);
    } catch {
      return routeAnswer(503, { error: "session_unavailable", message: "the session could not be read: try again" });
    }
    if (held == null) return routeAnswer(401, { error: "sign_in_required", message: "no one is signed in" });
    /** @type {TokenSet} */
    let fresher;
    try {
      // `?reason=unauthorized`: the service answered 401 to the token the browser holds.
      const unauthorized = new URL(request.url).searchParams.get("reason") === "unauthorized";
      fresher = await (unauthorized ? fresh(held, "unauthorized") : fresh(held));
    } catch (e) {
      if (isSignInRequired(e)) return routeAnswer(401, { error: "sign_in_required", message: "the session's sign-in has ended: sign in again" });
      const kind = isApiError(e) ? /** @type {{ kind: string }} */ (e).kind : "unknown";
      // A malformed set in the session, or bad options: the app's fault, not to be asked again.
      if (kind === "invalid_input") return routeAnswer(500, { error: "invalid_session", message: "the session's token set was refused (invalid_input): see the server's configuration" });
      // The service's or the network's failure, not the user's: the browser may ask again.
      return routeAnswer(503, { error: "token_unavailable", kind, message: "no token could be had from the service now: try again" });
    }
    /** @type {Headers | undefined} */
    let written;
    if (fresher.accessToken !== held.accessToken || fresher.refreshToken !== (held.refreshToken ?? undefined)) {
      try {
        const headers = await set(request, fresher);
        if (headers != null) written = new Headers(headers);
      } catch {
        // Not written: the token is still good, and `fresh` serves the successor to the old set
        // for `successorRetentionMs`; the next answer writes it again.
      }
    }
    return routeAnswer(200, { token: fresher.accessToken, expiresAt: fresher.expiresAt }, written);
  };
}

/**
 * estatekit/auth's API on the module that `load` (the main entry's `init` of this runtime) loads;
 * one module per realm, shared with the main entry.
 * @param {() => Promise<unknown>} load
 */
export function entry(load) {
  init ??= load;
  return { createTokenProvider, createUserTokens, passwordGrant, refreshGrant, authorizationCodeGrant };
}
