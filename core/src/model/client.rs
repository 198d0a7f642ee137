//! Client-wide inputs: `ClientOptions`, the per-call options every method accepts, and what the
//! client tells callbacks.

use super::{fields_of, Callback, Input, Signal};
use crate::api::HttpMethod;
use crate::error::ApiErrorKind;
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

/// Why `getToken` is asked for a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum TokenReason {
    /// The first call needs a token.
    Initial,
    /// The service answered 401 to the current token.
    Unauthorized,
    /// The current token expires soon (its `expiresAt` is near).
    Expiring,
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

/// What `onRetry` is told before a retry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RetryEvent {
    /// What the call is doing, e.g. `list webhooks`.
    pub operation: String,
    /// The attempt that failed (1 for the first).
    pub attempt: u32,
    /// How long the client waits before the next attempt.
    pub delay_ms: u32,
    /// Why: the failed attempt's error kind.
    pub kind: ApiErrorKind,
    /// HTTP status of the failed attempt, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub status: Option<u16>,
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

/// The client method a call was made through (`ClientEvent.operation`): the operation table's
/// rows (vocab/src/operations.rs).
pub use estatekit_vocab::operations::Operation;

/// The service's rate-limit figures, when its `X-RateLimit-*` headers are readable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RateLimitInfo {
    /// Requests allowed per window (`X-RateLimit-Limit`).
    pub limit: f64,
    /// Requests left in this window (`X-RateLimit-Remaining`).
    pub remaining: f64,
    /// Seconds until the window resets (`X-RateLimit-Reset`).
    pub reset_seconds: f64,
}

/// What `onEvent` is told, for every attempt of every call; `callId` ties a call's events
/// together. Events carry no body, no header but `X-Request-Id` and `X-RateLimit-*`, and never
/// the token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ClientEvent {
    /// An attempt is sent.
    #[serde(rename_all = "camelCase")]
    Request {
        /// The client method.
        operation: Operation,
        /// HTTP method.
        method: HttpMethod,
        /// Request path with its query (ids percent-encoded), without the host.
        path: String,
        /// 1 for the first attempt of this request, 2 for its first retry, ...
        attempt: u32,
        /// The call this event belongs to.
        call_id: u32,
    },
    /// An attempt's answer arrived.
    #[serde(rename_all = "camelCase")]
    Response {
        /// The client method.
        operation: Operation,
        /// HTTP method.
        method: HttpMethod,
        /// Request path with its query, without the host.
        path: String,
        /// Which attempt this answers.
        attempt: u32,
        /// The call this event belongs to.
        call_id: u32,
        /// HTTP status.
        status: u16,
        /// Time from sending to the whole answer read, in milliseconds.
        duration_ms: f64,
        /// `X-Request-Id`, when the service sends one and CORS exposes it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        request_id: Option<String>,
        /// The rate-limit figures, when the headers are readable.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        rate_limit: Option<RateLimitInfo>,
    },
    /// The client waits before repeating a failed attempt.
    #[serde(rename_all = "camelCase")]
    Retry {
        /// The client method.
        operation: Operation,
        /// The attempt that failed.
        attempt: u32,
        /// The call this event belongs to.
        call_id: u32,
        /// How long the client waits.
        delay_ms: u32,
        /// Why: the failed attempt's error kind.
        kind: ApiErrorKind,
        /// HTTP status of the failed attempt, when there was one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        status: Option<u16>,
    },
    /// The call failed for good.
    #[serde(rename_all = "camelCase")]
    Error {
        /// The client method.
        operation: Operation,
        /// The call this event belongs to.
        call_id: u32,
        /// What went wrong (the `ApiError`'s kind).
        kind: ApiErrorKind,
        /// HTTP status, when the service answered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "js", tsify(optional))]
        status: Option<u16>,
        /// Requests the call sent.
        attempts: u32,
        /// Time of the whole call, in milliseconds.
        duration_ms: f64,
    },
    /// The shared store of `rateLimit.store` failed or did not answer in time: the call went on
    /// without it, with this process's own window.
    #[serde(rename_all = "camelCase")]
    Store {
        /// The client method whose call waited for the store.
        operation: Operation,
        /// The call this event belongs to.
        call_id: u32,
        /// What the store was asked for: `rate` (the rate budget).
        #[cfg_attr(feature = "js", tsify(type = "StorePurpose"))]
        purpose: String,
        /// `timeout` (no answer in time) or `error` (it rejected, or answered something else).
        /// (Strings, not Rust enums: their serde code would cost the browser module ~140 bytes.)
        #[cfg_attr(feature = "js", tsify(type = "StoreFailure"))]
        reason: String,
    },
    /// The call asks the client's `getToken` for a token (`reason`), before its next attempt.
    /// Only the call that asks is told: a call that waits for a request already in progress
    /// is not.
    #[serde(rename_all = "camelCase")]
    Token {
        /// The client method.
        operation: Operation,
        /// The call this event belongs to.
        call_id: u32,
        /// Why a token is asked for.
        reason: TokenReason,
    },
    /// The call waits for room in the client-side rate budget (`rateLimit`: this process's
    /// window, the service's `X-RateLimit-Reset`, or the shared budget of `rateLimit.store`)
    /// before its next attempt.
    #[serde(rename_all = "camelCase")]
    RateWait {
        /// The client method.
        operation: Operation,
        /// The call this event belongs to.
        call_id: u32,
        /// How long the call waits before asking the budget again, in milliseconds.
        delay_ms: u32,
    },
    /// The call succeeded.
    #[serde(rename_all = "camelCase")]
    Done {
        /// The client method.
        operation: Operation,
        /// The call this event belongs to.
        call_id: u32,
        /// Requests the call sent.
        attempts: u32,
        /// Time of the whole call, in milliseconds.
        duration_ms: f64,
    },
}
