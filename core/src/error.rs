//! The one error type of estatekit.
//!
//! Variants say *where* a call failed: before sending (`InvalidInput`), on the way
//! (`Network`, `Timeout`, `Aborted`), at the service (`Status`, `Graphql`, `Redirected`) or while
//! reading its answer (`Decode`). The browser layer turns an [`Error`] into a JavaScript
//! `ApiError` carrying [`ApiErrorInfo`].
//!
//! No variant ever holds the bearer token: requests are described without it, and what an error
//! quotes of an answer (the service's `code` and `message`, GraphQL messages, decode reasons,
//! excerpts) goes through [`Error::redacted`] (see `web::answer`). Answers themselves are
//! returned exactly as sent: redaction applies to what estatekit writes about a call.

use serde::{Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::JsValue;

/// What went wrong, in `ApiError.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorKind {
    /// The call was rejected before anything was sent; the message names the field.
    InvalidInput,
    /// HTTP 401.
    Unauthorized,
    /// HTTP 403.
    Forbidden,
    /// HTTP 404.
    NotFound,
    /// HTTP 429.
    RateLimited,
    /// Any other non-2xx status, and redirects (never followed).
    Http,
    /// The GraphQL answer carried `errors`.
    Graphql,
    /// The request never got an HTTP answer.
    Network,
    /// The call took longer than its timeout and was aborted.
    Timeout,
    /// The caller aborted the call through its `AbortSignal`.
    Aborted,
    /// A 2xx answer whose body is not what the interface describes.
    Decode,
    /// The client was freed (`free()`, or the end of a `using` block) before this call: a
    /// mistake in the app's code, not the user's; the message says what to do.
    Freed,
    /// A function the caller gave estatekit (its `fetch` option) threw an error of the program
    /// itself (`RangeError`, `ReferenceError`, `SyntaxError`, ...): a bug in that function, not a
    /// network failure. Never retried; `cause` is what it threw.
    CallerError,
}

/// Everything that can go wrong in a call; `Display` is the message JavaScript sees.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// The caller's input was rejected before sending; `field` names the offending input.
    #[error("invalid {field}: {reason}")]
    InvalidInput {
        /// Path of the offending input, e.g. `filter.candidateId` or `options.baseUrl`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The service answered with a non-2xx status.
    #[error("{operation} failed: {}{}", status_text(*.status), service_detail(.code, .message))]
    Status {
        /// What the call was doing, e.g. `list webhooks`.
        operation: &'static str,
        /// The HTTP status.
        status: u16,
        /// The service's `code` field, when the body had one.
        code: Option<String>,
        /// The service's `message` field, when the body had one.
        message: Option<String>,
        /// How long the service asked us to wait (429/503), in milliseconds.
        retry_after_ms: Option<u64>,
    },
    /// The GraphQL answer carried an `errors` array.
    #[error("{operation} failed: the service returned GraphQL errors: {}", .messages.join("; "))]
    Graphql {
        /// What the call was doing.
        operation: &'static str,
        /// The `message` of each error (at most five).
        messages: Vec<String>,
        /// HTTP status of the answer (usually 200).
        status: u16,
    },
    /// The service answered with a redirect, which API calls never follow (the token must not
    /// reach another address).
    #[error(
        "{operation} failed: the service answered with a redirect, which is not followed so that \
         the token never reaches another address"
    )]
    Redirected {
        /// What the call was doing.
        operation: &'static str,
    },
    /// No HTTP answer: connection refused, DNS failure, CORS refusal, dropped connection.
    #[error("{operation} failed: network error reaching {host} ({reason})")]
    Network {
        /// What the call was doing.
        operation: &'static str,
        /// The host (and port) the request was sent to.
        host: String,
        /// What the browser reported.
        reason: String,
    },
    /// The caller's own `fetch` threw an error of the program (see
    /// [`ApiErrorKind::CallerError`]).
    #[error(
        "{operation} failed: the `fetch` option threw {reason}: a bug in that function (not a \
         network failure), so the request was not retried"
    )]
    CallerFetch {
        /// What the call was doing.
        operation: &'static str,
        /// What it threw (`RangeError: ...`).
        reason: String,
    },
    /// The call exceeded its timeout and was aborted.
    #[error("{operation} timed out after {timeout_ms} ms")]
    Timeout {
        /// What the call was doing.
        operation: &'static str,
        /// The timeout that expired.
        timeout_ms: u32,
    },
    /// The caller aborted the call.
    #[error("{operation} was aborted by the caller")]
    Aborted {
        /// What the call was doing.
        operation: &'static str,
    },
    /// A 2xx answer whose body does not match the interface.
    #[error("{operation} failed: unexpected response from the service (HTTP {status}): {reason}")]
    Decode {
        /// What the call was doing.
        operation: &'static str,
        /// HTTP status of the answer.
        status: u16,
        /// What did not match, with the JSON path where known.
        reason: String,
    },
}

