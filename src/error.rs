//! The one error type of estatekit.
//!
//! Variants say *where* a call failed: before sending (`InvalidInput`), on the way
//! (`Network`, `Timeout`, `Aborted`), at the service (`Status`, `Graphql`) or while reading
//! its answer (`Decode`). The browser layer turns an [`Error`] into a JavaScript `ApiError`
//! whose `kind` is [`Error::kind`].
//!
//! No variant ever holds the bearer token: requests are described without it and response
//! bodies are redacted before they reach an error (see `web::transport`).

use std::fmt;

use crate::text::{concat, decimal, join};

/// The `kind` of an `ApiError`, as JavaScript sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The call was rejected before anything was sent.
    InvalidInput,
    /// HTTP 401.
    Unauthorized,
    /// HTTP 403.
    Forbidden,
    /// HTTP 404.
    NotFound,
    /// HTTP 429.
    RateLimited,
    /// Any other non-2xx status (and redirects, which are never followed).
    Http,
    /// The GraphQL response carried `errors`.
    Graphql,
    /// The request never got an HTTP answer.
    Network,
    /// The call took longer than its timeout and was aborted.
    Timeout,
    /// The caller aborted the call through its `AbortSignal`.
    Aborted,
    /// A 2xx answer whose body is not what the interface describes.
    Decode,
}

impl ErrorKind {
    /// The string JavaScript sees in `error.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::NotFound => "not_found",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Http => "http",
            ErrorKind::Graphql => "graphql",
            ErrorKind::Network => "network",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Decode => "decode",
        }
    }

    /// Every kind, in declaration order (used to keep the TypeScript union in sync).
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::InvalidInput,
        ErrorKind::Unauthorized,
        ErrorKind::Forbidden,
        ErrorKind::NotFound,
        ErrorKind::RateLimited,
        ErrorKind::Http,
        ErrorKind::Graphql,
        ErrorKind::Network,
        ErrorKind::Timeout,
        ErrorKind::Aborted,
        ErrorKind::Decode,
    ];
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything that can go wrong in a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The caller's input was rejected before sending; `field` names the offending input.
    InvalidInput {
        /// Path of the offending input, e.g. `filter.candidateId` or `options.baseUrl`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The service answered with a non-2xx status.
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
    Graphql {
        /// What the call was doing.
        operation: &'static str,
        /// The `message` of each error (at most a few, for the text).
        messages: Vec<String>,
        /// HTTP status of the answer (usually 200).
        status: u16,
    },
    /// The service answered with a redirect, which API calls never follow (the token must
    /// not reach another address).
    Redirected {
        /// What the call was doing.
        operation: &'static str,
    },
    /// No HTTP answer: connection refused, DNS failure, CORS refusal, dropped connection.
    Network {
        /// What the call was doing.
        operation: &'static str,
        /// What the browser reported.
        reason: String,
    },
    /// The call exceeded its timeout and was aborted.
    Timeout {
        /// What the call was doing.
        operation: &'static str,
        /// The timeout that expired.
        timeout_ms: u32,
    },
    /// The caller aborted the call.
    Aborted {
        /// What the call was doing.
        operation: &'static str,
    },
    /// A 2xx answer whose body does not match the interface.
    Decode {
        /// What the call was doing.
        operation: &'static str,
        /// HTTP status of the answer.
        status: u16,
        /// What did not match, with the JSON path where known.
        reason: String,
    },
}

fn status_message(
    status: u16,
    code: Option<&str>,
    message: Option<&str>,
    operation: &str,
) -> String {
    let number;
    let what = match status {
        401 => "the token was rejected (HTTP 401 unauthorized)",
        403 => "the token is not allowed to do this (HTTP 403 forbidden)",
        404 => "not found (HTTP 404)",
        429 => "too many requests (HTTP 429 rate limited)",
        _ => {
            number = concat(&["the service answered HTTP ", &decimal(status.into())]);
            &number
        }
    };
    let detail = match (code, message) {
        (Some(c), Some(m)) => concat(&[" [", c, ": ", m, "]"]),
        (Some(c), None) | (None, Some(c)) => concat(&[" [", c, "]"]),
        (None, None) => String::new(),
    };
    concat(&[operation, " failed: ", what, &detail])
}

