//! Client-wide inputs: `ClientOptions` and the per-call options every method accepts.

use serde::de::IgnoredAny;
use serde::Deserialize;

/// `new Client(options)`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientOptions {
    /// The account's base URL, e.g. `https://acme.example.com`.
    pub base_url: String,
    /// A bearer access token (or give `getToken`).
    pub token: Option<String>,
    /// Callback returning a fresh token (read by the browser layer).
    #[serde(default, rename = "getToken")]
    pub _get_token: Option<IgnoredAny>,
    /// Default timeout of every call except uploads, in milliseconds (default 30000).
    pub timeout_ms: Option<u32>,
    /// Automatic retries of safe requests.
    pub retry: Option<RetryOptions>,
    /// Client-side rate limiting (opt-in).
    pub rate_limit: Option<RateLimitOptions>,
    /// Called before each automatic retry (read by the browser layer).
    #[serde(default, rename = "onRetry")]
    pub _on_retry: Option<IgnoredAny>,
}

/// `ClientOptions.retry`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryOptions {
    /// Retries after the first attempt (default 2; 0 disables retries).
    pub limit: Option<u32>,
    /// Backoff base in milliseconds (default 300).
    pub base_delay_ms: Option<u32>,
    /// Longest single wait in milliseconds (default 20000).
    pub max_delay_ms: Option<u32>,
}

/// `ClientOptions.rateLimit`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RateLimitOptions {
    /// Requests allowed per minute; further requests wait for their turn.
    pub per_minute: u32,
}

/// The last `options` argument of every method.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallOptions {
    /// Timeout of this call, in milliseconds (0 = none).
    pub timeout_ms: Option<u32>,
    /// `AbortSignal` (read by the browser layer).
    #[serde(default, rename = "signal")]
    pub _signal: Option<IgnoredAny>,
}
