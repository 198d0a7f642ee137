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
use crate::error::{outcome_unknown, repeated, ApiErrorKind, Error, Resend};
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
            Retry::Grant(_) if !crate::error::grant_honours_wait(answer.status) => None,
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
    /// Every failure is marked with the operation's class, which its `retryable` follows.
    pub async fn run(
        &self,
        op: &Exchange<'_>,
        call: &Call<'_>,
        events: &Events,
    ) -> Result<JsValue, Failure> {
        let hooks = self.hooks.borrow().clone();
        let mut run = Run::new(self, op, call, events, &hooks);
        let result = run.settle().await;
        result.map_err(|failure| base_path_hint(failure.of(run.resend), &self.base_path))
    }
}

/// One run of an operation ([`Pipeline::run`]): its settings, and what its attempts told so
/// far. [`Run::settle`] takes the steps of each attempt in order; each step is a method named
/// in it (the awaits stay in `settle`: one future for the whole run).
struct Run<'r> {
    pipeline: &'r Pipeline,
    op: &'r Exchange<'r>,
    call: &'r Call<'r>,
    events: &'r Events,
    hooks: &'r Hooks,
    operation: &'static str,
    signal: Option<&'r AbortSignal>,
    /// When the whole call times out (`Date.now()` ms), if it does.
    deadline: Option<f64>,
    /// The request's path (its URL without the origin), for the events.
    path: &'r str,
    /// How the operation may be sent again (its retry class).
    resend: Resend,
    /// Requests sent so far.
    attempts: u32,
    /// Repeats so far (the one repeat after a 401's token refresh is not one).
    retries: u32,
    /// Whether a 401 has had its token refresh.
    refreshed: bool,
}

/// What one attempt came to: its checked outcome, the answer's status (none when nothing
/// answered), and the wait the answer asked for before a repeat.
type Attempt = (Result<JsValue, Failure>, Option<u16>, Option<u64>);

