//! estatekit: a typed WebAssembly client for a property-management service's messages
//! (GraphQL), documents and webhooks.
//!
//! Layout: [`model`] (the service's types: serde + tsify), [`api`] (pure request building and
//! response checking, unit-tested natively) and [`error`] (the one error type) live in the
//! `estatekit-core` crate (core/); `web` (the only code that sends requests; compiled for wasm32
//! only) is here.

pub use estatekit_core::{api, error, model};

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::{is_api_error, Client};

pub use error::{ApiErrorKind, Error};
