//! The `Client` class JavaScript sees. Each method parses its arguments, asks `crate::api`
//! for the request, runs it through the transport and checks the answer with `crate::api`.

use super::answer::Answer;
use super::errors::Failure;
use super::events::Events;
use super::js::{self, optional, required};
use super::rate::{Rate, Stop};
use super::transport::{self, Outgoing, Waited};
use crate::api::response::{self, LIST_KEYS};
use crate::api::retry::RetryPolicy;
use crate::api::url::check_http_url;
use crate::api::{self, documents, messages, webhooks, BaseUrl, HttpRequest};
use crate::error::{ApiErrorKind, Error};
use crate::model::client::{CallOptions, ClientOptions, Operation, RetryEvent, TokenReason};
use crate::model::documents::{ListDocumentsQuery, UploadDocumentInput, UploadOptions};
use crate::model::messages::{MessageFilter, MessagesOptions};
use crate::model::webhooks::{RegisterWebhookInput, Webhook};
use js_sys::{Function, Promise};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

const DEFAULT_TIMEOUT_MS: u32 = 30_000;

/// A client for one account of the service.
#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

struct Inner {
    base: BaseUrl,
    token: RefCell<Option<Rc<str>>>,
    /// When to ask `getToken` again (`Date.now()` ms), and when the token expires: set from an
    /// `expiresAt` that `getToken` gave, else never.
    renew_at: Cell<f64>,
    expires_at: Cell<f64>,
    get_token: Option<Function>,
    /// A `getToken` call in progress, shared by every request waiting for it.
    pending_token: RefCell<Option<Promise>>,
    timeout_ms: u32,
    retry: RetryPolicy,
    on_retry: Option<Function>,
    /// The client's `onEvent`.
    on_event: Option<Function>,
    /// The `fetch` option, used instead of the global `fetch`.
    fetch: Option<Function>,
    rate: Option<Rate>,
}

impl fmt::Debug for Inner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base.as_str())
            .field("token", &"[redacted]")
            .field("timeout_ms", &self.timeout_ms)
            .finish()
    }
}

fn invalid(field: &str, reason: &str) -> Failure {
    Error::invalid(field, reason).into()
}

/// A string id argument, checked.
fn id_arg(field: &str, value: &JsValue) -> Result<String, Failure> {
    value
        .as_string()
        .ok_or_else(|| invalid(field, "must be a string"))
}

/// An optional `Ts<T>` argument as the JavaScript value it is (`undefined` when absent).
fn given<T: tsify::Tsify>(value: Option<Ts<T>>) -> JsValue
where
    <T as tsify::Tsify>::JsType: JsCast,
{
    value.map_or(JsValue::UNDEFINED, |v| v.js_value())
}

/// Runs `fut` as a JavaScript promise that rejects with an `ApiError`, telling the call's
/// listeners how it ended (boxed, so that every method shares one promise adapter).
fn promise(
    events: Rc<Events>,
    fut: Pin<Box<dyn Future<Output = Result<JsValue, Failure>>>>,
) -> Promise {
    future_to_promise(async move {
        let result = fut.await;
        events.finish(&result);
        result.map_err(Failure::into_js)
    })
}

/// How an answer (of any status) becomes a call's result.
type Decode = fn(&Answer) -> Result<JsValue, Failure>;

/// The parsed body of a 2xx answer; any other status is the call's failure.
fn ok_json(answer: &Answer) -> Result<JsValue, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    answer.json()
}

/// The result of a deletion: `undefined` for a 2xx answer (its body is not read).
fn deleted(answer: &Answer) -> Result<JsValue, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    Ok(JsValue::UNDEFINED)
}

