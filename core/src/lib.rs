//! estatekit's pure part: the service's types ([`model`], serde + tsify), request building and
//! the answers' checks ([`api`], unit-tested natively) and the one error type ([`error`]). No
//! I/O: the `estatekit` crate's `web` module sends every request. A crate of its own so that the
//! checks, which read up to megabytes per call, are compiled for speed while the rest of the
//! module is compiled for size.

pub mod api;
pub mod error;
pub mod model;

pub use error::{ApiErrorKind, Error};
