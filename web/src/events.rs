//! Request events: what `onEvent` listeners (the client's and the call's) are told about a call.
//! Nothing is built when no one listens; a listener that throws is ignored.

use super::answer::Answer;
use super::js;
use super::js_error::Failure;
use crate::api::platform::decimal;
use crate::api::HttpMethod;
use crate::error::ApiErrorKind;
use crate::model::client::{ClientEvent, Operation, RateLimitInfo, TokenReason};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsValue;

thread_local! {
    /// The id of the next call (one counter per module instance, so ids never repeat).
    static NEXT_CALL_ID: Cell<u32> = const { Cell::new(1) };
}

/// One call's events: its operation and id, when it started, who listens, how many requests
/// it has sent.
pub struct Events {
    /// The client operation; none for a token grant, which reports `TokenEvent`s instead.
    operation: Option<Operation>,
    call_id: u32,
    /// When the call started (`performance.now()`), read only once someone listens.
    started: Cell<f64>,
    listeners: RefCell<Vec<Function>>,
    attempts: Cell<u32>,
}

impl Events {
    /// The events of a new call of `operation`, told to the client's listener if there is one.
    pub fn new(operation: Operation, client_listener: Option<&Function>) -> Events {
        Events::of(Some(operation), client_listener)
    }

    #[cfg(feature = "auth")]
    /// A token grant's events: none are told (a grant reports `TokenEvent`s); the call still has
    /// an id and counts its attempts.
    pub fn of_grant() -> Events {
        Events::of(None, None)
    }

    fn of(operation: Option<Operation>, client_listener: Option<&Function>) -> Events {
        let call_id = NEXT_CALL_ID.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1));
            id
        });
        let events = Events {
            operation,
            call_id,
            started: Cell::new(0.0),
            listeners: RefCell::new(Vec::new()),
            attempts: Cell::new(0),
        };
        events.listen(client_listener);
        events
    }

    /// Adds the call's own listener (`options.onEvent`). The clock is read for the first.
    pub fn listen(&self, listener: Option<&Function>) {
        if let Some(f) = listener {
            let mut listeners = self.listeners.borrow_mut();
            if listeners.is_empty() {
                self.started.set(js::now_precise());
            }
            listeners.push(f.clone());
        }
    }

    /// Whether anyone listens (when no one does, no event is built and no clock read).
    pub fn listening(&self) -> bool {
        !self.listeners.borrow().is_empty()
    }

    /// The call's id (`callId`), unique in this module instance.
    pub fn call_id(&self) -> u32 {
        self.call_id
    }

    /// Requests sent so far.
    pub fn attempts(&self) -> u32 {
        self.attempts.get()
    }

    fn emit(&self, event: impl FnOnce(Operation) -> ClientEvent) {
        let listeners = self.listeners.borrow().clone();
        let Some(operation) = self.operation.filter(|_| !listeners.is_empty()) else {
            return;
        };
        let value: JsValue = js::to_js(&event(operation));
        for listener in &listeners {
            js::notify(listener, &value);
        }
    }

    /// An attempt is about to be sent.
    pub fn request(&self, method: HttpMethod, path: &str, attempt: u32) {
        self.attempts.set(self.attempts.get() + 1);
        self.emit(|operation| ClientEvent::Request {
            operation,
            method,
            path: path.to_owned(),
            attempt,
            call_id: self.call_id,
        });
    }

    /// An attempt sent at `sent` got its answer.
    pub fn response(
        &self,
        method: HttpMethod,
        path: &str,
        attempt: u32,
        sent: f64,
        answer: &Answer,
    ) {
        self.emit(|operation| {
            let number = |name| answer.header(name).and_then(|v| decimal(v.trim()));
            let [limit, remaining, reset] = [
                "x-ratelimit-limit",
                "x-ratelimit-remaining",
                "x-ratelimit-reset",
            ]
            .map(number);
            ClientEvent::Response {
                operation,
                method,
                path: path.to_owned(),
                attempt,
                call_id: self.call_id,
                status: answer.status,
                duration_ms: js::now_precise() - sent,
                request_id: answer.header_redacted("x-request-id"),
                rate_limit: match (limit, remaining, reset) {
                    (Some(limit), Some(remaining), Some(reset_seconds)) => Some(RateLimitInfo {
                        limit,
                        remaining,
                        reset_seconds,
                    }),
                    _ => None,
                },
            }
        });
    }

    /// The client waits `delay_ms` before repeating attempt `attempt`.
    pub fn retry(&self, attempt: u32, delay_ms: u32, kind: ApiErrorKind, status: Option<u16>) {
        self.emit(|operation| ClientEvent::Retry {
            operation,
            attempt,
            call_id: self.call_id,
            delay_ms,
            kind,
            status,
        });
    }

    /// The call asks `getToken` for a token.
    pub fn token(&self, reason: TokenReason) {
        self.emit(|operation| ClientEvent::Token {
            operation,
            call_id: self.call_id,
            reason,
        });
    }

    /// The call waits `delay_ms` for room in the client-side rate budget.
    pub fn rate_wait(&self, delay_ms: u32) {
        self.emit(|operation| ClientEvent::RateWait {
            operation,
            call_id: self.call_id,
            delay_ms,
        });
    }

    /// A shared store failed (`reason`: `timeout` or `error`) while the call waited for it for
    /// `purpose` (`rate`); the call went on without it. (The server build's: browsers have no
    /// shared store.)
    #[cfg(feature = "server")]
    pub fn store(&self, purpose: &str, reason: &str) {
        self.emit(|operation| ClientEvent::Store {
            operation,
            call_id: self.call_id,
            purpose: purpose.into(),
            reason: reason.into(),
        });
    }

    /// The call ended: `done`, or `error` with the failure's kind and status.
    pub fn finish(&self, result: &Result<JsValue, Failure>) {
        self.emit(|operation| {
            let duration_ms = js::now_precise() - self.started.get();
            match result {
                Ok(_) => ClientEvent::Done {
                    operation,
                    call_id: self.call_id,
                    attempts: self.attempts(),
                    duration_ms,
                },
                Err(failure) => ClientEvent::Error {
                    operation,
                    call_id: self.call_id,
                    kind: failure.error.kind(),
                    status: failure.error.status(),
                    attempts: self.attempts(),
                    duration_ms,
                },
            }
        });
    }
}
