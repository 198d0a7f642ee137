//! A client's access token: the `token` option, or what `getToken` gives (asked the first time,
//! again when it is due for renewal, and after a 401), one `getToken` call shared by every
//! request waiting for it.

use super::api_error::{is_api_error, Failure};
use super::call_events::Events;
use super::js;
use super::transport::{self, Waited};
use crate::api;
use crate::error::{ApiErrorKind, Error};
use crate::model::events::TokenReason;
use js_sys::{Function, Promise};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// What bounds a wait for `getToken`: the call's name, signal, timeout and deadline.
#[derive(Clone, Copy)]
pub struct Bounds<'a> {
    /// What the call does (`list webhooks`), for the errors.
    pub operation: &'static str,
    /// The call's abort signal.
    pub signal: Option<&'a AbortSignal>,
    /// The call's timeout, for the error.
    pub timeout_ms: u32,
    /// When the call times out (`Date.now()` ms), if it does.
    pub deadline: Option<f64>,
    /// The call's events, told when it asks `getToken`.
    pub events: Option<&'a Events>,
    /// The client's hook around `getToken` (`estatekit/otel`, `pipeline::Hooks::ask`): called
    /// as `ask(getToken, reason, callId)`, so that `getToken` runs in the call's span.
    pub ask: Option<&'a Function>,
}

/// The access token of a client.
pub struct Tokens {
    token: RefCell<Option<Rc<str>>>,
    /// When to ask `getToken` again (`Date.now()` ms), and when the token expires: set from an
    /// `expiresAt` that `getToken` gave, else never.
    renew_at: Cell<f64>,
    expires_at: Cell<f64>,
    get_token: Option<Function>,
    /// A `getToken` call in progress, shared by every request waiting for it.
    pending: RefCell<Option<Promise>>,
}

fn invalid(field: &str, reason: &str) -> Failure {
    Error::invalid(field, reason).into()
}

/// The messages of the `TypeError` a failed `fetch` rejects with (Chromium's, Firefox's,
/// Safari's, Node's, React Native's): a `getToken` that threw one could not reach its source.
const FETCH_FAILED: [&str; 5] = [
    "Failed to fetch",
    "NetworkError when attempting to fetch resource.",
    "Load failed",
    "fetch failed",
    "Network request failed",
];

