// The declarations of estatekit/auth (servers only). Every type that comes from Rust
// (TokenProviderOptions, TokenSet, TokenEvent, ...) is declared once, by wasm-bindgen, in
// ./estatekit_wasm_node.d.ts (the module built with the `auth` feature), and re-exported here;
// `Store` is estatekit/store's (./store.d.ts).
import type {
    AccessToken,
    ApiError,
    AuthorizationCode,
    GrantOptions,
    HeldTokenSet,
    PasswordCredentials,
    SignInRequired,
    TokenProviderOptions,
    TokenReason,
    TokenSet,
    UserTokensOptions,
} from "./estatekit_wasm_node.js";

export { ApiError, isApiError } from "./estatekit.js";
export type {
    AccessToken,
    ApiErrorKind,
    AuthorizationCode,
    GrantOptions,
    GrantType,
    HeldTokenSet,
    PasswordCredentials,
    SignInRequired,
    StoreOperation,
    TokenEvent,
    TokenProviderOptions,
    TokenReason,
    TokenSet,
    UserTokensOptions,
} from "./estatekit_wasm_node.js";
export type { Store } from "./store.js";

/**
 * Gets, keeps and refreshes one user's access token. Its methods may be passed around unbound:
 * `new Client({ baseUrl, getToken: provider.getToken })`. Printed (`util.inspect`,
 * `JSON.stringify`, `String`), it shows its base URL and client id, never a secret.
 */
export interface TokenProvider {
    /**
     * The access token and when it expires (`{ token, expiresAt }`, what a `Client`'s `getToken`
     * may return, on the server: this is the service account's token, which must never reach a
     * browser; a browser gets the signed-in staff member's own, {@link createTokenRoute}). The cached token while it is
     * not due; else a new one, from the store when another process got it, or by one grant
     * that concurrent callers share (a refresh, or the password grant when there is no refresh
     * token or the service refused it). `"unauthorized"` (the client's call after a 401) gets a
     * new one even if the cached one looked valid. Rejects with an `ApiError`.
     */
    getToken(reason?: TokenReason): Promise<AccessToken>;
    /** Forgets the cached access token: the next `getToken` gets a new one. */
    invalidate(): void;
    /** Stops the provider: its tokens are dropped, later `getToken` calls reject (`invalid_input`). */
    close(): void;
}

/**
 * A token provider for one user of one OAuth client. Nothing is sent before the first
 * `getToken`. Throws an `ApiError` (`invalid_input`) at once for a missing or wrong `baseUrl`
 * (https; plain http only for localhost, 127.0.0.0/8 and [::1]); other invalid options make
 * every `getToken` reject with one.
 */
export function createTokenProvider(options: TokenProviderOptions): TokenProvider;

/** Signs a user in with the password grant; rejects with an `ApiError` (a wrong password: `forbidden`, code `invalid_grant`). */
export function passwordGrant(options: GrantOptions, credentials: PasswordCredentials): Promise<TokenSet>;

/** A new access token for a refresh token; the set keeps that refresh token when the answer carries no new one. */
export function refreshGrant(options: GrantOptions, refreshToken: string): Promise<TokenSet>;

/** Exchanges the code of the sign-in dialog (`GET {baseUrl}/accounts/dialog/authorize`) for tokens. */
export function authorizationCodeGrant(options: GrantOptions, code: AuthorizationCode): Promise<TokenSet>;

/** The signed-in staff's token sets of one OAuth client: see {@link createUserTokens}. */
export interface UserTokens {
    /**
     * The token set to use now. `tokenSet` (what the session holds; `expiresAt` in milliseconds)
     * comes back (as a `TokenSet` of the same values) while it is not due (`expiresAt -
     * refreshBeforeMs`, the margin at most a quarter of the set's `lifetimeMs`); else the newest
     * set: a successor already made for its refresh token (following the chain of rotations), or
     * one refresh grant shared by every caller holding that refresh token, in this process and,
     * through the `store`'s claim, in every process. `"unauthorized"` (the service answered 401)
     * refreshes a set that looked valid. Rejects with an `ApiError`: marked `signInRequired: true`
     * ({@link isSignInRequired}) only when the service refused the refresh token or the set has
     * none (then without a request); `invalid_input` for an `expiresAt` that can only be seconds.
     */
    fresh(tokenSet: HeldTokenSet, reason?: TokenReason): Promise<TokenSet>;
}

/**
 * Refreshes the token sets of users who signed in with their own account (an `authjsProvider` or
 * `betterAuthProvider` sign-in), without the rotation race. Nothing is sent before `fresh`.
 * Throws an `ApiError` (`invalid_input`) at once for a missing or wrong `baseUrl`; other
 * invalid options make every `fresh` reject with one. Printed, it
 * shows its base URL and client id, never a secret.
 */
export function createUserTokens(options: UserTokensOptions): UserTokens;

/**
 * The app's session of the signed-in staff member, as {@link createTokenRoute} reads and writes
 * it: any session library, by two functions (recipes for NextAuth/Auth.js and Better Auth in
 * docs/browser-apps.md).
 */
