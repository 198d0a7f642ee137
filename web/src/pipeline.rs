//! The one path every request takes, written once: its turn under the rate limit, the token,
//! the send, the events, the retry decision and the answer's check. An operation is data
//! ([`Exchange`]: its request, its retry class, its check as a function value); nothing here is
//! generic, so the module holds this loop once for every operation (the client's calls and the
//! grants of `estatekit/auth`).

use super::answer::Answer;
use super::api_error::Failure;
use super::call_events::Events;
use super::js;
use super::rate::{Rate, Stop};
use super::token::{Bounds, Tokens};
use super::transport::{self, Bearer, Outgoing};
use crate::api::retry::RetryPolicy;
use crate::api::HttpRequest;
use crate::error::{retryable, ApiErrorKind, Error, Resend};
#[cfg(feature = "auth")]
use crate::model::auth::GrantType;
use crate::model::events::RetryEvent;
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::future_to_promise;
use web_sys::{AbortSignal, Blob};

/// How an answer (of any status) becomes an operation's result.
pub type Check<'a> = &'a dyn Fn(&Answer) -> Result<JsValue, Failure>;

/// A [`Check`] that holds nothing: a function.
pub type CheckFn = fn(&Answer) -> Result<JsValue, Failure>;

/// Which failed attempts an operation repeats: its retry class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// A request that may have acted (a webhook's registration, an upload): repeated only after
    /// an answer saying the service did not act ([`Resend::NotIdempotent`]).
    Never,
    /// An idempotent request (reads and deletes), with jittered backoff.
    Safe,
    /// A token grant (`estatekit/auth`): its type's [`Resend`] class, without jitter,
    /// honouring only a 429's or a 503's `Retry-After`.
    #[cfg(feature = "auth")]
    Grant(GrantType),
}

impl Retry {
    /// How the operation may be sent again: what `retryable` and the loop's repeats follow.
    fn resend(self) -> Resend {
        match self {
            Retry::Never => Resend::NotIdempotent,
            Retry::Safe => Resend::Idempotent,
            #[cfg(feature = "auth")]
            Retry::Grant(grant) => grant.spec().resend,
        }
    }

    /// The wait the answer asks for before a repeat, in milliseconds.
    fn asked_wait(self, answer: &Answer) -> Option<u64> {
        match self {
            #[cfg(feature = "auth")]
            Retry::Grant(_) if !matches!(answer.status, 429 | 503) => None,
            _ => answer.retry_after_ms(),
        }
    }

    /// The jitter of a backoff: a random factor in [0, 1), or none (1).
    fn jitter(self) -> f64 {
        match self {
            #[cfg(feature = "auth")]
            Retry::Grant(_) => 1.0,
            _ => js_sys::Math::random(),
        }
    }
}

/// An operation as data: its request, its retry class, and the check of its answer.
pub struct Exchange<'a> {
    /// The described request.
    pub request: &'a HttpRequest,
    /// Which failed attempts are repeated.
    pub retry: Retry,
    /// How the last answer becomes the result.
    pub check: Check<'a>,
}

impl<'a> Exchange<'a> {
    /// A client's operation: repeated as its row of the table says.
    pub fn new(request: &'a HttpRequest, check: Check<'a>) -> Exchange<'a> {
        let retry = match request.spec.resend {
            Resend::Idempotent => Retry::Safe,
            _ => Retry::Never,
        };
        Exchange {
            request,
            retry,
            check,
        }
    }
}

/// What an attempt's outcome is told to, with when it started (a grant's `TokenEvent`).
pub type Attempted<'a> = &'a dyn Fn(&Result<JsValue, Failure>, f64);

