//! estatekit's `web` part, the only code that sends requests: runs described requests
//! (gloo-net's fetch, XHR for upload progress), turns failures into JavaScript `ApiError`s and
//! exposes the `Client` class. Resource rules live in `crate::api` (estatekit-core); this layer
//! never knows them. A crate of its own so that it is compiled for size, apart from the checks and
//! the link (each crate's opt-level: the root Cargo.toml's profiles). For wasm32 only.
#![cfg(target_arch = "wasm32")]

pub use estatekit_core::{api, error, model};

mod answer;
mod api_error;
#[cfg(feature = "auth")]
mod auth;
mod call_events;
#[cfg(feature = "server")]
mod claim;
mod client;
#[cfg(feature = "dom-emulation")]
mod form;
mod input;
mod js;
mod pipeline;
mod rate;
mod results;
mod token;
mod transport;

use wasm_bindgen::prelude::*;

/// `ApiError`: what every failed call rejects with, a union discriminated by `kind` (the class
/// itself is the package's `js/api_error.js`, declared with the wrapper's declarations). The text
/// is generated from the error model (core/src/error.rs) by `make generate`.
#[wasm_bindgen(typescript_custom_section)]
const API_ERROR: &str = include_str!("api_error.d.ts");

/// The shared stores: `RateStore` and `RateLimitOptions` (whose `store` and `key` the client reads
/// itself, and `perMinute` through serde: model::options::RateLimitOptions), `WebhookClaimStore`
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

pub use api_error::is_api_error;
pub use client::Client;