/// The array of a list answer: the body itself, or the first of [`LIST_KEYS`] holding an
/// array; with where it was found (for error paths).
fn list_array(answer: &Answer, body: JsValue) -> Result<(&'static str, JsValue), Failure> {
    if js_sys::Array::is_array(&body) {
        return Ok(("", body));
    }
    if body.is_object() {
        for key in LIST_KEYS {
            let inner = js::get(&body, key);
            if js_sys::Array::is_array(&inner) {
                return Ok((key, inner));
            }
        }
    }
    let got = if body.is_null() {
        "null".into()
    } else if body.is_object() {
        "an object without one".into()
    } else {
        format!("a {}", body.js_typeof().as_string().unwrap_or_default())
    };
    Err(answer.fail(response::not_a_list(answer.operation, answer.status, &got)))
}

/// The decoded webhook list of a 2xx answer, and the browser's own array.
fn webhooks_of(answer: &Answer, body: JsValue) -> Result<(Vec<Webhook>, JsValue), Failure> {
    let (at, array) = list_array(answer, body)?;
    let list =
        webhooks::check_list(answer.status, at, &answer.bytes()).map_err(|e| answer.fail(e))?;
    Ok((list, array))
}

/// The checked webhook list of a 2xx answer.
fn webhook_list(answer: &Answer) -> Result<JsValue, Failure> {
    webhooks_of(answer, ok_json(answer)?).map(|(_, array)| array)
}

/// The checked document list of a 2xx answer.
fn document_list(answer: &Answer) -> Result<JsValue, Failure> {
    let (at, array) = list_array(answer, ok_json(answer)?)?;
    documents::check_list(answer.status, at, &answer.bytes()).map_err(|e| answer.fail(e))?;
    Ok(array)
}

/// The checked document record of a 2xx `getDocument` answer.
fn document_record(answer: &Answer) -> Result<JsValue, Failure> {
    record(documents::GET, answer)
}

/// The checked document record of a 2xx `uploadDocument` answer.
fn uploaded_record(answer: &Answer) -> Result<JsValue, Failure> {
    record(documents::UPLOAD, answer)
}

fn record(operation: &'static str, answer: &Answer) -> Result<JsValue, Failure> {
    let body = ok_json(answer)?;
    documents::check_record(operation, answer.status, &answer.bytes())
        .map_err(|e| answer.fail(e))?;
    Ok(body)
}

/// The checked `data.messages` of a GraphQL answer. GraphQL errors win, with HTTP 200 or not.
fn messages_of(answer: &Answer) -> Result<JsValue, Failure> {
    let parsed = answer.json();
    let checked = match &parsed {
        Ok(_) if answer.ok() => messages::check_answer(answer.status, &answer.bytes()).map(drop),
        Ok(_) => messages::check_errors(answer.status, &answer.bytes()),
        Err(_) => Ok(()),
    };
    match (checked, parsed) {
        (Err(error @ Error::Graphql { .. }), Ok(value)) => {
            let data = js::get(&value, "data");
            let errors = answer.for_error(js::get(&value, "errors"));
            let mut failure = answer.fail(error).with_details(Some(errors));
            failure.data = (!js::is_nullish(&data)).then(|| answer.for_error(data));
            Err(failure)
        }
        (Err(error), _) => Err(answer.fail(error)),
        (Ok(()), _) if !answer.ok() => Err(answer.status_failure()),
        (Ok(()), parsed) => Ok(js::get(&js::get(&parsed?, "data"), "messages")),
    }
}

/// Per-call settings taken from an options object.
struct Call {
    signal: Option<AbortSignal>,
    timeout_ms: u32,
    /// An upload's file and file name.
    file: Option<(web_sys::Blob, String)>,
    /// An upload's `onProgress`.
    progress: Option<Function>,
}

impl Inner {
    /// The events of a new call of `operation` (its own listener is added once its options
    /// are read).
    fn events(&self, operation: Operation) -> Rc<Events> {
        Rc::new(Events::new(operation, self.on_event.as_ref()))
    }

    fn call(&self, options: JsValue, events: &Events) -> Result<Call, Failure> {
        let parsed: CallOptions = optional("options", options)?;
        events.listen(parsed.on_event.as_ref().map(|f| f.cast::<Function>()));
        Ok(Call {
            signal: parsed.signal.map(|s| s.cast::<AbortSignal>().clone()),
            timeout_ms: parsed.timeout_ms.unwrap_or(self.timeout_ms),
            file: None,
            progress: None,
        })
    }