export interface TokenRouteSession {
    /**
     * The token set the request's session holds (what the sign-in gave, e.g. `toTokenSet(account)`,
     * or the last set written by `set`), or `null`/`undefined` when no one is signed in (the route
     * answers 401). A throw is answered 503.
     */
    get(request: Request): HeldTokenSet | null | undefined | Promise<HeldTokenSet | null | undefined>;
    /**
     * Writes a refreshed (rotated) token set back to the session; called only when the set
     * changed. May return headers to add to the route's answer (a session cookie's `Set-Cookie`).
     * A throw is ignored: the token is still given, and `fresh` serves the old set's successor
     * for `successorRetentionMs`.
     */
    set(request: Request, tokenSet: TokenSet): void | SessionHeaders | Promise<void | SessionHeaders>;
}

/** Headers to add to the token route's answer (what `new Headers(init)` takes; named here so that apps without the DOM library resolve it). */
export type SessionHeaders = Headers | Record<string, string> | [string, string][];

/** Options of {@link createTokenRoute}. */
export interface TokenRouteOptions {
    /**
     * The signed-in staff's token sets: `createUserTokens(...)`. A token provider
     * (`createTokenProvider`, the service account's token, valid for the whole account) is
     * refused, by `tsc` and at run time: it must never reach a browser.
     */
    userTokens: UserTokens & { getToken?: never };
    /** The session of the signed-in staff member: where the token set is read and written back. */
    session: TokenRouteSession;
    /**
     * The app's public origin(s) (`https://portal.example.com`), for the `Origin` check of a POST
     * from a browser that sends no `Sec-Fetch-Site`. Default: the request URL's own origin
     * (behind a proxy that ends TLS or rewrites the host, give the public one).
     */
    origin?: string | string[];
}

/** What {@link createTokenRoute} answers with 200: what a `Client`'s `getToken` may return. */
export interface TokenRouteAnswer {
    /** The signed-in staff member's access token. */
    token: string;
    /** When it expires, in milliseconds since the Unix epoch. */
    expiresAt: number;
}

/**
 * A route that gives the browser the signed-in staff member's **own** access token, fresh: a
 * `Request -> Response` function for a Next.js route handler (`export const POST =
 * createTokenRoute(...)`, and `GET`), and, through `toNodeListener` (estatekit/webhooks), Node's
 * http and Express. It answers:
 * - 200 `{ token, expiresAt }` (a {@link TokenRouteAnswer}) from `userTokens.fresh` of the
 *   session's set (`fresh(set, "unauthorized")` for `?reason=unauthorized`, which the browser's
 *   `getToken` adds after the service answered 401), writing a refreshed set back with `session.set`;
 * - 401 `{ error: "sign_in_required" }` when no one is signed in or the sign-in has ended (the
 *   browser's `createSessionToken` makes it the sign-in-required `ApiError`);
 * - 403 to a request that is not from a page of the same origin: only `Sec-Fetch-Site:
 *   same-origin`, or, where a browser sends no `Sec-Fetch-Site`, a POST whose `Origin` is the
 *   route's own; 405 to other methods; 503 when the service or the session cannot answer now;
 *   500 to a malformed set in the session.
 * Every answer has `Cache-Control: no-store` and `Vary: Cookie`, and no CORS header: no other
 * site's page can read it. Throws an `ApiError` (`invalid_input`) at once for options that are
 * not `createUserTokens`'s user tokens (a token provider is refused) and a session's two functions.
 */
export function createTokenRoute(options: TokenRouteOptions): (request: Request) => Promise<Response>;

/** The `ApiError` of a token set that only a new sign-in can replace. */
export type SignInRequiredError = ApiError & SignInRequired;

/**
 * Whether `e` is the `ApiError` of a token set only a new sign-in can replace (the service
 * refused its refresh token, or it has none): `e.signInRequired === true`. In a `jwt` callback,
 * exactly this becomes `error: "RefreshTokenError"`; any other failure keeps the session.
 */
export function isSignInRequired(e: unknown): e is SignInRequiredError;

/**
 * The `account` a sign-in library hands its callbacks: NextAuth v4 / Auth.js (`access_token`,
 * `refresh_token`, `expires_at` in **seconds**) or Better Auth (`accessToken`, `refreshToken`,
 * `accessTokenExpiresAt`). Other keys are ignored.
 */
export interface SignInAccount {
    access_token?: string | null;
    refresh_token?: string | null;
    /** Seconds since the Unix epoch (Auth.js, openid-client). */
    expires_at?: number | null;
    /** Seconds from now, when there is no `expires_at`. */
    expires_in?: number | null;
    token_type?: string | null;
    accessToken?: string | null;
    refreshToken?: string | null;
    /** Better Auth's expiry (a `Date`; its text or milliseconds are read too). */
    accessTokenExpiresAt?: Date | string | number | null;
    tokenType?: string | null;
}

