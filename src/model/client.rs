//! Client-wide inputs: `ClientOptions` and the per-call options every method accepts.

use crate::api::input::{FromInput, InputValue};
use crate::error::Error;

/// `new Client(options)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientOptions {
    /// The account's base URL, e.g. `https://acme.example.com`.
    pub base_url: String,
    /// A bearer access token (or give `getToken`, read by the browser layer).
    pub token: Option<String>,
    /// Default timeout of every call except uploads, in milliseconds (default 30000).
    pub timeout_ms: Option<u32>,
    /// Automatic retries of safe requests.
    pub retry: Option<RetryOptions>,
    /// Client-side rate limiting (opt-in).
    pub rate_limit: Option<RateLimitOptions>,
}

/// `ClientOptions.retry`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetryOptions {
    /// Retries after the first attempt (default 2; 0 disables retries).
    pub limit: Option<u32>,
    /// Backoff base in milliseconds (default 300).
    pub base_delay_ms: Option<u32>,
    /// Longest single wait in milliseconds (default 20000).
    pub max_delay_ms: Option<u32>,
}

/// `ClientOptions.rateLimit`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RateLimitOptions {
    /// Requests allowed per minute; further requests wait for their turn.
    pub per_minute: u32,
}

impl FromInput for ClientOptions {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(
            path,
            &[
                "baseUrl",
                "token",
                "getToken",
                "timeoutMs",
                "retry",
                "rateLimit",
                "onRetry",
            ],
        )?;
        let retry = match f.object("retry", &["limit", "baseDelayMs", "maxDelayMs"])? {
            Some(r) => Some(RetryOptions {
                limit: r.count("limit")?,
                base_delay_ms: r.count("baseDelayMs")?,
                max_delay_ms: r.count("maxDelayMs")?,
            }),
            None => None,
        };
        let rate_limit = match f.object("rateLimit", &["perMinute"])? {
            Some(r) => Some(RateLimitOptions {
                per_minute: r
                    .count("perMinute")?
                    .ok_or_else(|| Error::invalid(r.path_of("perMinute"), "is required"))?,
            }),
            None => None,
        };
        Ok(ClientOptions {
            base_url: f.required_string("baseUrl")?,
            token: f.string("token")?,
            timeout_ms: f.count("timeoutMs")?,
            retry,
            rate_limit,
        })
    }
}

/// The last `options` argument of every method.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallOptions {
    /// Timeout of this call, in milliseconds (0 = none).
    pub timeout_ms: Option<u32>,
}

impl FromInput for CallOptions {
    fn from_input(value: &InputValue, path: &str) -> Result<Self, Error> {
        let f = value.object(path, &["timeoutMs", "signal"])?;
        Ok(CallOptions {
            timeout_ms: f.count("timeoutMs")?,
        })
    }
}
