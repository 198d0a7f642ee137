//! An HTTP answer as the transport got it (status, headers read on demand, the body as the
//! browser's string), and what is read from it: JSON, the retry wait, the failure of a non-2xx.
//! The body and headers are what the service sent; the token the request carried is hidden in
//! the failures made from them (their messages, `details` and `data`), never in the answer.

use super::api_error::Failure;
use super::js;
use crate::api::check::not_json;
use crate::api::status::{self, ErrorBody, ResponseHead};
use crate::error::{redact, Error};
use js_sys::JsString;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use web_sys::XmlHttpRequest;

/// Where an answer's headers are read from. They are read when something needs one (a retry
/// wait, the rate window, an event, a registration's `Location`): most calls read none.
pub(super) enum Headers {
    /// gloo-net's view of a `fetch` answer's headers.
    Fetch(gloo_net::http::Headers),
    /// The `XMLHttpRequest` that got the answer.
    Xhr(XmlHttpRequest),
}

impl Headers {
    fn get(&self, name: &str) -> Option<String> {
        match self {
            Headers::Fetch(headers) => headers.get(name),
            Headers::Xhr(xhr) => xhr.get_response_header(name).ok().flatten(),
        }
    }
}

/// An HTTP answer (any status).
pub struct Answer {
    /// What the call was doing.
    pub operation: &'static str,
    /// HTTP status.
    pub status: u16,
    pub(super) headers: Headers,
    /// The token the request carried, hidden in the failures made from this answer.
    pub(super) token: Rc<str>,
    /// The body as the browser's string, as sent; `None` when it is not UTF-8.
    pub body: Option<JsString>,
    /// The body's `ArrayBuffer`, as sent.
    pub(super) bytes: JsValue,
    /// Requests made to get this answer.
    pub attempts: u32,
    /// When the request was sent (`Date.now()` ms): a token set's expiry counts from it.
    #[cfg(feature = "auth")]
    pub sent_at: f64,
}

impl Answer {
    /// A header's value as sent, if readable (CORS may hide it).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name)
    }

    /// A header's value for what estatekit writes about the call (an event), the token hidden.
    pub fn header_redacted(&self, name: &str) -> Option<String> {
        self.header(name).map(|value| redact(value, &self.token))
    }

    /// Whether the status is 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// A failure carrying this answer's attempt count and `X-Request-Id`, the token hidden in
    /// its message.
    pub fn fail(&self, error: Error) -> Failure {
        let mut failure = Failure::from(error.redacted(&self.token)).after(self.attempts);
        failure.call.request_id = self.header_redacted("x-request-id");
        failure
    }

    /// A parsed part of this answer (body, GraphQL `errors` or `data`) as an error's `details`
    /// or `data`: the token hidden in every string and key.
    pub fn for_error(&self, value: JsValue) -> JsValue {
        js::redact_value(value, &self.token)
    }

    /// The body parsed by the browser's `JSON.parse`, or a `decode` failure that quotes the
    /// start of the body.
    pub fn json(&self) -> Result<JsValue, Failure> {
        let Some(text) = &self.body else {
            return Err(self.fail(not_json(self.operation, self.status, None)));
        };
        js::parse_json(text).map_err(|_| {
            self.fail(not_json(
                self.operation,
                self.status,
                Some(&excerpt(text, 200)),
            ))
        })
    }

    /// The body's bytes, copied into WebAssembly memory for the check (the copy is the
    /// caller's to drop as soon as it is read).
    pub fn bytes(&self) -> Vec<u8> {
        js_sys::Uint8Array::new(&self.bytes).to_vec()
    }

    /// How long the answer asks to wait before trying again, in milliseconds.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.with_head(|head| status::retry_after_ms(head, js::now_ms()))
    }

    /// Reads what [`response`] needs of the answer besides its body (status, `Retry-After`,
    /// `X-RateLimit-Reset`) and hands it to `f`.
    fn with_head<R>(&self, f: impl FnOnce(&ResponseHead<'_>) -> R) -> R {
        let (retry_after, reset) = (self.header("retry-after"), self.header("x-ratelimit-reset"));
        f(&ResponseHead {
            status: self.status,
            retry_after: retry_after.as_deref(),
            rate_limit_reset: reset.as_deref(),
        })
    }

    /// The failure for a non-2xx answer: status, the service's `code`/`message`, and the
    /// parsed body (or a text excerpt) as `details`.
    pub fn status_failure(&self) -> Failure {
        let (body, details) = match &self.body {
            Some(text) if text.length() > 0 => match js::parse_json(text) {
                Ok(value) => (
                    Some(ErrorBody::from_answer(&self.bytes())),
                    Some(self.for_error(value)),
                ),
                Err(_) => (
                    None,
                    Some(JsValue::from(redact(excerpt(text, 2000), &self.token))),
                ),
            },
            _ => (None, None),
        };
        let error =
            self.with_head(|head| status::status_error(self.operation, head, body, js::now_ms()));
        self.fail(error).with_details(details)
    }
}

/// The start of a body, at most `max` characters (with an ellipsis when cut), copied into a
/// Rust string for an error message.
fn excerpt(text: &JsString, max: u32) -> String {
    // A character is at most two UTF-16 units: 2 * max + 1 units always hold `max` of them.
    let head: String = text.slice(0, 2 * max + 1).into();
    crate::error::limit(&head, max as usize)
}