impl Error {
    /// The human-readable message (what `Display` writes and JavaScript's `error.message` is).
    pub fn message(&self) -> String {
        match self {
            Error::InvalidInput { field, reason } => concat(&["invalid ", field, ": ", reason]),
            Error::Status {
                operation,
                status,
                code,
                message,
                ..
            } => status_message(*status, code.as_deref(), message.as_deref(), operation),
            Error::Graphql {
                operation,
                messages,
                ..
            } => concat(&[
                operation,
                " failed: the service returned GraphQL errors: ",
                &join(messages, "; "),
            ]),
            Error::Redirected { operation } => concat(&[
                operation,
                " failed: the service answered with a redirect, which is not followed so that the \
                 token never reaches another address",
            ]),
            Error::Network { operation, reason } => {
                concat(&[operation, " failed: network error (", reason, ")"])
            }
            Error::Timeout {
                operation,
                timeout_ms,
            } => concat(&[
                operation,
                " timed out after ",
                &decimal((*timeout_ms).into()),
                " ms",
            ]),
            Error::Aborted { operation } => concat(&[operation, " was aborted by the caller"]),
            Error::Decode {
                operation,
                status,
                reason,
            } => concat(&[
                operation,
                " failed: unexpected response from the service (HTTP ",
                &decimal((*status).into()),
                "): ",
                reason,
            ]),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Shorthand for an [`Error::InvalidInput`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The JavaScript-visible kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidInput { .. } => ErrorKind::InvalidInput,
            Error::Status { status, .. } => match status {
                401 => ErrorKind::Unauthorized,
                403 => ErrorKind::Forbidden,
                404 => ErrorKind::NotFound,
                429 => ErrorKind::RateLimited,
                _ => ErrorKind::Http,
            },
            Error::Graphql { .. } => ErrorKind::Graphql,
            Error::Redirected { .. } => ErrorKind::Http,
            Error::Network { .. } => ErrorKind::Network,
            Error::Timeout { .. } => ErrorKind::Timeout,
            Error::Aborted { .. } => ErrorKind::Aborted,
            Error::Decode { .. } => ErrorKind::Decode,
        }
    }

    /// The HTTP status, when the service answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Status { status, .. }
            | Error::Graphql { status, .. }
            | Error::Decode { status, .. } => Some(*status),
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

    /// How long the service asked us to wait before trying again, in milliseconds.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            Error::Status { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_status() {
        let e = |status| Error::Status {
            operation: "list webhooks",
            status,
            code: None,
            message: None,
            retry_after_ms: None,
        };
        assert_eq!(e(401).kind(), ErrorKind::Unauthorized);
        assert_eq!(e(403).kind(), ErrorKind::Forbidden);
        assert_eq!(e(404).kind(), ErrorKind::NotFound);
        assert_eq!(e(429).kind(), ErrorKind::RateLimited);
        assert_eq!(e(500).kind(), ErrorKind::Http);
        assert_eq!(e(302).kind(), ErrorKind::Http);
        assert_eq!(e(500).status(), Some(500));
    }

    #[test]
    fn messages_are_clear() {
        let e = Error::Status {
            operation: "list webhooks",
            status: 403,
            code: Some("server_error".into()),
            message: None,
            retry_after_ms: None,
        };
        assert_eq!(
            e.to_string(),
            "list webhooks failed: the token is not allowed to do this (HTTP 403 forbidden) [server_error]"
        );
        assert_eq!(
            Error::invalid(
                "filter",
                "give at least one of candidateId, contactId, listingId"
            )
            .to_string(),
            "invalid filter: give at least one of candidateId, contactId, listingId"
        );
        let kinds: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(kinds.len(), 11);
        assert!(kinds.contains(&"rate_limited"));
    }
}