impl<'r> Run<'r> {
    fn new(
        pipeline: &'r Pipeline,
        op: &'r Exchange<'r>,
        call: &'r Call<'r>,
        events: &'r Events,
        hooks: &'r Hooks,
    ) -> Run<'r> {
        let deadline = call.until.or_else(|| {
            (call.timeout_ms > 0 && !call.per_attempt)
                .then(|| js::now_ms() + f64::from(call.timeout_ms))
        });
        let url = &op.request.url;
        Run {
            pipeline,
            op,
            call,
            events,
            hooks,
            operation: op.request.operation(),
            signal: call.signal.as_ref(),
            deadline,
            path: url.strip_prefix(pipeline.origin.as_str()).unwrap_or(url),
            resend: op.retry.resend(),
            attempts: 0,
            retries: 0,
            refreshed: false,
        }
    }

    /// Sends attempts until one settles the call: its success, or a failure not repeated.
    async fn settle(&mut self) -> Result<JsValue, Failure> {
        loop {
            // Rate limit.
            self.unless_aborted()?;
            if let Some(rate) = &self.pipeline.rate {
                let turn = rate.turn(self.deadline, self.signal, self.events).await;
                turn.map_err(|stop| self.rate_stopped(stop))?;
            }
            // Token: for a grant an empty one (no `Authorization` header: its credentials are in
            // its body).
            let token: Rc<str> = match &self.pipeline.tokens {
                Some(tokens) => match tokens.current(self.bounds()).await {
                    Ok(token) => token,
                    Err(failure) => return Err(failure.after(self.attempts)),
                },
                None => Rc::from(""),
            };
            // Deadline, send.
            let attempt = self.outgoing(self.attempt_timeout()?);
            let started = self.announce();
            let authorization = self.pipeline.bearer.of(&token);
            let origin = &self.pipeline.origin;
            let sent = transport::send(token.clone(), &authorization, &attempt, origin).await;
            self.attempts += 1;
            let (outcome, status, asked) = match sent {
                Ok(mut answer) => {
                    self.answered(&mut answer, started);
                    if let Some(tokens) = self.refreshes(&answer) {
                        if let Err(failure) = tokens.renew(&token, self.bounds()).await {
                            return Err(refresh_failed(&answer, failure, self.attempts));
                        }
                        continue;
                    }
                    self.check(&answer)
                }
                Err(failure) => self.unanswered(failure),
            };
            if let Some(attempted) = self.call.attempted {
                attempted(&outcome, started);
            }
            let failure = match outcome {
                Ok(value) => return Ok(value),
                Err(failure) => failure,
            };
            let kind = failure.error.kind();
            // The outcome is known when an answer tells it, or the platform proved the request
            // was never sent.
            let known = status.is_some() || failure.unsent;
            if !self.repeats(kind, status, known) {
                return Err(self.unrepeated(failure, kind, known));
            }
            let Some(wait) = self.backoff_wait(asked) else {
                // No retry fits before the deadline: the last answer is the result.
                return Err(failure);
            };
            self.retrying(wait, kind, status);
            if !transport::delay(wait, self.signal).await {
                return Err(self.aborted());
            }
        }
    }

    /// The failure of the call stopped before an answer (aborted, timed out).
    fn stopped(&self, error: Error) -> Failure {
        stopped(error, self.attempts, self.signal)
    }

    /// The failure of the call aborted by its caller.
    fn aborted(&self) -> Failure {
        self.stopped(Error::Aborted {
            operation: self.operation,
        })
    }

    /// The failure of the call past its timeout.
    fn timed_out(&self) -> Failure {
        self.stopped(Error::Timeout {
            operation: self.operation,
            timeout_ms: self.call.timeout_ms,
        })
    }

    /// What is left before the call's deadline, in milliseconds, if it has one.
    fn remaining(&self) -> Option<f64> {
        self.deadline.map(|d| d - js::now_ms())
    }

    /// Rate limit: an aborted call stops before its turn.
    fn unless_aborted(&self) -> Result<(), Failure> {
        match self.signal.is_some_and(AbortSignal::aborted) {
            true => Err(self.aborted()),
            false => Ok(()),
        }
    }

    /// Rate limit: the failure of a call stopped while it waited for its turn.
    fn rate_stopped(&self, stop: Stop) -> Failure {
        match stop {
            Stop::Aborted => self.aborted(),
            Stop::Timeout => self.timed_out(),
        }
    }

    /// Token: what bounds a `getToken` call (the call's signal, timeout and deadline).
    fn bounds(&self) -> Bounds<'r> {
        Bounds {
            operation: self.operation,
            signal: self.signal,
            timeout_ms: self.call.timeout_ms,
            deadline: self.deadline,
            events: Some(self.events),
            ask: self.hooks.ask.as_ref(),
        }
    }

    /// Deadline: the attempt's timeout in milliseconds (0 = none), the call's own for a grant's
    /// attempt, else what is left of the call's; a call past its deadline stops here.
    fn attempt_timeout(&self) -> Result<u32, Failure> {
        match self.remaining() {
            _ if self.call.per_attempt => Ok(self.call.timeout_ms),
            Some(r) if r <= 0.0 => Err(self.timed_out()),
            Some(r) => Ok(r.ceil() as u32),
            None => Ok(0),
        }
    }

    /// Send: the request of one attempt, with its timeout.
    fn outgoing(&self, timeout_ms: u32) -> Outgoing<'r> {
        let call = self.call;
        Outgoing {
            request: self.op.request,
            file: call.file.as_ref().map(|(blob, name)| (blob, name.as_str())),
            signal: self.signal,
            timeout_ms,
            progress: call.progress.as_ref(),
            fetch: self.pipeline.fetch.as_ref(),
            send: self.hooks.send.as_ref(),
            call_id: self.events.call_id(),
        }
    }

    /// Events: the request told to the call's events; returns when it started, for whoever is
    /// told its outcome (no clock otherwise).
    fn announce(&self) -> f64 {
        let events = self.events;
        events.request(self.op.request.method, self.path, self.attempts + 1);
        if events.listening() || self.call.attempted.is_some() {
            js::now_precise()
        } else {
            0.0
        }
    }

    /// Events: an answer told to the call's events and to the rate limit's window.
    fn answered(&self, answer: &mut Answer, started: f64) {
        answer.attempts = self.attempts;
        let method = self.op.request.method;
        (self.events).response(method, self.path, self.attempts, started, answer);
        if let Some(rate) = &self.pipeline.rate {
            rate.window().borrow_mut().observe(
                js::now_ms(),
                answer.header("x-ratelimit-remaining").as_deref(),
                answer.header("x-ratelimit-reset").as_deref(),
            );
        }
    }

    /// Refresh on 401: after the call's first 401, the tokens to renew when they can be
    /// (`getToken("unauthorized")`, shared by concurrent calls), the request then sent once more.
    fn refreshes(&mut self, answer: &Answer) -> Option<&'r Tokens> {
        if answer.status != 401 || self.refreshed {
            return None;
        }
        let tokens = self.pipeline.tokens.as_ref().filter(|t| t.renewable())?;
        self.refreshed = true;
        Some(tokens)
    }

    /// Check: the answer made the operation's result. The wait an answer asks for matters only
    /// before a repeat: a success's headers are not read.
    fn check(&self, answer: &Answer) -> Attempt {
        let outcome = (self.op.check)(answer);
        let asked = outcome
            .is_err()
            .then(|| self.op.retry.asked_wait(answer))
            .flatten();
        (outcome, Some(answer.status), asked)
    }

    /// Check: a request that got no answer. The attempt's timer is the call's deadline: a
    /// timeout reports the call's timeout.
    fn unanswered(&self, mut failure: Failure) -> Attempt {
        if let Error::Timeout { timeout_ms, .. } = &mut failure.error {
            *timeout_ms = self.call.timeout_ms;
        }
        (Err(failure.after(self.attempts)), None, None)
    }

    /// Retry decision: whether a failure is repeated, within the policy's number of repeats.
    /// The one rule is core's (`repeated`, `retryable` but for a timeout, which ends the call):
    /// an answer tells the outcome (`known`); without one, a request that is not idempotent may
    /// have acted, unless the platform proved it was never sent.
    fn repeats(&self, kind: ApiErrorKind, status: Option<u16>, known: bool) -> bool {
        repeated(kind, status, self.resend, known) && self.retries < self.pipeline.policy.limit
    }

    /// Unknown outcome: a failure that is not repeated is the call's; when core's
    /// `outcome_unknown` says the request may have acted, it is not retryable and says why.
    fn unrepeated(&self, failure: Failure, kind: ApiErrorKind, known: bool) -> Failure {
        if outcome_unknown(kind, self.resend, known, failure.call.attempts) {
            return failure.outcome_unknown(self.op.request.spec.unknown_outcome);
        }
        failure
    }

    /// Backoff: the wait before the next attempt (the answer's `asked`, else the policy's), or
    /// none when no repeat fits before the deadline.
    fn backoff_wait(&self, asked: Option<u64>) -> Option<u32> {
        let policy = &self.pipeline.policy;
        let wait = policy.delay_ms(self.retries, asked, self.op.retry.jitter());
        let late = self.remaining().is_some_and(|r| f64::from(wait) >= r);
        (!late).then_some(wait)
    }

    /// Backoff: the repeat counted and told to the call's events and to `onRetry`.
    fn retrying(&mut self, wait: u32, kind: ApiErrorKind, status: Option<u16>) {
        self.retries += 1;
        self.events.retry(self.attempts, wait, kind, status);
        if let Some(on_retry) = &self.pipeline.on_retry {
            let event = RetryEvent {
                operation: self.operation.into(),
                attempt: self.attempts,
                delay_ms: wait,
                kind,
                status,
            };
            js::notify(on_retry, &js::to_js(&event));
        }
    }
}
