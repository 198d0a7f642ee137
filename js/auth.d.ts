// The declarations of estatekit/auth (servers only). Every type that comes from Rust
// (TokenProviderOptions, TokenSet, TokenEvent, ...) is declared once, by wasm-bindgen, in
// ./estatekit_wasm_node.d.ts (the module built with the `auth` feature), and re-exported here;
// `Store` is estatekit/store's (./store.d.ts).
import type {
    AccessToken,
    AuthorizationCode,
    GrantOptions,
    PasswordCredentials,
    TokenProviderOptions,
    TokenReason,
    TokenSet,
} from "./estatekit_wasm_node.js";

export { ApiError, isApiError } from "./estatekit.js";
export type {
    AccessToken,
    ApiErrorKind,
    AuthorizationCode,
    GrantOptions,
    GrantType,
    PasswordCredentials,
    StoreOperation,
    TokenEvent,
    TokenProviderOptions,
    TokenReason,
    TokenSet,
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
     * may return, and what a route handler can hand a browser). The cached token while it is
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
 * `getToken`; invalid options make every `getToken` reject with an `ApiError` (`invalid_input`).
 */
export function createTokenProvider(options: TokenProviderOptions): TokenProvider;

/** Signs a user in with the password grant; rejects with an `ApiError` (a wrong password: `forbidden`, code `invalid_grant`). */
export function passwordGrant(options: GrantOptions, credentials: PasswordCredentials): Promise<TokenSet>;

/** A new access token for a refresh token; the set keeps that refresh token when the answer carries no new one. */
export function refreshGrant(options: GrantOptions, refreshToken: string): Promise<TokenSet>;

/** Exchanges the code of the sign-in dialog (`GET {baseUrl}/accounts/dialog/authorize`) for tokens. */
export function authorizationCodeGrant(options: GrantOptions, code: AuthorizationCode): Promise<TokenSet>;
