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
mod checks;
mod client;
mod errors;
mod events;
#[cfg(feature = "dom-emulation")]
mod form;
mod js;
mod pipeline;
mod rate;
mod token;
mod transport;

use wasm_bindgen::prelude::*;

/// `ApiError`: what every failed call rejects with.
#[wasm_bindgen(typescript_custom_section)]
const API_ERROR: &str = r#"
/** Every failure of a call: a real `Error` (with a stack) named `ApiError`. */
export interface ApiError extends Error, ApiErrorInfo {
    name: "ApiError";
}
"#;

/// The shared rate budget: `RateStore`, the two fields of `RateLimitOptions` that the client
/// reads itself (merged into tsify's interface of that name), and the `store` event's unions.
#[wasm_bindgen(typescript_custom_section)]
const RATE_STORE: &str = r#"
/** What `rateLimit.store` needs of a store: estatekit/store's `Store` (e.g. `redisStore(redis)`) has it. */
export interface RateStore {
    /** Takes one from `limit` per `windowMs` under `key`: 0 when taken, else the milliseconds until there is room. */
    take(key: string, limit: number, windowMs: number): Promise<number>;
}

export interface RateLimitOptions {
    /**
     * A budget shared by several processes (estatekit/store's `redisStore(...)`): each attempt
     * first takes one from `perMinute` per minute under `key`. A store that fails or takes over
     * 1 s is left aside for 5 s, with this process's own window instead (event `store`).
     * Servers only (the `node` export condition: Node, Bun, Deno); a browser refuses it.
     */
    store?: RateStore;
    /** The budget's key in the store (default `rate:` and the base URL's origin; never the token). */
    key?: string;
}

/** What a shared store was asked for: the rate budget (a token provider reports its store in its own `TokenEvent`s). */
export type StorePurpose = "rate";

/** How a shared store failed: no answer in time, or a rejection (or an unexpected answer). */
export type StoreFailure = "timeout" | "error";
"#;

pub use client::Client;
pub use errors::is_api_error;
