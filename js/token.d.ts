// The declarations of estatekit/token (browsers): the page's side of estatekit/auth's
// createTokenRoute.
import type { TokenReason } from "./estatekit.js";

export type { TokenReason } from "./estatekit.js";

/** Options of {@link createSessionToken}. */
export interface SessionTokenOptions {
    /** The token route's path on the page's own origin, e.g. `/api/estate-token` (a path: never another origin). */
    url: string;
    /** Sends the route's request instead of the global `fetch`. */
    fetch?: (input: string, init: RequestInit) => Promise<Response>;
    /** The BroadcastChannel name by which `clear()` reaches the page's other tabs (default `estatekit-token`). */
    channel?: string;
}

/** The signed-in staff member's token, asked of the app's token route. */
export interface SessionToken {
    /**
     * The route's `{ token, expiresAt }`: give it to the Client, `new Client({ baseUrl, getToken:
     * session.getToken })`, which keeps it in memory, renews it before `expiresAt` and asks once
     * for many calls. May be passed around unbound. Rejects with the sign-in-required `ApiError`
     * (kind `unauthorized`, status 401, `signInRequired: true`: see {@link isSignInRequired}) when
     * the route answers 401, or when `clear()` ran while the token was on its way; with what
     * `fetch` threw when the route could not be reached; with an `Error` naming the status for
     * any other answer.
     */
    getToken(reason?: TokenReason): Promise<{ token: string; expiresAt: number }>;
    /**
     * Sign-out: tells this tab's and the page's other tabs' `onClear` listeners (through a
     * BroadcastChannel), which drop what holds the token (free the Client, clear the query cache).
     * A token still on its way is not handed out. Call it when the user signs out, beside the
     * app's own sign-out (which ends the session the route reads).
     */
    clear(): void;
    /** Calls `listener` at each `clear()`, in this tab or another; returns the function that stops it. */
    onClear(listener: () => void): () => void;
}

/**
 * The browser's token from the app's token route (estatekit/auth's `createTokenRoute`): a POST to
 * `url` with the page's own cookies, never cached, the token kept in memory only (never in
 * storage). `createSessionToken("/api/estate-token")` is the same as `{ url }`. Throws an
 * `ApiError` (`invalid_input`) at once for a `url` that is not a path.
 */
export function createSessionToken(options: SessionTokenOptions | string): SessionToken;

/**
 * Whether `e` is the sign-in-required `ApiError` (`signInRequired: true`), or a Client call's
 * `ApiError` caused by one (the Client's error of a `getToken` that rejected with it): show
 * the sign-in.
 */
export function isSignInRequired(e: unknown): boolean;
