//! The only code that sends requests: runs described requests (gloo-net's fetch, XHR for
//! upload progress), turns failures into JavaScript `ApiError`s and exposes the `Client`
//! class. Resource rules live in `crate::api`; this layer never knows them.

mod answer;
mod client;
mod errors;
mod events;
#[cfg(feature = "dom-emulation")]
mod form;
mod js;
mod rate;
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

/// `RateStore`: what `rateLimit.store` needs.
#[wasm_bindgen(typescript_custom_section)]
const RATE_STORE: &str = r#"
/** What `rateLimit.store` needs of a store: estatekit/store's `Store` (e.g. `redisStore(redis)`) has it. */
export interface RateStore {
    /** Takes one from `limit` per `windowMs` under `key`: 0 when taken, else the milliseconds until there is room. */
    take(key: string, limit: number, windowMs: number): Promise<number>;
}
"#;

pub use client::Client;
pub use errors::is_api_error;