    /// The current token, asking `getToken("initial")` the first time, and `getToken("expiring")`
    /// once it is due for renewal (a token that is still valid is used if that fails).
    async fn token(&self, out: &Outgoing<'_>, deadline: Option<f64>) -> Result<Rc<str>, Failure> {
        let current = self.token.borrow().clone();
        let reason = match &current {
            Some(token) if js::now_ms() < self.renew_at.get() => return Ok(token.clone()),
            Some(_) => TokenReason::Expiring,
            None => TokenReason::Initial,
        };
        match (self.fetch_token(reason, out, deadline).await, current) {
            (Err(_), Some(token)) if js::now_ms() < self.expires_at.get() => Ok(token),
            (result, _) => result,
        }
    }

    /// Calls `getToken(reason)`, or joins a call already in progress; gives up when the
    /// call's signal aborts or its deadline passes (the shared call goes on for others).
    async fn fetch_token(
        &self,
        reason: TokenReason,
        out: &Outgoing<'_>,
        deadline: Option<f64>,
    ) -> Result<Rc<str>, Failure> {
        let operation = out.request.operation;
        let Some(get_token) = &self.get_token else {
            return Err(invalid("options.token", "no token and no getToken"));
        };
        let pending = self.pending_token.borrow().clone();
        let promise = match pending {
            Some(p) => p,
            None => {
                let result = get_token.call1(&JsValue::NULL, &js::to_js(&reason));
                let p = match result {
                    Ok(v) => Promise::resolve(&v),
                    Err(e) => Promise::reject(&e),
                };
                self.pending_token.replace(Some(p.clone()));
                p
            }
        };
        let remaining = deadline.map(|d| (d - js::now_ms()).max(0.0).ceil() as u32);
        let outcome = match transport::wait(Some(&promise), remaining, out.signal).await {
            Waited::Done(outcome) => outcome,
            Waited::Aborted => return Err(Error::Aborted { operation }.into()),
            Waited::Elapsed => {
                return Err(Error::Timeout {
                    operation,
                    timeout_ms: out.timeout_ms,
                }
                .into())
            }
        };
        self.pending_token.replace(None);
        let value = outcome.map_err(|e| {
            let why = js::get(&e, "message")
                .as_string()
                .or_else(|| e.as_string())
                .unwrap_or_default();
            invalid(
                "options.getToken",
                &format!("failed: {}", response::limit(&why, 200)),
            )
        })?;
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

    /// The one place a request is sent: waits for its turn under the client-side rate limit,
    /// adds the current token, after a 401 asks `getToken("unauthorized")` once (shared by
    /// concurrent calls) and repeats once, and retries safe requests on network failures and
    /// retryable statuses with backoff. `out.timeout_ms` bounds the whole call (attempts,
    /// waits and `getToken`); aborting stops everything at once.
    async fn execute(&self, out: &Outgoing<'_>) -> Result<Answer, Failure> {
        let operation = out.request.operation;
        let deadline = (out.timeout_ms > 0).then(|| js::now_ms() + f64::from(out.timeout_ms));
        let remaining = || deadline.map(|d| d - js::now_ms());
        let stopped = |error: Error, attempts: u32| Failure {
            attempts,
            ..Failure::from(error)
        };
        let timed_out = || Error::Timeout {
            operation,
            timeout_ms: out.timeout_ms,
        };
        let with_attempts = |result: Result<Answer, Failure>, attempts: u32| match result {
            Ok(mut answer) => {
                answer.attempts = attempts;
                Ok(answer)
            }
            Err(mut failure) => {
                failure.attempts = attempts;
                Err(failure)
            }
        };
        let mut attempts = 0u32;
        let mut retries = 0u32;
        let mut refreshed = false;
        loop {
            if out.signal.is_some_and(AbortSignal::aborted) {
                return Err(stopped(Error::Aborted { operation }, attempts));
            }
            if let Some(rate) = &self.rate {
                if let Err(stop) = rate.turn(deadline, out.signal, out.events).await {
                    return Err(stopped(
                        match stop {
                            Stop::Aborted => Error::Aborted { operation },
                            Stop::Timeout => timed_out(),
                        },
                        attempts,
                    ));
                }
            }
            let token = match self.token(out, deadline).await {
                Ok(t) => t,
                Err(f) => return with_attempts(Err(f), attempts),
            };
            let left = match remaining() {
                Some(r) if r <= 0.0 => return Err(stopped(timed_out(), attempts)),
                Some(r) => r.ceil() as u32,
                None => 0,
            };
            let attempt = Outgoing {
                timeout_ms: left,
                ..*out
            };
            let (method, url) = (out.request.method, &out.request.url);
            let path = url.strip_prefix(self.base.origin()).unwrap_or(url);
            let sent = out.events.request(method, path, attempts + 1);
            let mut result = transport::send(token.clone(), &attempt, self.base.origin()).await;
            attempts += 1;
            if let Ok(answer) = &result {
                out.events.response(method, path, attempts, sent, answer);
            }
            if let Err(f) = &mut result {
                // The attempt's timer is the call's deadline: report the call's timeout.
                if let Error::Timeout { timeout_ms, .. } = &mut f.error {
                    *timeout_ms = out.timeout_ms;
                }
            }
            if let Ok(answer) = &result {
                if let Some(rate) = &self.rate {
                    rate.window().borrow_mut().observe(
                        js::now_ms(),
                        answer.header("x-ratelimit-remaining").as_deref(),
                        answer.header("x-ratelimit-reset").as_deref(),
                    );
                }
                if answer.status == 401 && self.get_token.is_some() && !refreshed {
                    refreshed = true;
                    let current = self.token.borrow().clone();
                    if current.as_ref().is_none_or(|t| *t == token) {
                        if let Err(f) = self
                            .fetch_token(TokenReason::Unauthorized, out, deadline)
                            .await
                        {
                            return Err(refresh_failed(answer, f, attempts));
                        }
                    }
                    continue;
                }
            }
            let reason = match &result {
                Ok(answer) if RetryPolicy::retries_status(answer.status) => {
                    let kind = if answer.status == 429 {
                        ApiErrorKind::RateLimited
                    } else {
                        ApiErrorKind::Http
                    };
                    Some((kind, Some(answer.status), answer.retry_after_ms()))
                }
                Err(f) if f.error.kind() == ApiErrorKind::Network => {
                    Some((ApiErrorKind::Network, None, None))
                }
                _ => None,
            };
            let Some((kind, status, retry_after)) = reason else {
                return with_attempts(result, attempts);
            };
            if !out.request.retry_safe || retries >= self.retry.limit {
                return with_attempts(result, attempts);
            }
            let wait = self
                .retry
                .delay_ms(retries, retry_after, js_sys::Math::random());
            if remaining().is_some_and(|r| f64::from(wait) >= r) {
                // No retry fits before the deadline: the last answer is the result.
                return with_attempts(result, attempts);
            }
            retries += 1;
            out.events.retry(attempts, wait, kind, status);
            self.report_retry(RetryEvent {
                operation: operation.into(),
                attempt: attempts,
                delay_ms: wait,
                kind,
                status,
            });
            if !transport::delay(wait, out.signal).await {
                return Err(stopped(Error::Aborted { operation }, attempts));
            }
        }
    }

    /// Tells `onRetry` (if any) about a retry; its exceptions are ignored.
    fn report_retry(&self, event: RetryEvent) {
        if let Some(on_retry) = &self.on_retry {
            js::notify(on_retry, &js::to_js(&event));
        }
    }

    /// Sends and requires a 2xx answer.
    async fn execute_ok(&self, out: &Outgoing<'_>) -> Result<Answer, Failure> {
        let answer = self.execute(out).await?;
        if answer.ok() {
            Ok(answer)
        } else {
            Err(answer.status_failure())
        }
    }

    /// The request and settings of a `messages` call.
    fn prepare_messages(
        &self,
        filter: JsValue,
        options: JsValue,
        events: &Events,
    ) -> Result<(HttpRequest, Call), Failure> {
        // Options first, so that the call's own listener hears of an invalid filter too.
        let opts: MessagesOptions = optional("options", options)?;
        events.listen(opts.on_event.as_ref().map(|f| f.cast::<Function>()));
        let filter: MessageFilter = required("filter", filter)?;
        let request = messages::request(&self.base, &filter, &opts)?;
        let call = Call {
            signal: opts.signal.map(|s| s.cast::<AbortSignal>().clone()),
            timeout_ms: opts.timeout_ms.unwrap_or(self.timeout_ms),
            file: None,
            progress: None,
        };
        Ok((request, call))
    }

    /// The request and settings of an `uploadDocument` call.
    fn prepare_upload(
        &self,
        input: JsValue,
        options: JsValue,
        events: &Events,
    ) -> Result<(HttpRequest, Call), Failure> {
        // Options first, so that the call's own listener hears of an invalid input too.
        let opts: UploadOptions = optional("options", options)?;
        events.listen(opts.on_event.as_ref().map(|f| f.cast::<Function>()));
        let input: UploadDocumentInput = required("input", input)?;
        let fields = documents::UploadFields {
            resource_path: input.resource_path,
            metadata: input.metadata,
            name: input.name,
            format: input.format.as_ref().map(documents::wire_name),
        };
        let request = documents::upload_request(&self.base, &fields)?;
        let file: web_sys::Blob = input.file.cast::<web_sys::Blob>().clone();
        let file_name = fields
            .name
            .or_else(|| js::get(&file, "name").as_string().filter(|n| !n.is_empty()))
            .unwrap_or_else(|| "upload".into());
        let call = Call {
            signal: opts.signal.map(|s| s.cast::<AbortSignal>().clone()),
            // Uploads have no total timeout unless the call asks for one.
            timeout_ms: opts.timeout_ms.unwrap_or(0),
            file: Some((file, file_name)),
            progress: opts.on_progress.map(|f| f.cast::<Function>().clone()),
        };
        Ok((request, call))
    }

    /// Lists webhooks; returns the decoded list (for the lookups of register and ensure).
    async fn webhooks(&self, call: &Call, events: &Events) -> Result<Vec<Webhook>, Failure> {
        let request = webhooks::list_request(&self.base);
        let answer = self
            .execute_ok(&self.outgoing(&request, call, events))
            .await?;
        let body = answer.json()?;
        webhooks_of(&answer, body).map(|(list, _)| list)
    }

    async fn register_webhook(
        &self,
        input: JsValue,
        options: JsValue,
        events: &Events,
    ) -> Result<JsValue, Failure> {
        let input: RegisterWebhookInput = required("input", input)?;
        let call = self.call(options, events)?;
        self.register(&input, &call, events)
            .await
            .map(|id| JsValue::from_str(&id))
    }

    async fn register(
        &self,
        input: &RegisterWebhookInput,
        call: &Call,
        events: &Events,
    ) -> Result<String, Failure> {
        let request = webhooks::register_request(&self.base, input)?;
        let answer = match self
            .execute_ok(&self.outgoing(&request, call, events))
            .await
        {
            Ok(answer) => answer,
            Err(mut failure) => {
                if matches!(
                    failure.error.kind(),
                    ApiErrorKind::Network | ApiErrorKind::Timeout
                ) {
                    failure.error = ambiguous(failure.error);
                }
                return Err(failure);
            }
        };
        if let Some(id) = answer
            .header("location")
            .as_deref()
            .and_then(webhooks::id_from_location)
        {
            return Ok(id);
        }
        if let Some(id) = webhooks::id_in_answer(&answer.bytes()) {
            return Ok(id);
        }
        // Location not readable (e.g. not CORS-exposed) and no id in the body: look it up.
        let listed = self.webhooks(call, events).await?;
        webhooks::find_registered(&listed, input).ok_or_else(|| {
            answer.fail(Error::Decode {
                operation: webhooks::REGISTER,
                status: answer.status,
                reason: "the webhook was registered, but the answer did not give its id (no readable Location header, no id in the body) and it is not in the list".into(),
            })
        })
    }

    async fn ensure_webhook(
        &self,
        input: JsValue,
        options: JsValue,
        events: &Events,
    ) -> Result<JsValue, Failure> {
        let input: RegisterWebhookInput = required("input", input)?;
        check_http_url("input.url", &input.url)?;
        let call = self.call(options, events)?;
        let listed = self.webhooks(&call, events).await?;
        if let Some(id) = webhooks::find_registered(&listed, &input) {
            return Ok(JsValue::from_str(&id));
        }
        self.register(&input, &call, events)
            .await
            .map(|id| JsValue::from_str(&id))
    }

    fn outgoing<'a>(
        &'a self,
        request: &'a HttpRequest,
        call: &'a Call,
        events: &'a Events,
    ) -> Outgoing<'a> {
        Outgoing {
            request,
            events,
            file: call.file.as_ref().map(|(blob, name)| (blob, name.as_str())),
            signal: call.signal.as_ref(),
            timeout_ms: call.timeout_ms,
            progress: call.progress.as_ref(),
            fetch: self.fetch.as_ref(),
        }
    }
}