/**
 * The `TokenSet` of a sign-in's `account` (`expiresAt` in milliseconds; `expires_at` is read as
 * seconds, and refused when it looks like milliseconds). Without an expiry, the service's default
 * hour from now. Its `lifetimeMs` (the refresh margin is at most a quarter of it): the account's
 * `expires_in`, else the time left until the expiry now (the sign-in callback runs just after the
 * grant; read later, a shorter lifetime: a smaller margin, never an earlier refresh). Throws an `ApiError` (`invalid_input`) when the account has no
 * access token.
 */
export function toTokenSet(account: SignInAccount): TokenSet;

/** The signed-in user, from `GET {baseUrl}/accounts/api/userinfo`. */
export interface StaffUserInfo {
    /** The user's id. */
    id: string | number;
    /** The user's e-mail. */
    email?: string | null;
    /** The user's first name. */
    firstName?: string | null;
    /** The user's last name. */
    lastName?: string | null;
    /** The URL of the user's profile photo. */
    profilePhoto?: string | null;
    /** Further details of the user, as the service sends them. */
    profileData?: {
        language?: string | null;
        salutation?: string | null;
        phoneNumber?: string | null;
        cellPhoneNumber?: string | null;
    } | null;
}

/** A user as the sign-in libraries take one (`name` is the first and last names, else the e-mail). */
export interface StaffProfile {
    /** The service's user id, as text. */
    id: string;
    /** First and last names, else the e-mail; null when the service has neither. */
    name: string | null;
    /** The user's e-mail, or null. */
    email: string | null;
    /** The URL of the user's profile photo, or null. */
    image: string | null;
}

/**
 * Maps the service's user info to a sign-in library's user (what the providers' `profile` does).
 * Throws an `ApiError` of kind `invalid_input` when the user info has no `id`.
 */
export function toStaffProfile(profile: StaffUserInfo): StaffProfile;

/** Options of {@link authjsProvider}. */
export interface ProviderOptions {
    /**
     * The account's base URL, e.g. `https://acme.example.com`: https, plain http only for
     * localhost, 127.0.0.0/8 and [::1] (the provider throws an `ApiError` of kind
     * `invalid_input` at once otherwise, as every entry that takes a base URL does).
     */
    baseUrl: string;
    /** The OAuth client's id. */
    clientId: string;
    /** The OAuth client's secret (server configuration only). */
    clientSecret: string;
    /** The provider's id in the library (default `"estatekit"`; it names the callback URL). */
    id?: string;
    /** The provider's name on the library's sign-in page (default `"estatekit"`). */
    name?: string;
    /** The scope asked for (default `offline_access *`: a refresh token, and every API). */
    scope?: string;
}

/** Options of {@link betterAuthProvider}. */
export interface BetterAuthProviderOptions extends Omit<ProviderOptions, "name"> {
    /** Fetches the user info instead of the global `fetch`. */
    fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** An OAuth provider as NextAuth v4 (`next-auth` 4.24) and Auth.js (`@auth/core`) take it. */
export interface AuthjsProvider {
    id: string;
    name: string;
    type: "oauth";
    authorization: { url: string; params: { scope: string } };
    token: string;
    userinfo: string;
    clientId: string;
    clientSecret: string;
    client: { token_endpoint_auth_method: "client_secret_basic" };
    checks: ("pkce" | "state")[];
    profile(profile: StaffUserInfo): StaffProfile;
}

/**
 * The service for NextAuth v4 and Auth.js: `providers: [authjsProvider({ baseUrl, clientId,
 * clientSecret })]`. Authorization, token and userinfo URLs under `baseUrl`, scope
 * `offline_access *`, PKCE (S256) and state, the client authenticated by HTTP Basic (the
 * libraries' default, which the service accepts), and `profile()` giving `id`, `name`,
 * `email`, `image`. A plain object: no dependency on either library.
 */
export function authjsProvider(options: ProviderOptions): AuthjsProvider;

/** The tokens Better Auth hands `getUserInfo`. */
export interface BetterAuthTokens {
    accessToken?: string;
}

/** A Better Auth user, from {@link BetterAuthProvider.getUserInfo}. */
export interface BetterAuthUserInfo {
    id: string;
    name: string;
    email: string | null;
    image: string | undefined;
    emailVerified: boolean;
}

/** One entry of Better Auth's `genericOAuth({ config: [...] })`. */
export interface BetterAuthProvider {
    providerId: string;
    authorizationUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
    clientId: string;
    clientSecret: string;
    scopes: string[];
    pkce: boolean;
    authentication: "basic";
    /** The user from `/accounts/api/userinfo` (null when the service refuses the token). */
    getUserInfo(tokens: BetterAuthTokens): Promise<BetterAuthUserInfo | null>;
}

/**
 * The service for Better Auth: `genericOAuth({ config: [betterAuthProvider({ baseUrl, clientId,
 * clientSecret })] })`. The same URLs, scope, PKCE and HTTP Basic as {@link authjsProvider}; its
 * `getUserInfo` reads the user's profile. A plain object: no dependency on Better Auth.
 */
export function betterAuthProvider(options: BetterAuthProviderOptions): BetterAuthProvider;
