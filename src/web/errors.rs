//! JavaScript `ApiError` objects: real `Error`s (with a stack) named `ApiError` that carry
//! `kind`, `status`, `code`, `details`, `data`, `retryAfterMs` and `attempts`.

use super::js;
use crate::error::Error;
use wasm_bindgen::prelude::*;

/// A failed call: the error plus what only JavaScript can hold.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong.
    pub error: Error,
    /// Parsed error body, GraphQL `errors`, or a text excerpt.
    pub details: Option<JsValue>,
    /// Partial GraphQL `data`.
    pub data: Option<JsValue>,
    /// Requests made by the call.
    pub attempts: u32,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            details: None,
            data: None,
            attempts: 0,
        }
    }
}

impl Failure {
    /// The same failure with `details` set.
    pub fn with_details(mut self, details: Option<JsValue>) -> Self {
        self.details = details;
        self
    }

    /// The JavaScript `ApiError`.
    pub fn into_js(self) -> JsValue {
        let e = js_sys::Error::new(&self.error.message());
        e.set_name("ApiError");
        let obj: &JsValue = e.as_ref();
        js::set(obj, "kind", &JsValue::from_str(self.error.kind().as_str()));
        if let Some(status) = self.error.status() {
            js::set(obj, "status", &JsValue::from(status));
        }
        if let Some(code) = self.error.code() {
            js::set(obj, "code", &JsValue::from_str(code));
        }
        if let Some(details) = &self.details {
            js::set(obj, "details", details);
        }
        if let Some(data) = &self.data {
            js::set(obj, "data", data);
        }
        if let Some(ms) = self.error.retry_after_ms() {
            js::set(obj, "retryAfterMs", &JsValue::from(ms as f64));
        }
        js::set(obj, "attempts", &JsValue::from(self.attempts));
        e.into()
    }
}

/// Whether `e` is an error thrown by estatekit (a type guard in TypeScript).
#[wasm_bindgen(js_name = isApiError, unchecked_return_type = "e is ApiError")]
pub fn is_api_error(#[wasm_bindgen(unchecked_param_type = "unknown")] e: &JsValue) -> bool {
    e.is_instance_of::<js_sys::Error>()
        && js::get(e, "name").as_string().as_deref() == Some("ApiError")
        && js::get(e, "kind").is_string()
}
