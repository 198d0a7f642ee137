//! estatekit: a typed WebAssembly client for a property-management service's messages
//! (GraphQL), documents and webhooks.
//!
//! Layout: [`model`] (the service's types: serde, and tsify in the module), [`api`] (pure
//! request building and response checking, unit-tested natively) and [`error`] (the one error
//! type) live in the `estatekit-core` crate (core/); `web` (the only code that sends requests;
//! wasm32 only) in the `estatekit-web` crate (web/). This crate is the module both are linked into.

pub use estatekit_core::{api, error, model};

#[cfg(target_arch = "wasm32")]
pub use estatekit_web::{is_api_error, Client};

pub use error::{ApiErrorKind, Error};
