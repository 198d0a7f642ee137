//! estatekit: a typed WebAssembly client for a property-management service's messages
//! (GraphQL), documents and webhooks.
//!
//! Layout: [`model`] (the service's types: serde + tsify), [`api`] (pure request building and
//! response checking, unit-tested natively), [`error`] (the one error type), and `web` (the
//! only code that sends requests; compiled for wasm32 only).

pub mod api;
pub mod error;
pub mod model;

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::{is_api_error, Client};

pub use error::{ApiErrorKind, Error};
