//! Client-wide inputs: `ClientOptions` (with its retry and rate-limit options), the per-call
//! options every method accepts, and the token `getToken` may resolve with.

use super::{fields_of, Callback, Input, Signal};
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;

/// Options of `new Client(...)`. Give `token` or `getToken`, not both.
#[derive(Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ClientOptions {
    /// The account's base URL, e.g. `https://acme.example.com` (https, except for loopback hosts).
    pub base_url: String,
    /// A bearer access token.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub token: Option<String>,
    /// Returns a fresh access token, or `{ token, expiresAt }`: called at first use, after a
    /// 401, and (when it gave `expiresAt`) again shortly before the token expires.
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(reason: TokenReason) => string | AccessToken | Promise<string | AccessToken>"
        )
    )]
    pub get_token: Option<Callback>,
    /// Timeout of every call except uploads, in milliseconds (default 30000; 0 = none).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Automatic retries of safe requests (reads, deletes, the messages query).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub retry: Option<RetryOptions>,
    /// Opt-in client-side rate limiting: requests queue instead of hitting 429.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub rate_limit: Option<RateLimitOptions>,
    /// Called before each automatic retry, e.g. for logging.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: RetryEvent) => void"))]
    pub on_retry: Option<Callback>,
    /// Told about every attempt of every call (for logs and metrics); what it throws is ignored.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: ClientEvent) => void"))]
    pub on_event: Option<Callback>,
    /// Sends every request instead of the global `fetch` (tests, proxies, instrumentation); it
    /// gets a `Request` (with the token and the call's abort signal) and must resolve to a
    /// `Response`. With it, an upload's `onProgress` gets one report, at the end.
    #[cfg_attr(
        feature = "js",
        tsify(
            optional,
            type = "(input: Request, init?: RequestInit) => Promise<Response>"
        )
    )]
    pub fetch: Option<Callback>,
}

impl Input for ClientOptions {
    fn nested(key: &str) -> Option<&'static [&'static str]> {
        match key {
            "retry" => Some(fields_of::<RetryOptions>()),
            "rateLimit" => Some(RATE_LIMIT_KEYS),
            _ => None,
        }
    }
}

/// The keys of `rateLimit`: serde's fields of [`RateLimitOptions`] and the two the client reads
/// itself (`store`, `key`).
pub const RATE_LIMIT_KEYS: &[&str] = &["perMinute", "store", "key"];

/// Retry policy: full-jitter exponential backoff, honouring `Retry-After` and `X-RateLimit-Reset`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RetryOptions {
    /// Retries after the first attempt (default 2; 0 disables retries).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub max_retries: Option<u32>,
    /// Backoff base in milliseconds (default 300).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub base_delay_ms: Option<u32>,
    /// Longest single wait in milliseconds (default 20000).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub max_delay_ms: Option<u32>,
}

// `store` and `key` are read by the client itself (web::rate), not by serde: a field serde reads
// costs the browser module about 150 bytes. They are allowed by RATE_LIMIT_KEYS. The TypeScript
// declaration of `RateLimitOptions` (its three fields) is web::RATE_STORE's, once: this struct
// is only serde's reading of `perMinute`.
/// Client-side rate limit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RateLimitOptions {
    /// Requests allowed per minute (the service allows 300).
    pub per_minute: u32,
}

/// An access token with its expiry: what `getToken` may resolve with (and what a token
/// provider's `getToken` gives, e.g. for a server route that hands a browser its token).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AccessToken {
    /// The bearer access token.
    pub token: String,
    /// When it expires, in milliseconds since the Unix epoch (`Date.now()`'s clock).
    pub expires_at: f64,
}

/// The last argument of every method.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CallOptions {
    /// Aborts the call; it then rejects with kind `aborted`.
    #[cfg_attr(feature = "js", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
    /// Timeout of this call in milliseconds (0 = none); it then rejects with kind `timeout`.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Told about this call's events, besides the client's `onEvent`.
    #[cfg_attr(feature = "js", tsify(optional, type = "(event: ClientEvent) => void"))]
    pub on_event: Option<Callback>,
}

impl Input for CallOptions {}
