//! Request events: what `onEvent` listeners (the client's and the call's) are told about a call,
//! each event in one crossing (js/events.js's `tellEvent`, handed plain values: it builds the
//! event object, `ClientEvent`, once for the listeners, and gives an observer such as
//! estatekit/otel's the plain values without one). Nothing is told, and no clock read, when no
//! one listens; a listener that throws is ignored.

use super::answer::Answer;
use super::api_error::Failure;
use super::js;
use crate::api::platform::decimal;
use crate::api::HttpMethod;
use crate::error::ApiErrorKind;
use crate::model::events::{Operation, TokenReason};
use js_sys::Function;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/../js/events.js")]
extern "C" {
    /// `tellEvent(first, second, type, operation, callId, ...values)`: one event of a call to
    /// its listeners, the values in the order of the fields of its `ClientEvent` variant. One
    /// binding per shape of values.
    #[wasm_bindgen(js_name = tellEvent)]
    fn tell_number(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        value: f64,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    fn tell_text(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        first: &str,
        second: Option<&str>,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    fn tell_done(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        attempts: u32,
        duration_ms: f64,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    fn tell_request(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        method: &str,
        path: &str,
        attempt: u32,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    #[allow(clippy::too_many_arguments)]
    fn tell_response(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        method: &str,
        path: &str,
        attempt: u32,
        status: u16,
        duration_ms: f64,
        request_id: Option<String>,
        per_window: Option<f64>,
        remaining: Option<f64>,
        reset_ms: Option<f64>,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    #[allow(clippy::too_many_arguments)]
    fn tell_retry(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        attempt: u32,
        delay_ms: u32,
        error: &str,
        status: Option<u16>,
    );
    #[wasm_bindgen(js_name = tellEvent)]
    #[allow(clippy::too_many_arguments)]
    fn tell_error(
        a: Option<&Function>,
        b: Option<&Function>,
        kind: &str,
        op: &str,
        call_id: u32,
        error: &str,
        status: Option<u16>,
        attempts: u32,
        duration_ms: f64,
    );
}

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
    /// The client's listener.
    client: Option<Function>,
    /// The call's own listener (`options.onEvent`).
    own: RefCell<Option<Function>>,
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
        let started = match client_listener {
            Some(_) => js::now_precise(),
            None => 0.0,
        };
        Events {
            operation,
            call_id,
            started: Cell::new(started),
            client: client_listener.cloned(),
            own: RefCell::new(None),
            attempts: Cell::new(0),
        }
    }

    /// Sets the call's own listener (`options.onEvent`, read once per call). The clock is read
    /// for the first listener.
    pub fn listen(&self, listener: Option<&Function>) {
        if let Some(f) = listener {
            if !self.listening() {
                self.started.set(js::now_precise());
            }
            *self.own.borrow_mut() = Some(f.clone());
        }
    }

    /// Whether anyone listens (when no one does, nothing is told and no clock read).
    pub fn listening(&self) -> bool {
        self.client.is_some() || self.own.borrow().is_some()
    }

    /// The call's id (`callId`), unique in this module instance.
    pub fn call_id(&self) -> u32 {
        self.call_id
    }

    /// Requests sent so far.
    pub fn attempts(&self) -> u32 {
        self.attempts.get()
    }

    /// Tells an event to the listeners, when there are any and the call is a client
    /// operation's: `tell` gets the listeners, the operation's name and the call's id.
    fn emit(&self, tell: impl FnOnce(Option<&Function>, Option<&Function>, &str, u32)) {
        let own = self.own.borrow().clone();
        if self.client.is_none() && own.is_none() {
            return;
        }
        if let Some(operation) = self.operation {
            tell(
                self.client.as_ref(),
                own.as_ref(),
                operation.name(),
                self.call_id,
            );
        }
    }

    /// An attempt is about to be sent.
    pub fn request(&self, method: HttpMethod, path: &str, attempt: u32) {
        self.attempts.set(self.attempts.get() + 1);
        self.emit(|a, b, op, id| {
            tell_request(a, b, "request", op, id, method.as_str(), path, attempt)
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
        self.emit(|a, b, op, id| {
            let number = |name| answer.header(name).and_then(|v| decimal(v.trim()));
            // The rate-limit figures only when all three are readable (the next is read only
            // while the ones before were); the reset, in seconds on the wire, in milliseconds.
            let figures = number("x-ratelimit-limit").and_then(|per_window| {
                let remaining = number("x-ratelimit-remaining")?;
                Some((per_window, remaining, number("x-ratelimit-reset")? * 1000.0))
            });
            let (per_window, remaining, reset_ms) = match figures {
                Some((per_window, remaining, reset_ms)) => {
                    (Some(per_window), Some(remaining), Some(reset_ms))
                }
                None => (None, None, None),
            };
            tell_response(
                a,
                b,
                "response",
                op,
                id,
                method.as_str(),
                path,
                attempt,
                answer.status,
                js::now_precise() - sent,
                answer.header_redacted("x-request-id"),
                per_window,
                remaining,
                reset_ms,
            )
        });
    }

    /// The client waits `delay_ms` before repeating attempt `attempt`.
    pub fn retry(&self, attempt: u32, delay_ms: u32, kind: ApiErrorKind, status: Option<u16>) {
        self.emit(|a, b, op, id| {
            tell_retry(
                a,
                b,
                "retry",
                op,
                id,
                attempt,
                delay_ms,
                kind.as_str(),
                status,
            )
        });
    }

    /// The call asks `getToken` for a token.
    pub fn token(&self, reason: TokenReason) {
        self.emit(|a, b, op, id| tell_text(a, b, "token", op, id, reason.as_str(), None));
    }

    /// The call waits `delay_ms` for room in the client-side rate budget.
    pub fn rate_wait(&self, delay_ms: u32) {
        self.emit(|a, b, op, id| tell_number(a, b, "rateWait", op, id, f64::from(delay_ms)));
    }

    /// A shared store failed (`reason`: `timeout` or `error`) while the call waited for it for
    /// `purpose` (`rate`); the call went on without it. (The server build's: browsers have no
    /// shared store.)
    #[cfg(feature = "server")]
    pub fn store(&self, purpose: &str, reason: &str) {
        self.emit(|a, b, op, id| tell_text(a, b, "store", op, id, purpose, Some(reason)));
    }

    /// The call ended: `done`, or `error` with the failure's kind and status.
    pub fn finish(&self, result: &Result<JsValue, Failure>) {
        self.emit(|a, b, op, id| {
            let duration_ms = js::now_precise() - self.started.get();
            match result {
                Ok(_) => tell_done(a, b, "done", op, id, self.attempts(), duration_ms),
                Err(failure) => tell_error(
                    a,
                    b,
                    "error",
                    op,
                    id,
                    failure.error.kind().as_str(),
                    failure.error.status(),
                    self.attempts(),
                    duration_ms,
                ),
            }
        });
    }
}