/// Whether `e` is a failed request: a failed `fetch`'s `TypeError`, or an error with a system
/// error's `code` (`ECONNREFUSED`, `ETIMEDOUT`...: node-fetch's, axios') on it or under it.
fn is_network_failure(e: &JsValue) -> bool {
    let message = js::get(e, "message").as_string().unwrap_or_default();
    (js::get(e, "name").as_string().as_deref() == Some("TypeError")
        && FETCH_FAILED.contains(&message.as_str()))
        || transport::platform_code(e).is_some_and(|code| {
            code.len() > 2
                && code.starts_with('E')
                && code.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
}

/// What a `getToken` that threw or rejected with `e` makes of the call: the kind of an `ApiError`
/// it threw (with its status, code and request id), `network` for a failed request, else
/// `token_source`; never `invalid_input` (the caller's options were fine). `cause` is `e`.
fn failed(operation: &'static str, e: JsValue) -> Failure {
    let thrown = is_api_error(&e)
        .then(|| ApiErrorKind::from_name(&js::get(&e, "kind").as_string().unwrap_or_default()))
        .flatten();
    let status = js::get(&e, "status").as_f64().map(|s| s as u16);
    let (kind, status) = match thrown {
        Some(kind) if !kind.answered() => (kind, None),
        Some(kind) if status.is_some() => (kind, status),
        _ if is_network_failure(&e) => (ApiErrorKind::Network, None),
        _ => (ApiErrorKind::TokenSource, None),
    };
    let reason = if js::get(&e, "message").is_string() || e.is_string() {
        transport::failure_text(&e)
    } else {
        "it threw a value that is not an Error".into()
    };
    let mut failure = Failure::from(Error::Token {
        operation,
        kind,
        status,
        code: thrown.and_then(|_| js::get(&e, "code").as_string()),
        reason,
    });
    if thrown.is_some() {
        failure.call.request_id = js::get(&e, "requestId").as_string();
    }
    failure.caused_by(e)
}

impl Tokens {
    /// The `token` option (already checked), or none and `getToken`.
    pub fn new(token: Option<String>, get_token: Option<Function>) -> Tokens {
        Tokens {
            token: RefCell::new(token.map(Rc::from)),
            renew_at: Cell::new(f64::INFINITY),
            expires_at: Cell::new(f64::INFINITY),
            get_token,
            pending: RefCell::new(None),
        }
    }

    /// The current token, asking `getToken("initial")` the first time, and `getToken("expiring")`
    /// once it is due for renewal (a token that is still valid is used if that fails).
    pub async fn current(&self, bounds: Bounds<'_>) -> Result<Rc<str>, Failure> {
        let current = self.token.borrow().clone();
        let reason = match &current {
            Some(token) if js::now_ms() < self.renew_at.get() => return Ok(token.clone()),
            Some(_) => TokenReason::Expiring,
            None => TokenReason::Initial,
        };
        match (self.fetch(reason, bounds).await, current) {
            (Err(_), Some(token)) if js::now_ms() < self.expires_at.get() => Ok(token),
            (result, _) => result,
        }
    }

    /// Whether a 401 can be answered with a new token (there is a `getToken`).
    pub fn renewable(&self) -> bool {
        self.get_token.is_some()
    }

    /// After a 401 to a request that carried `used`: asks `getToken("unauthorized")`, unless
    /// another call already replaced that token.
    pub async fn renew(&self, used: &str, bounds: Bounds<'_>) -> Result<(), Failure> {
        let current = self.token.borrow().clone();
        if current.as_deref().is_none_or(|t| t == used) {
            self.fetch(TokenReason::Unauthorized, bounds).await?;
        }
        Ok(())
    }

    /// Calls `getToken(reason)`, or joins a call already in progress; gives up when the
    /// call's signal aborts or its deadline passes (the shared call goes on for others).
    async fn fetch(&self, reason: TokenReason, bounds: Bounds<'_>) -> Result<Rc<str>, Failure> {
        let operation = bounds.operation;
        let Some(get_token) = &self.get_token else {
            return Err(invalid("options.token", "no token and no getToken"));
        };
        let pending = self.pending.borrow().clone();
        let promise = match pending {
            Some(p) => p,
            None => {
                let told = js::to_js(&reason);
                if let Some(events) = bounds.events {
                    events.token(reason);
                }
                let result = match (bounds.ask, bounds.events) {
                    (Some(ask), Some(events)) => ask.call3(
                        &JsValue::NULL,
                        get_token,
                        &told,
                        &JsValue::from(events.call_id()),
                    ),
                    _ => get_token.call1(&JsValue::NULL, &told),
                };
                let p = match result {
                    Ok(v) => Promise::resolve(&v),
                    Err(e) => Promise::reject(&e),
                };
                self.pending.replace(Some(p.clone()));
                p
            }
        };
        let remaining = bounds
            .deadline
            .map(|d| (d - js::now_ms()).max(0.0).ceil() as u32);
        let outcome = match transport::wait(Some(&promise), remaining, bounds.signal).await {
            Waited::Done(outcome) => outcome,
            Waited::Aborted => return Err(Error::Aborted { operation }.into()),
            Waited::Elapsed => {
                return Err(Error::Timeout {
                    operation,
                    timeout_ms: bounds.timeout_ms,
                }
                .into())
            }
        };
        self.pending.replace(None);
        let value = outcome.map_err(|e| failed(operation, e))?;
        // A string, or `{ token, expiresAt }` (expiresAt optional).
        let (text, expires) = match value.as_string() {
            Some(t) => (Some(t), JsValue::UNDEFINED),
            None => (
                js::get(&value, "token").as_string(),
                js::get(&value, "expiresAt"),
            ),
        };
        let at = match expires.as_f64() {
            None if expires.is_undefined() => Some(f64::INFINITY),
            at => at,
        };
        let (Some(text), Some(at)) = (text, at) else {
            return Err(invalid(
                "options.getToken",
                "must return a token or { token, expiresAt }",
            ));
        };
        api::check_token(&text).map_err(|_| {
            invalid(
                "options.getToken",
                "must return a non-empty token of visible ASCII characters",
            )
        })?;
        let token: Rc<str> = text.into();
        let now = js::now_ms();
        // Asked again a quarter of its remaining life (at most 30 s) before it expires; an
        // expiry already past by this clock (clock skew) is ignored: then a 401 renews it.
        let (renew, at) = if at > now {
            (at - ((at - now) / 4.0).min(30_000.0), at)
        } else {
            (f64::INFINITY, f64::INFINITY)
        };
        self.renew_at.set(renew);
        self.expires_at.set(at);
        self.token.replace(Some(token.clone()));
        Ok(token)
    }
}
