//! estatekit's pure part: the service's types ([`model`], serde), request building and the
//! answers' checks ([`api`], unit-tested natively) and the one error type ([`error`]). No I/O:
//! the `estatekit-web` crate sends every request.
//!
//! By default free of JavaScript crates. The `js` feature (enabled by `estatekit-web`) adds the
//! JavaScript side of the same types, so that each is still declared once: its TypeScript
//! declaration derived by tsify, the fields that hold a caller's JavaScript value as is
//! (callbacks, signals, an upload's `Blob`, an error's `details`: [`model::JsHandle`],
//! serde-wasm-bindgen), and on wasm32 the browser's `URL`, `Date.parse` and `Number` as the
//! platform's parsers ([`api::platform`]). A crate of its own so that the checks, which read up
//! to megabytes per call, are compiled at a level of their own, apart from the size-compiled web
//! part (each crate's opt-level: the root Cargo.toml's profiles).

pub mod api;
pub mod error;
pub mod model;
#[cfg(feature = "schema")]
pub mod openapi;

pub use error::{ApiErrorKind, Error};
