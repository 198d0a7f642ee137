//! What the client tells the caller: `onEvent`'s `ClientEvent` (every attempt of every call),
//! `onRetry`'s `RetryEvent`, and why `getToken` is asked for a token.

use crate::api::HttpMethod;
use crate::error::ApiErrorKind;
use serde::{Deserialize, Serialize};
#[cfg(feature = "js")]
use tsify::Tsify;

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

impl TokenReason {
    /// Its name in JavaScript, as serde writes it (what an event and `getToken` are told).
    pub fn as_str(self) -> &'static str {
        match self {
            TokenReason::Initial => "initial",
            TokenReason::Unauthorized => "unauthorized",
            TokenReason::Expiring => "expiring",
        }
    }
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

/// The client method a call was made through (`ClientEvent.operation`): the operation table's
/// rows (vocab/src/operations.rs).
pub use estatekit_vocab::operations::Operation;

/// The service's rate-limit figures, when its `X-RateLimit-*` headers are readable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RateLimitInfo {
    /// Requests allowed per window (`X-RateLimit-Limit`).
    pub per_window: f64,
    /// Requests left in this window (`X-RateLimit-Remaining`).
    pub remaining: f64,
    /// Milliseconds until the window resets (`X-RateLimit-Reset`, which gives seconds).
    pub reset_ms: f64,
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

/// One event of each type, every optional field set: what js/events.js's generated block is
/// made from ([`javascript`]). A new variant of [`ClientEvent`] does not compile until it is
/// named in the match below, whose comment asks for its sample here.
pub fn samples() -> Vec<ClientEvent> {
    use ClientEvent::*;
    let (operation, method, path) = (Operation::ListWebhooks, HttpMethod::Get, String::from("/"));
    let all = vec![
        Request {
            operation,
            method,
            path: path.clone(),
            attempt: 1,
            call_id: 1,
        },
        Response {
            operation,
            method,
            path,
            attempt: 1,
            call_id: 1,
            status: 200,
            duration_ms: 1.0,
            request_id: Some("req".into()),
            rate_limit: Some(RateLimitInfo {
                per_window: 1.0,
                remaining: 1.0,
                reset_ms: 1.0,
            }),
        },
        Retry {
            operation,
            attempt: 1,
            call_id: 1,
            delay_ms: 1,
            kind: ApiErrorKind::Http,
            status: Some(503),
        },
        Error {
            operation,
            call_id: 1,
            kind: ApiErrorKind::Http,
            status: Some(500),
            attempts: 1,
            duration_ms: 1.0,
        },
        Store {
            operation,
            call_id: 1,
            purpose: "rate".into(),
            reason: "timeout".into(),
        },
        Token {
            operation,
            call_id: 1,
            reason: TokenReason::Initial,
        },
        RateWait {
            operation,
            call_id: 1,
            delay_ms: 1,
        },
        Done {
            operation,
            call_id: 1,
            attempts: 1,
            duration_ms: 1.0,
        },
    ];
    for event in &all {
        // Every variant, no wildcard: a new one is added here and given a sample above.
        match event {
            Request { .. }
            | Response { .. }
            | Retry { .. }
            | Error { .. }
            | Store { .. }
            | Token { .. }
            | RateWait { .. }
            | Done { .. } => {}
        }
    }
    all
}

/// The keys of a JSON object, in the order they are written (serde reading serde_json's text),
/// and its `type` when it has one.
struct Keys {
    keys: Vec<String>,
    kind: Option<String>,
}

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Keys, D::Error> {
        struct InOrder;
        impl<'de> serde::de::Visitor<'de> for InOrder {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let (mut keys, mut kind) = (Vec::new(), None);
                while let Some(key) = map.next_key::<String>()? {
                    if key == "type" {
                        kind = Some(map.next_value::<String>()?);
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                    keys.push(key);
                }
                Ok(Keys { keys, kind })
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

/// The keys `value` is written with by serde, in order, and its `type`.
fn keys_of<T: Serialize>(value: &T) -> Result<Keys, serde_json::Error> {
    serde_json::from_str(&serde_json::to_string(value)?)
}

/// js/events.js's generated block: each event type's keys in the order `ClientEvent` writes
/// them (its declaration), and the keys of the object-valued field `rateLimit`.
pub fn javascript() -> Result<String, serde_json::Error> {
    let quoted = |keys: &[String]| {
        keys.iter()
            .map(|k| format!("\"{k}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut rows = String::new();
    for event in samples() {
        let Keys { keys, kind } = keys_of(&event)?;
        let kind = kind.unwrap_or_default();
        rows.push_str(&format!("  {kind}: [{}],\n", quoted(&keys)));
    }
    let rate = keys_of(&RateLimitInfo {
        per_window: 1.0,
        remaining: 1.0,
        reset_ms: 1.0,
    })?
    .keys;
    Ok(format!(
        "// Generated by `cargo run -q -p estatekit-core --bin events-js` from `ClientEvent` \
(core/src/model/events.rs): do not edit; `make generate` writes it and `make test` fails when it \
is stale.
/**
 * Each event type's keys, in the order of its declaration (`ClientEvent`'s variant, `type`
 * first). The module gives the values of the keys other than `type`, `operation` and `callId`
 * in this order; an object-valued key ({{@link NESTED}}) takes as many values as it has keys.
 * @type {{Record<string, readonly string[]>}}
 */
const KEYS = {{
{rows}}};
/**
 * The keys of each object-valued field (`RateLimitInfo`): given as that many values in a row,
 * all or none.
 * @type {{Record<string, readonly string[]>}}
 */
const NESTED = {{
  rateLimit: [{rate}],
}};
",
        rate = quoted(&rate),
    ))
}
