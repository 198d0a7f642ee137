//! estatekit's `web` part, the only code that sends requests: runs described requests
//! (gloo-net's fetch, XHR for upload progress), turns failures into JavaScript `ApiError`s and
//! exposes the `Client` class. Resource rules live in `crate::api` (estatekit-core); this layer
//! never knows them. A crate of its own so that it is compiled for size (opt-level "z") while
//! the module is linked at opt-level 3 (root Cargo.toml). For wasm32 only.
#![cfg(target_arch = "wasm32")]

pub use estatekit_core::{api, error, model};

mod answer;
#[cfg(feature = "auth")]
mod auth;
#[cfg(feature = "server")]
mod claim;
mod client;
mod events;
#[cfg(feature = "dom-emulation")]
mod form;
mod js;
mod js_error;
mod pipeline;
mod rate;
mod results;
mod token;
mod transport;

use wasm_bindgen::prelude::*;

/// `ApiError`: what every failed call rejects with, a union discriminated by `kind` (the class
/// itself is the package's `js/api_error.js`, declared with the wrapper's declarations).
#[wasm_bindgen(typescript_custom_section)]
const API_ERROR: &str = r#"
/** What every `ApiError` has, whatever its kind. */
export interface ApiErrorBase extends Error {
    readonly name: "ApiError";
    /** What went wrong: narrows the error to the fields its kind always has. */
    kind: ApiErrorKind;
    /** How many requests the call made. */
    attempts: number;
    /**
     * Whether a later identical call may succeed and is safe to make: never where a request that
     * is not idempotent (a registration, an upload) may have acted. When `attempts` is over 1,
     * estatekit already retried it.
     */
    retryable: boolean;
    /** The answer's `X-Request-Id` (for a support ticket), when an answer came with one. */
    requestId?: string;
    /** What failed underneath, as it was thrown: a failed `fetch`'s `TypeError`, an abort's reason, what a callback threw. */
    cause?: unknown;
    /** The HTTP status, on the kinds that come with an answer. */
    status?: number;
    /** The service's error `code`, when an answer's body had one. */
    code?: string;
    /** How long the service asked to wait before trying again (a 429's or 503's `Retry-After`), in milliseconds. */
    retryAfterMs?: number;
    /** The parsed error body (or a text excerpt); for `graphql`, the GraphQL `errors`. */
    details?: unknown;
    /** The error as plain data (`JSON.stringify` writes it); `ApiError.fromJSON` makes an `ApiError` of it again. */
    toJSON(): ApiErrorJSON;
}

/** The kinds of an `ApiError` that always come with an answer of the service (`status` set). */
export type AnsweredKind = "unauthorized" | "forbidden" | "not_found" | "rate_limited" | "http" | "graphql" | "decode";

/** An `ApiError` of a kind that comes with an answer: `status` is always there. */
export interface AnsweredApiError<K extends AnsweredKind = AnsweredKind> extends ApiErrorBase {
    kind: K;
    /** The answer's HTTP status (0 for a redirect, which is never followed and whose status a browser hides). */
    status: number;
}

/** HTTP 429: `retryAfterMs` when the service said how long to wait. */
export interface RateLimitedApiError extends AnsweredApiError<"rate_limited"> {}

/** The GraphQL answer carried `errors` (in `details`), maybe with partial `data`. */
export interface GraphqlApiError extends AnsweredApiError<"graphql"> {
    /** The GraphQL `errors` array, as sent (the token hidden). */
    details: unknown;
    /** Partial GraphQL `data` that came with the errors. */
    data?: unknown;
}

/** An `ApiError` of a kind that comes without an answer: no `status`. */
export interface UnansweredApiError<K extends Exclude<ApiErrorKind, AnsweredKind> = Exclude<ApiErrorKind, AnsweredKind>> extends ApiErrorBase {
    kind: K;
    status?: undefined;
}