/// One call's settings, from its options.
pub struct Call<'a> {
    /// The caller's abort signal.
    pub signal: Option<AbortSignal>,
    /// Timeout in milliseconds (0 = none): of the whole call (attempts, waits and `getToken`),
    /// or of each attempt when `per_attempt`.
    pub timeout_ms: u32,
    /// Whether `timeout_ms` bounds each attempt (a grant) rather than the whole call.
    pub per_attempt: bool,
    /// A deadline (`Date.now()` ms) shared by several runs of one call (`ensureWebhook` under
    /// a store's claim): when set, it bounds each run instead of `timeout_ms` counted from the
    /// run's start (`timeout_ms` is then only what a timeout's message says).
    pub until: Option<f64>,
    /// An upload's file and file name.
    pub file: Option<(Blob, String)>,
    /// An upload's `onProgress`.
    pub progress: Option<Function>,
    /// Told each attempt's checked outcome.
    pub attempted: Option<Attempted<'a>>,
}

impl Call<'_> {
    /// A call with a timeout of the whole call and nothing else.
    pub fn new(signal: Option<AbortSignal>, timeout_ms: u32) -> Call<'static> {
        Call {
            signal,
            timeout_ms,
            per_attempt: false,
            until: None,
            file: None,
            progress: None,
            attempted: None,
        }
    }
}

/// The hooks of `estatekit/otel` (internal, set through the wrapper's undeclared
/// `Symbol.for("estatekit.instrument")` method): each must call what it is handed at once and
/// return what that returns.
#[derive(Clone, Default)]
pub struct Hooks {
    /// Around each request's `fetch` call: `send(fetch, url, init, callId)` (see
    /// [`Outgoing::send`]).
    pub send: Option<Function>,
    /// Around each `getToken` call: `ask(getToken, reason, callId)` (see `token::Bounds::ask`).
    pub ask: Option<Function>,
}

/// Where requests go and what they share: a client's settings, or a grant's target's.
pub struct Pipeline {
    /// The base URL's origin, the only one an answer may come from.
    pub origin: String,
    /// The base URL's own path (`/api` of `https://acme.example.com/api`), or empty: named by
    /// the message of a 404 ([`base_path_hint`]).
    pub base_path: String,
    /// The access token; none for grants (their credentials are in the body).
    pub tokens: Option<Tokens>,
    /// How often, and after how long, a repeatable failure is repeated.
    pub policy: RetryPolicy,
    /// The client's `onRetry`.
    pub on_retry: Option<Function>,
    /// The `fetch` option, used instead of the global `fetch`.
    pub fetch: Option<Function>,
    /// The hooks around each `fetch` call and each `getToken` call (`estatekit/otel`).
    pub hooks: RefCell<Hooks>,
    /// The client-side rate limit.
    pub rate: Option<Rate>,
    /// The `Authorization` header of the current token, made once per token.
    pub bearer: Bearer,
}

/// The failure after a 401 whose token refresh failed: still `unauthorized` (something was
/// sent), saying why the refresh failed; aborts and timeouts during the refresh stay what
/// they are.
fn refresh_failed(answer: &Answer, refresh: Failure, attempts: u32) -> Failure {
    if matches!(
        refresh.error.kind(),
        ApiErrorKind::Aborted | ApiErrorKind::Timeout
    ) {
        return refresh.after(attempts);
    }
    let mut failure = answer.status_failure().after(attempts);
    if let Error::Status { message, .. } = &mut failure.error {
        let why = refresh.error;
        *message = Some(match message.take() {
            Some(m) => format!("{m}; refreshing the token failed: {why}"),
            None => format!("refreshing the token failed: {why}"),
        });
    }
    failure
}

/// The failure of a call stopped before an answer (aborted, timed out), after `attempts`
/// requests; an abort's `cause` is the reason the caller's signal was aborted with.
#[inline(never)]
fn stopped(error: Error, attempts: u32, signal: Option<&AbortSignal>) -> Failure {
    let failure = Failure::from(error).after(attempts);
    match (&failure.error, signal) {
        (Error::Aborted { .. }, Some(signal)) => failure.caused_by(signal.reason()),
        _ => failure,
    }
}

/// A 404 of a client whose base URL has a path of its own: its message names that path, which
/// comes before every path of the interface (a base URL ending in `/api` asks for `/api/api/...`).
fn base_path_hint(mut failure: Failure, base_path: &str) -> Failure {
    if failure.error.status() == Some(404) && !base_path.is_empty() {
        let drop = if base_path.ends_with("/api") {
            ": give the base URL without it"
        } else {
            ""
        };
        failure.note = Some(format!(
            "the base URL has a path of its own, `{base_path}`, put before each path of the \
             interface (`{base_path}/api/...`){drop}"
        ));
    }
    failure
}

