//! The only code that sends requests: runs described requests (gloo-net's fetch, XHR for
//! upload progress), turns failures into JavaScript `ApiError`s and exposes the `Client`
//! class. Resource rules live in `crate::api`; this layer never knows them.

mod answer;
#[cfg(feature = "auth")]
mod auth;
mod client;
mod errors;
mod events;
#[cfg(feature = "dom-emulation")]
mod form;
mod js;
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

pub use client::Client;
pub use errors::is_api_error;