fn status_text(status: u16) -> String {
    match status {
        401 => "the token was rejected (HTTP 401 unauthorized)".into(),
        403 => "the token is not allowed to do this (HTTP 403 forbidden)".into(),
        404 => "not found (HTTP 404)".into(),
        429 => "too many requests (HTTP 429 rate limited)".into(),
        _ => format!("the service answered HTTP {status}"),
    }
}

fn service_detail(code: &Option<String>, message: &Option<String>) -> String {
    match (code, message) {
        (Some(c), Some(m)) => format!(" [{c}: {m}]"),
        (Some(one), None) | (None, Some(one)) => format!(" [{one}]"),
        (None, None) => String::new(),
    }
}

impl Error {
    /// Shorthand for an [`Error::InvalidInput`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The JavaScript-visible kind of this error.
    pub fn kind(&self) -> ApiErrorKind {
        match self {
            Error::InvalidInput { .. } => ApiErrorKind::InvalidInput,
            Error::Status { status, .. } => match status {
                401 => ApiErrorKind::Unauthorized,
                403 => ApiErrorKind::Forbidden,
                404 => ApiErrorKind::NotFound,
                429 => ApiErrorKind::RateLimited,
                _ => ApiErrorKind::Http,
            },
            Error::Graphql { .. } => ApiErrorKind::Graphql,
            Error::Redirected { .. } => ApiErrorKind::Http,
            Error::Network { .. } => ApiErrorKind::Network,
            Error::CallerFetch { .. } => ApiErrorKind::CallerError,
            Error::Timeout { .. } => ApiErrorKind::Timeout,
            Error::Aborted { .. } => ApiErrorKind::Aborted,
            Error::Decode { .. } => ApiErrorKind::Decode,
        }
    }

    /// The HTTP status, when the service answered (0 for a redirect: never followed, and a
    /// browser hides its status).
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Status { status, .. }
            | Error::Graphql { status, .. }
            | Error::Decode { status, .. } => Some(*status),
            Error::Redirected { .. } => Some(0),
            _ => None,
        }
    }

    /// The service's error `code`, when its body carried one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Status { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// Whether a later identical call may succeed: no answer (network), a timeout, HTTP 429 or
    /// a 5xx. Never for other 4xx, redirects, decode errors, aborted calls or invalid input.
    pub fn retryable(&self) -> bool {
        match self {
            Error::Network { .. } | Error::Timeout { .. } => true,
            Error::Status { status, .. } | Error::Graphql { status, .. } => {
                *status == 429 || *status >= 500
            }
            _ => false,
        }
    }

    /// How long the service asked us to wait before trying again, in milliseconds.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            Error::Status { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }

    /// The same error with `token` hidden in every text it took from an answer (a service echoing
    /// the token is the only way it could be there; a network failure's reason is hidden where
    /// the transport reads it).
    pub fn redacted(self, token: &str) -> Error {
        let hide = |text: String| redact(text, token);
        match self {
            Error::Status {
                operation,
                status,
                code,
                message,
                retry_after_ms,
            } => Error::Status {
                operation,
                status,
                code: code.map(hide),
                message: message.map(hide),
                retry_after_ms,
            },
            Error::Graphql {
                operation,
                messages,
                status,
            } => Error::Graphql {
                operation,
                messages: messages.into_iter().map(hide).collect(),
                status,
            },
            Error::Decode {
                operation,
                status,
                reason,
            } => Error::Decode {
                operation,
                status,
                reason: hide(reason),
            },
            other => other,
        }
    }
}