/// Runs `future` as a JavaScript promise that rejects with an `ApiError`, telling the call's
/// listeners how it ended (boxed, so that every call shares one promise adapter).
pub fn promise(
    events: Rc<Events>,
    future: Pin<Box<dyn Future<Output = Result<JsValue, Failure>>>>,
) -> Promise {
    future_to_promise(async move {
        let result = future.await;
        events.finish(&result);
        result.map_err(Failure::into_js)
    })
}

impl Pipeline {
    /// The promise of a call of one request: `prepared` (the request and the call's settings,
    /// or why the arguments were refused) is sent and its answer checked by `check`.
    pub fn call(
        self: Rc<Self>,
        events: Rc<Events>,
        prepared: Result<(HttpRequest, Call<'static>), Failure>,
        check: CheckFn,
    ) -> Promise {
        let call_events = events.clone();
        promise(
            events,
            Box::pin(async move {
                let (request, call) = prepared?;
                self.run(&Exchange::new(&request, &check), &call, &call_events)
                    .await
            }),
        )
    }

    /// Runs one operation: waits for its turn under the rate limit, adds the current token
    /// (none for a grant), sends, after a 401 asks `getToken("unauthorized")` once (shared by
    /// concurrent calls) and repeats once, checks the answer, and repeats the failures that the
    /// operation's retry class repeats, with backoff. The call's timeout bounds the whole call
    /// (attempts, waits and `getToken`), or each attempt; aborting stops everything at once.
    pub async fn run(
        &self,
        op: &Exchange<'_>,
        call: &Call<'_>,
        events: &Events,
    ) -> Result<JsValue, Failure> {
        let operation = op.request.operation();
        let signal = call.signal.as_ref();
        let deadline = call.until.or_else(|| {
            (call.timeout_ms > 0 && !call.per_attempt)
                .then(|| js::now_ms() + f64::from(call.timeout_ms))
        });
        let remaining = || deadline.map(|d| d - js::now_ms());
        let hooks = self.hooks.borrow().clone();
        let bounds = Bounds {
            operation,
            signal,
            timeout_ms: call.timeout_ms,
            deadline,
            events: Some(events),
            ask: hooks.ask.as_ref(),
        };
        let timed_out = || Error::Timeout {
            operation,
            timeout_ms: call.timeout_ms,
        };
        let stopped = |error: Error, attempts: u32| stopped(error, attempts, signal);
        let (method, url) = (op.request.method, &op.request.url);
        let path = url.strip_prefix(self.origin.as_str()).unwrap_or(url);
        let mut attempts = 0u32;
        let mut retries = 0u32;
        let mut refreshed = false;
        let resend = op.retry.resend();
        // Every failure is marked with the operation's class, which its `retryable` follows.
        let result = 'call: loop {
            if signal.is_some_and(AbortSignal::aborted) {
                break 'call Err(stopped(Error::Aborted { operation }, attempts));
            }
            if let Some(rate) = &self.rate {
                if let Err(stop) = rate.turn(deadline, signal, events).await {
                    let error = match stop {
                        Stop::Aborted => Error::Aborted { operation },
                        Stop::Timeout => timed_out(),
                    };
                    break 'call Err(stopped(error, attempts));
                }
            }
            let token: Rc<str> = match &self.tokens {
                Some(tokens) => match tokens.current(bounds).await {
                    Ok(token) => token,
                    Err(failure) => break 'call Err(failure.after(attempts)),
                },
                // An empty token: no `Authorization` header (a grant's credentials are in
                // its body).
                None => Rc::from(""),
            };
            let timeout_ms = match remaining() {
                _ if call.per_attempt => call.timeout_ms,
                Some(r) if r <= 0.0 => break 'call Err(stopped(timed_out(), attempts)),
                Some(r) => r.ceil() as u32,
                None => 0,
            };
            let attempt = Outgoing {
                request: op.request,
                file: call.file.as_ref().map(|(blob, name)| (blob, name.as_str())),
                signal,
                timeout_ms,
                progress: call.progress.as_ref(),
                fetch: self.fetch.as_ref(),
                send: hooks.send.as_ref(),
                call_id: events.call_id(),
            };
            events.request(method, path, attempts + 1);
            // When the attempt started, for whoever is told its outcome (no clock otherwise).
            let started = if events.listening() || call.attempted.is_some() {
                js::now_precise()
            } else {
                0.0
            };
            let authorization = self.bearer.of(&token);
            let result =
                transport::send(token.clone(), &authorization, &attempt, &self.origin).await;
            attempts += 1;
            let (outcome, status, asked) = match result {
                Ok(mut answer) => {
                    answer.attempts = attempts;
                    events.response(method, path, attempts, started, &answer);
                    if let Some(rate) = &self.rate {
                        rate.window().borrow_mut().observe(
                            js::now_ms(),
                            answer.header("x-ratelimit-remaining").as_deref(),
                            answer.header("x-ratelimit-reset").as_deref(),
                        );
                    }
                    if answer.status == 401 && !refreshed {
                        if let Some(tokens) = self.tokens.as_ref().filter(|t| t.renewable()) {
                            refreshed = true;
                            if let Err(failure) = tokens.renew(&token, bounds).await {
                                break 'call Err(refresh_failed(&answer, failure, attempts));
                            }
                            continue;
                        }
                    }
                    let outcome = (op.check)(&answer);
                    // The wait an answer asks for matters only before a repeat: a success's
                    // headers are not read.
                    let asked = outcome
                        .is_err()
                        .then(|| op.retry.asked_wait(&answer))
                        .flatten();
                    (outcome, Some(answer.status), asked)
                }
                Err(mut failure) => {
                    // The attempt's timer is the call's deadline: report the call's timeout.
                    if let Error::Timeout { timeout_ms, .. } = &mut failure.error {
                        *timeout_ms = call.timeout_ms;
                    }
                    (Err(failure.after(attempts)), None, None)
                }
            };
            if let Some(attempted) = call.attempted {
                attempted(&outcome, started);
            }
            let (kind, unsent) = match &outcome {
                Ok(_) => break 'call outcome,
                Err(failure) => (failure.error.kind(), failure.unsent),
            };
            // The one rule (core's `retryable`): an answer tells the outcome; without one, a
            // request that is not idempotent may have acted, unless the platform proved it was
            // never sent. A timeout is retryable but not repeated: it ends the call (or, for a
            // grant's attempt, leaves the next `getToken` to try again).
            let known = status.is_some() || unsent;
            let repeatable =
                retryable(kind, status, resend, known) && kind != ApiErrorKind::Timeout;
            if !repeatable || retries >= self.policy.limit {
                break 'call match outcome {
                    // Sent, maybe acted on, and never repeated: not retryable, and says why.
                    Err(failure)
                        if resend != Resend::Idempotent
                            && !known
                            && failure.attempts > 0
                            && matches!(kind, ApiErrorKind::Network | ApiErrorKind::Timeout) =>
                    {
                        Err(failure.outcome_unknown(op.request.spec.unknown_outcome))
                    }
                    outcome => outcome,
                };
            }
            let wait = self.policy.delay_ms(retries, asked, op.retry.jitter());
            if remaining().is_some_and(|r| f64::from(wait) >= r) {
                // No retry fits before the deadline: the last answer is the result.
                break 'call outcome;
            }
            retries += 1;
            events.retry(attempts, wait, kind, status);
            if let Some(on_retry) = &self.on_retry {
                let event = RetryEvent {
                    operation: operation.into(),
                    attempt: attempts,
                    delay_ms: wait,
                    kind,
                    status,
                };
                js::notify(on_retry, &js::to_js(&event));
            }
            if !transport::delay(wait, signal).await {
                break 'call Err(stopped(Error::Aborted { operation }, attempts));
            }
        };
        result.map_err(|failure| base_path_hint(failure.of(resend), &self.base_path))
    }
}
