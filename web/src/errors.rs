//! JavaScript `ApiError` objects: real `Error`s (with a stack) named `ApiError` that carry the
//! fields of [`ApiErrorInfo`].

use super::js;
use crate::error::{ApiErrorInfo, Error};
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

    /// The same failure with `attempts` set.
    pub fn after(mut self, attempts: u32) -> Self {
        self.attempts = attempts;
        self
    }

    /// What the `ApiError` carries besides its message.
    pub fn info(&self) -> ApiErrorInfo {
        ApiErrorInfo {
            kind: self.error.kind(),
            status: self.error.status(),
            code: self.error.code().map(str::to_owned),
            details: self.details.clone().unwrap_or(JsValue::UNDEFINED),
            data: self.data.clone().unwrap_or(JsValue::UNDEFINED),
            retry_after_ms: self.error.retry_after_ms().map(|ms| ms as f64),
            attempts: self.attempts,
            retryable: self.error.retryable(),
        }
    }

    /// The JavaScript `ApiError`.
    pub fn into_js(self) -> JsValue {
        let error = js_sys::Error::new(&self.error.to_string());
        error.set_name("ApiError");
        let fields: js_sys::Object = js::to_js(&self.info()).unchecked_into();
        let target: &js_sys::Object = error.unchecked_ref();
        js_sys::Object::assign(target, &fields);
        error.into()
    }
}

/// Whether `e` is an error thrown by estatekit. (The package's `isApiError` is the same check
/// in JavaScript, usable before the module is loaded.)
pub fn is_api_error(e: &JsValue) -> bool {
    e.is_instance_of::<js_sys::Error>()
        && js::get(e, "name").as_string().as_deref() == Some("ApiError")
        && js::get(e, "kind").is_string()
}