/**
 * Every failure of a call: a real `Error` (with a stack) of the class `ApiError`, discriminated
 * by `kind` (`if (e.kind === "not_found") e.status` is a `number`).
 */
export type ApiError =
    | AnsweredApiError<"unauthorized" | "forbidden" | "not_found" | "http" | "decode">
    | RateLimitedApiError
    | GraphqlApiError
    | UnansweredApiError;

/** What `ApiError#toJSON` gives: plain data, `cause` as its text. */
export interface ApiErrorJSON {
    name: "ApiError";
    message: string;
    kind: ApiErrorKind;
    status?: number;
    code?: string;
    requestId?: string;
    retryAfterMs?: number;
    attempts: number;
    retryable: boolean;
    details?: unknown;
    data?: unknown;
    cause?: string;
}
"#;

/// The shared stores: `RateStore` and `RateLimitOptions` (whose `store` and `key` the client reads
/// itself, and `perMinute` through serde: model::client::RateLimitOptions), `WebhookClaimStore`
/// and `EnsureWebhookOptions` (`store`, read by the client itself, besides a call's options),
/// and the `store` event's unions. Each declared once, here.
#[wasm_bindgen(typescript_custom_section)]
const RATE_STORE: &str = r#"
/** What `rateLimit.store` needs of a store: estatekit/store's `Store` (e.g. `createRedisStore(redis)`) has it. */
export interface RateStore {
    /** Takes one from `perWindow` per `windowMs` under `key`: 0 when taken, else the milliseconds until there is room. */
    take(key: string, perWindow: number, windowMs: number): Promise<number>;
}

/** Client-side rate limit. */
export interface RateLimitOptions {
    /** Requests allowed per minute (the service allows 300). */
    perMinute: number;
    /**
     * A budget shared by several processes (estatekit/store's `createRedisStore(...)`): each attempt
     * first takes one from `perMinute` per minute under `key`. A store that fails or takes over
     * 1 s is left aside for 5 s, with this process's own window instead (event `store`).
     * Servers only (the `node` export condition: Node, Bun, Deno); a browser refuses it.
     */
    store?: RateStore;
    /** The budget's key in the store (default `rate:` and the base URL's origin; never the token). */
    key?: string;
}

/** What `ensureWebhook`'s `store` needs of a store: estatekit/store's `Store` (e.g. `createRedisStore(redis)`) has it. */
export interface WebhookClaimStore {
    /** Takes `key` if absent, for `ttlMs`: a new owner id when taken, null when another holds it. */
    claim(key: string, ttlMs: number): Promise<string | null>;
    /** Releases the claim `owner` holds (compare-and-delete). */
    release(key: string, owner: string): Promise<void>;
}

/**
 * The options of `ensureWebhook`: a call's options (its `timeoutMs` includes the wait for the
 * store's claim), and `store` (servers).
 */
export interface EnsureWebhookOptions extends CallOptions {
    /**
     * A store shared by every process that may call `ensureWebhook` for the same webhook
     * (estatekit/store's `createRedisStore(...)`): the call claims `webhook:<origin>:<type>:<url>`
     * (never the token), lists, registers when the list has none, and releases the claim;
     * other calls wait for the claim (within their timeout and signal) and list again. So N
     * processes register one webhook per (type, url). A store that fails or takes over 2 s
     * when asked for the claim rejects the call (kind `network`, nothing registered, event
     * `store` with purpose `webhook`): never a silent duplicate. Without it, two processes may
     * both register. Servers only (the `node` export condition: Node, Bun, Deno); a browser
     * refuses it.
     */
    store?: WebhookClaimStore;
}

/** What a shared store was asked for: the rate budget, or `ensureWebhook`'s claim (a token provider reports its store in its own `TokenEvent`s). */
export type StorePurpose = "rate" | "webhook";

/** How a shared store failed: no answer in time, or a rejection (or an unexpected answer). */
export type StoreFailure = "timeout" | "error";
"#;

pub use client::Client;
pub use js_error::is_api_error;