/// The failure after a 401 whose token refresh failed: still `unauthorized` (something was
/// sent), saying why the refresh failed; aborts and timeouts during the refresh stay what
/// they are.
fn refresh_failed(answer: &Answer, refresh: Failure, attempts: u32) -> Failure {
    if matches!(
        refresh.error.kind(),
        ApiErrorKind::Aborted | ApiErrorKind::Timeout
    ) {
        return Failure {
            attempts,
            ..refresh
        };
    }
    let mut failure = answer.status_failure();
    failure.attempts = attempts;
    if let Error::Status { message, .. } = &mut failure.error {
        let why = refresh.error;
        *message = Some(match message.take() {
            Some(m) => format!("{m}; refreshing the token failed: {why}"),
            None => format!("refreshing the token failed: {why}"),
        });
    }
    failure
}

/// Rewrites a network/timeout failure of a registration: the request may have reached the
/// service, so the webhook may exist.
fn ambiguous(error: Error) -> Error {
    match error {
        Error::Network { reason, .. } => Error::Network {
            operation: webhooks::REGISTER,
            reason: format!(
                "{reason}; the webhook may have been created: call ensureWebhook({{type, url}}) \
                 to find it or register it without a duplicate"
            ),
        },
        Error::Timeout { timeout_ms, .. } => Error::Timeout {
            operation: "register webhook (the webhook may have been created: call ensureWebhook({type, url}) to find it or register it without a duplicate)",
            timeout_ms,
        },
        other => other,
    }
}