/// `s` cut to at most `max` characters (with an ellipsis when cut).
pub fn limit(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or("")),
        None => s.to_owned(),
    }
}

/// What replaces the token in what estatekit writes about a call.
pub const REDACTED: &str = "[redacted]";

/// `text` with every occurrence of `token` replaced by [`REDACTED`], and so is the start of the
/// token where a text was cut short within it ([`limit`] ends a cut with `…`).
pub fn redact(text: String, token: &str) -> String {
    if token.is_empty() {
        return text;
    }
    let mut text = if text.contains(token) {
        text.replace(token, REDACTED)
    } else {
        text
    };
    // A start of the token right before a cut's `…`, the longest first.
    for start in (1..token.len()).rev().filter_map(|k| token.get(..k)) {
        let mut cut = start.to_owned();
        cut.push('…');
        if text.contains(cut.as_str()) {
            text = text.replace(cut.as_str(), "[redacted]…");
        }
    }
    text
}

/// What an `ApiError` carries besides `name` and `message` (set on a real JavaScript `Error`,
/// so it has a stack). Internal: serialized for the `ApiError` constructor (web/src/js_error.rs),
/// without a TypeScript declaration of its own (the public types of an `ApiError`'s fields are
/// web/src/lib.rs's `ApiErrorBase` and `ApiErrorJSON`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorInfo {
    /// What went wrong.
    pub kind: ApiErrorKind,
    /// HTTP status, when the service answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The service's error `code`, when its body had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The parsed error body, the GraphQL `errors`, or a text excerpt.
    #[serde(
        default,
        with = "serde_wasm_bindgen::preserve",
        skip_serializing_if = "JsValue::is_undefined"
    )]
    pub details: JsValue,
    /// Partial GraphQL `data` that came with `errors`.
    #[serde(
        default,
        with = "serde_wasm_bindgen::preserve",
        skip_serializing_if = "JsValue::is_undefined"
    )]
    pub data: JsValue,
    /// How long the service asked to wait before trying again (kind `rate_limited`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<f64>,
    /// How many requests the call made.
    pub attempts: u32,
    /// Whether a later identical call may succeed (network, timeout, 429, 5xx), and is safe to
    /// make: never where a request that is not idempotent (a registration, an upload) may have
    /// reached the service. When `attempts` is over 1, estatekit already retried it.
    pub retryable: bool,
    /// The answer's `X-Request-Id` (for a support ticket), when the failure came with an answer
    /// that had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, code: Option<&str>) -> Error {
        Error::Status {
            operation: "list webhooks",
            status,
            code: code.map(Into::into),
            message: None,
            retry_after_ms: None,
        }
    }

    #[test]
    fn kinds_follow_status() {
        assert_eq!(status(401, None).kind(), ApiErrorKind::Unauthorized);
        assert_eq!(status(403, None).kind(), ApiErrorKind::Forbidden);
        assert_eq!(status(404, None).kind(), ApiErrorKind::NotFound);
        assert_eq!(status(429, None).kind(), ApiErrorKind::RateLimited);
        assert_eq!(status(500, None).kind(), ApiErrorKind::Http);
        assert_eq!(status(302, None).kind(), ApiErrorKind::Http);
        assert_eq!(status(500, None).status(), Some(500));
    }

    #[test]
    fn retryable_where_a_later_identical_call_may_succeed() {
        for code in [429, 500, 502, 503, 504] {
            assert!(status(code, None).retryable(), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 413, 422, 302] {
            assert!(!status(code, None).retryable(), "{code}");
        }
        let operation = "list webhooks";
        let network = Error::Network {
            operation,
            host: "acme.example.com".into(),
            reason: "refused".into(),
        };
        assert_eq!(
            network.to_string(),
            "list webhooks failed: network error reaching acme.example.com (refused)"
        );
        let caller = Error::CallerFetch {
            operation,
            reason: "RangeError: x".into(),
        };
        assert!(!caller.retryable());
        assert_eq!(caller.kind(), ApiErrorKind::CallerError);
        assert!(network.retryable());
        let timeout = Error::Timeout {
            operation,
            timeout_ms: 10,
        };
        assert!(timeout.retryable());
        assert!(!Error::Aborted { operation }.retryable());
        assert!(!Error::Redirected { operation }.retryable());
        assert!(!Error::invalid("options.baseUrl", "must not be empty").retryable());
        let decode = Error::Decode {
            operation,
            status: 200,
            reason: "x".into(),
        };
        assert!(!decode.retryable());
        let graphql = |status| Error::Graphql {
            operation,
            messages: vec![],
            status,
        };
        assert!(!graphql(200).retryable());
        assert!(graphql(503).retryable());
    }

    #[test]
    fn messages_are_clear() {
        assert_eq!(
            status(403, Some("server_error")).to_string(),
            "list webhooks failed: the token is not allowed to do this (HTTP 403 forbidden) [server_error]"
        );
        assert_eq!(
            status(502, None).to_string(),
            "list webhooks failed: the service answered HTTP 502"
        );
        assert_eq!(
            Error::invalid(
                "filter",
                "give at least one of candidateId, contactId, listingId"
            )
            .to_string(),
            "invalid filter: give at least one of candidateId, contactId, listingId"
        );
        let kind = serde_json::to_value(ApiErrorKind::RateLimited).unwrap();
        assert_eq!(kind, "rate_limited");
    }

    #[test]
    fn redaction_hides_the_token_in_what_came_from_the_answer_only() {
        let error = Error::Status {
            operation: "list webhooks",
            status: 403,
            code: Some("tok-t".into()),
            message: Some("bad key tok".into()),
            retry_after_ms: None,
        }
        .redacted("tok");
        assert_eq!(
            error.to_string(),
            "list webhooks failed: the token is not allowed to do this (HTTP 403 forbidden) [[redacted]-t: bad key [redacted]]"
        );
        let decode = Error::Decode {
            operation: "get document",
            status: 200,
            reason: "invalid type at `t`".into(),
        }
        .redacted("t");
        // The operation's own words are not the answer's: only the reason is searched.
        assert_eq!(
            decode.to_string(),
            "get document failed: unexpected response from the service (HTTP 200): invalid [redacted]ype a[redacted] `[redacted]`"
        );
        let graphql = Error::Graphql {
            operation: "messages",
            messages: vec!["a secret".into()],
            status: 200,
        }
        .redacted("secret");
        assert_eq!(
            graphql.to_string(),
            "messages failed: the service returned GraphQL errors: a [redacted]"
        );
        assert_eq!(redact("abc".into(), ""), "abc");
        // A text cut within the token keeps no part of it.
        let token = "eyJhbGciOiJSUzI1NiJ9.SECRET";
        // (as `limit(&format!("body: {token}"), 20)` cuts it)
        let cut = "body: eyJhbGciOiJSUz…".to_owned();
        assert_eq!(redact(cut, token), "body: [redacted]…");
        assert_eq!(
            redact("\"x eyJ…\" and eyJ".into(), token),
            "\"x [redacted]…\" and eyJ"
        );
    }
}
