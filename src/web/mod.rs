//! The only code that touches the browser: runs described requests with `fetch`, turns
//! failures into JavaScript `ApiError`s and exposes the `Client` class. Resource rules live
//! in `crate::api`; this layer never knows them.

mod alloc;
mod client;
mod errors;
mod js;
mod shape;
mod transport;

use wasm_bindgen::prelude::*;

#[global_allocator]
static ALLOCATOR: alloc::SizeClasses = alloc::SizeClasses::new();

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT_DECLARATIONS: &str = crate::model::TYPESCRIPT_DECLARATIONS;

pub use client::Client;
pub use errors::is_api_error;
