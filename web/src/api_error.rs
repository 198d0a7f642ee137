//! JavaScript `ApiError` objects, made by the one `ApiError` class of the package
//! (`js/api_error.js`, imported through its binding below): real `Error`s (with a stack) that
//! carry the fields of [`ApiErrorInfo`] (core's `ERROR_FIELDS`) and, as ES2022 `cause`, what failed underneath.

use super::js;
use crate::error::{ApiErrorInfo, CallFields, Error, Resend};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/../js/api_error.js")]
extern "C" {
    /// The package's `ApiError` class.
    #[wasm_bindgen(js_name = ApiError)]
    type JsApiError;

    /// `new ApiError(init)`: `init` holds the message, the fields and the cause.
    #[wasm_bindgen(constructor, js_class = ApiError)]
    fn new(init: &JsValue) -> JsApiError;
}

/// A failed call: the error plus what only JavaScript can hold.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong (the `ApiError`'s fields made from it: `kind`, `status`, `code`...).
    pub error: Error,
    /// The `ApiError`'s fields the call sets (`attempts`, `requestId`, `details`, `data`:
    /// declared with the others, in core's `ERROR_FIELDS`).
    pub call: CallFields,
    /// What was thrown or rejected underneath (a failed `fetch`'s `TypeError`, the abort
    /// reason, what a caller's callback threw), whole.
    pub cause: Option<JsValue>,
    /// What to do, where the outcome of a request that is not idempotent is unknown (the
    /// failure is then not `retryable`).
    pub unknown_outcome: Option<&'static str>,
    /// How the failed operation may be sent again (what `retryable` is a function of).
    pub resend: Resend,
    /// The platform proved the request was never sent (a refused connection, an unknown host:
    /// `UNSENT_CODES`): its outcome is known, even without an answer.
    pub unsent: bool,
    /// What the failure means, ending its message (nothing was sent, an upload's connection
    /// reset, a base URL's own path before a 404).
    pub note: Option<String>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            call: CallFields::default(),
            cause: None,
            unknown_outcome: None,
            resend: Resend::Idempotent,
            unsent: false,
            note: None,
        }
    }
}

impl Failure {
    /// The same failure with `details` set.
    pub fn with_details(mut self, details: Option<JsValue>) -> Self {
        self.call.details = details.unwrap_or(JsValue::UNDEFINED);
        self
    }

    /// The same failure with `attempts` set.
    pub fn after(mut self, attempts: u32) -> Self {
        self.call.attempts = attempts;
        self
    }

    /// The same failure with `cause` set.
    pub fn caused_by(mut self, cause: JsValue) -> Self {
        self.cause = Some(cause);
        self
    }

    /// The same failure of an operation of class `resend`.
    pub fn of(mut self, resend: Resend) -> Self {
        self.resend = resend;
        self
    }

    /// The same failure, not `retryable` because the request may have acted: `what_to_do`
    /// ends its message.
    pub fn outcome_unknown(mut self, what_to_do: &'static str) -> Self {
        self.unknown_outcome = Some(what_to_do);
        self
    }

    /// What the `ApiError` carries besides its message.
    pub fn info(&self) -> ApiErrorInfo {
        let retryable = self
            .error
            .retryable(self.resend, self.unknown_outcome.is_none());
        ApiErrorInfo::new(&self.error, &self.call, retryable)
    }

    /// The message JavaScript sees.
    pub fn message(&self) -> String {
        let mut message = self.error.to_string();
        if let Some(note) = &self.note {
            message.push_str(": ");
            message.push_str(note);
        }
        if let Some(what_to_do) = self.unknown_outcome {
            message.push_str("; ");
            message.push_str(what_to_do);
        }
        message
    }

    /// The JavaScript `ApiError`, made by the package's class.
    pub fn into_js(self) -> JsValue {
        let init = js::to_js(&self.info());
        js::set(&init, "message", &JsValue::from(self.message()));
        if let Some(cause) = &self.cause {
            js::set(&init, "cause", cause);
        }
        JsApiError::new(&init).into()
    }
}

/// Whether `e` is an error thrown by estatekit. (The package's `isApiError` is the same check
/// in JavaScript, usable before the module is loaded.)
pub fn is_api_error(e: &JsValue) -> bool {
    e.is_instance_of::<js_sys::Error>()
        && js::get(e, "name").as_string().as_deref() == Some("ApiError")
        && js::get(e, "kind").is_string()
}
