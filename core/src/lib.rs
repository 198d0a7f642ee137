//! estatekit's pure part: the service's types ([`model`], serde + tsify), request building and
//! the answers' checks ([`api`], unit-tested natively) and the one error type ([`error`]). No
//! I/O: the `estatekit-web` crate sends every request.
//!
//! Not free of JavaScript crates, on purpose: each type is declared once, with its TypeScript
//! declaration derived by tsify (which needs wasm-bindgen) and, for the few fields that hold a
//! caller's JavaScript value as is (callbacks, signals, an error's `details`), a
//! serde-wasm-bindgen `JsValue`; on wasm32, web-sys's `URL` parses URLs (natively, the `url`
//! crate does). Nothing here calls JavaScript at run time in a native build: the unit tests
//! run natively. A crate of its own so that the checks, which read up to megabytes per call,
//! are compiled at a level of their own, apart from the size-compiled web part (each crate's
//! opt-level: the root Cargo.toml's profiles).

pub mod api;
pub mod error;
pub mod model;

pub use error::{ApiErrorKind, Error};