#[wasm_bindgen]
impl Client {
    /// Creates a client for one account; nothing is sent until a method is called. Invalid
    /// options throw an `ApiError` (kind `invalid_input`) once the module is initialised;
    /// before that, the first method call rejects with it.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Ts<ClientOptions>) -> Result<Client, JsValue> {
        Client::create(options.js_value()).map_err(Failure::into_js)
    }

    fn create(options: JsValue) -> Result<Client, Failure> {
        let opts: ClientOptions = required("options", options.clone())?;
        let base = BaseUrl::parse(&opts.base_url)?;
        match (&opts.token, &opts.get_token) {
            (Some(_), Some(_)) => {
                return Err(invalid("options", "give token or getToken, not both"))
            }
            (None, None) => return Err(invalid("options.token", "give token or getToken")),
            (Some(t), None) => api::check_token(t)?,
            (None, Some(_)) => {}
        }
        let defaults = RetryPolicy::default();
        let retry = opts.retry.unwrap_or_default();
        let retry = RetryPolicy {
            limit: retry.limit.unwrap_or(defaults.limit),
            base_delay_ms: retry.base_delay_ms.unwrap_or(defaults.base_delay_ms),
            max_delay_ms: retry.max_delay_ms.unwrap_or(defaults.max_delay_ms),
        };
        let rate = match opts.rate_limit {
            Some(r) if r.per_minute == 0 => {
                return Err(invalid("options.rateLimit.perMinute", "must be at least 1"))
            }
            Some(r) => Some(Rate::new(
                r.per_minute,
                &js::get(&options, "rateLimit"),
                base.origin(),
            )?),
            None => None,
        };
        let function = |f: Option<crate::model::Callback>| f.map(|f| f.cast::<Function>().clone());
        Ok(Client {
            inner: Rc::new(Inner {
                base,
                token: RefCell::new(opts.token.map(Rc::from)),
                renew_at: Cell::new(f64::INFINITY),
                expires_at: Cell::new(f64::INFINITY),
                get_token: function(opts.get_token),
                pending_token: RefCell::new(None),
                timeout_ms: opts.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
                retry,
                on_retry: function(opts.on_retry),
                on_event: function(opts.on_event),
                fetch: function(opts.fetch),
                rate,
            }),
        })
    }

    /// A call of one request whose answer (of any status) `decode` turns into the result:
    /// `prepare` reads the arguments (its errors reject the promise, like every later failure).
    /// All such methods share this one asynchronous body.
    fn simple(
        &self,
        operation: Operation,
        prepare: impl FnOnce(&Inner, &Events) -> Result<(HttpRequest, Call), Failure>,
        decode: Decode,
    ) -> Promise {
        let events = self.inner.events(operation);
        let prepared = prepare(&self.inner, &events);
        self.run_simple(events, prepared, decode)
    }

    /// [`Client::simple`] for a request on one resource named by a string id argument
    /// (`(argument name, value)`).
    fn by_id(
        &self,
        operation: Operation,
        (field, id): (&str, &JsValue),
        request: fn(&BaseUrl, &str) -> Result<HttpRequest, Error>,
        options: Option<Ts<CallOptions>>,
        decode: Decode,
    ) -> Promise {
        self.simple(
            operation,
            |inner, events| {
                let id = id_arg(field, id)?;
                Ok((
                    request(&inner.base, &id)?,
                    inner.call(given(options), events)?,
                ))
            },
            decode,
        )
    }

    /// Starts a call of `operation`: `body` gets the client's state and the call's events, and
    /// its future becomes the promise the method returns.
    fn run<F>(&self, operation: Operation, body: impl FnOnce(Rc<Inner>, Rc<Events>) -> F) -> Promise
    where
        F: Future<Output = Result<JsValue, Failure>> + 'static,
    {
        let events = self.inner.events(operation);
        let future = body(self.inner.clone(), events.clone());
        promise(events, Box::pin(future))
    }

    /// The non-generic part of [`Client::simple`], so that its future exists once.
    #[inline(never)]
    fn run_simple(
        &self,
        events: Rc<Events>,
        prepared: Result<(HttpRequest, Call), Failure>,
        decode: Decode,
    ) -> Promise {
        let inner = self.inner.clone();
        let call_events = events.clone();
        promise(
            events,
            Box::pin(async move {
                let (request, call) = prepared?;
                let answer = inner
                    .execute(&inner.outgoing(&request, &call, &call_events))
                    .await?;
                decode(&answer)
            }),
        )
    }

    /// The base URL the client talks to (normalised, without trailing slash).
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.base.as_str().to_owned()
    }

    /// Reads the messages of a conversation (GraphQL `messages`).
    #[wasm_bindgen(unchecked_return_type = "Promise<(Message | null)[]>")]
    pub fn messages(
        &self,
        filter: Ts<MessageFilter>,
        options: Option<Ts<MessagesOptions>>,
    ) -> Promise {
        let (filter, options) = (filter.js_value(), given(options));
        self.simple(
            Operation::Messages,
            |inner, events| inner.prepare_messages(filter, options, events),
            messages_of,
        )
    }

    /// Uploads a file (sent by the browser's `FormData`) with its metadata.
    #[wasm_bindgen(js_name = uploadDocument, unchecked_return_type = "Promise<DocumentRecord>")]
    pub fn upload_document(
        &self,
        input: Ts<UploadDocumentInput>,
        options: Option<Ts<UploadOptions>>,
    ) -> Promise {
        let (input, options) = (input.js_value(), given(options));
        self.simple(
            Operation::UploadDocument,
            |inner, events| inner.prepare_upload(input, options, events),
            uploaded_record,
        )
    }

    /// Lists documents' metadata, filtered.
    #[wasm_bindgen(js_name = listDocuments, unchecked_return_type = "Promise<DocumentRecord[]>")]
    pub fn list_documents(
        &self,
        query: Option<Ts<ListDocumentsQuery>>,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        self.simple(
            Operation::ListDocuments,
            |inner, events| {
                let query: ListDocumentsQuery = optional("query", given(query))?;
                Ok((
                    documents::list_request(&inner.base, &query)?,
                    inner.call(given(options), events)?,
                ))
            },
            document_list,
        )
    }

    /// Reads one document's metadata.
    #[wasm_bindgen(js_name = getDocument, unchecked_return_type = "Promise<DocumentRecord>")]
    pub fn get_document(
        &self,
        #[wasm_bindgen(js_name = documentId, unchecked_param_type = "string")] document_id: JsValue,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        self.by_id(
            Operation::GetDocument,
            ("documentId", &document_id),
            documents::get_request,
            options,
            document_record,
        )
    }

    /// Deletes a document.
    #[wasm_bindgen(js_name = deleteDocument, unchecked_return_type = "Promise<void>")]
    pub fn delete_document(
        &self,
        #[wasm_bindgen(js_name = documentId, unchecked_param_type = "string")] document_id: JsValue,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        self.by_id(
            Operation::DeleteDocument,
            ("documentId", &document_id),
            documents::delete_request,
            options,
            deleted,
        )
    }

    /// Lists the registered webhooks.
    #[wasm_bindgen(js_name = listWebhooks, unchecked_return_type = "Promise<Webhook[]>")]
    pub fn list_webhooks(&self, options: Option<Ts<CallOptions>>) -> Promise {
        self.simple(
            Operation::ListWebhooks,
            |inner, events| {
                Ok((
                    webhooks::list_request(&inner.base),
                    inner.call(given(options), events)?,
                ))
            },
            webhook_list,
        )
    }

    /// Registers a webhook; resolves with its id. Never retried automatically.
    #[wasm_bindgen(js_name = registerWebhook, unchecked_return_type = "Promise<string>")]
    pub fn register_webhook(
        &self,
        input: Ts<RegisterWebhookInput>,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        let (input, options) = (input.js_value(), given(options));
        self.run(Operation::RegisterWebhook, |inner, events| async move {
            inner.register_webhook(input, options, &events).await
        })
    }

    /// Returns the id of a webhook with this type and URL, registering one only if none exists.
    #[wasm_bindgen(js_name = ensureWebhook, unchecked_return_type = "Promise<string>")]
    pub fn ensure_webhook(
        &self,
        input: Ts<RegisterWebhookInput>,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        let (input, options) = (input.js_value(), given(options));
        self.run(Operation::EnsureWebhook, |inner, events| async move {
            inner.ensure_webhook(input, options, &events).await
        })
    }

    /// Deletes a webhook.
    #[wasm_bindgen(js_name = deleteWebhook, unchecked_return_type = "Promise<void>")]
    pub fn delete_webhook(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        options: Option<Ts<CallOptions>>,
    ) -> Promise {
        self.by_id(
            Operation::DeleteWebhook,
            ("id", &id),
            webhooks::delete_request,
            options,
            deleted,
        )
    }
}
