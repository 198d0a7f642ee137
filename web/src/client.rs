//! The `Client` class JavaScript sees: the facade. Its methods are made from the operation table
//! (`client_methods!`); each operation's behaviour (a plain row's made from the row, any other's
//! in `does`) reads its arguments, asks `crate::api` for the request, and hands the pipeline the
//! operation as data (the request, its retry class, its answer's check from `results`);
//! `pipeline` sends it.

use super::answer::Answer;
use super::api_error::Failure;
use super::call_events::Events;
use super::input::{optional, required};
use super::js;
use super::pipeline::{self, Call, Check, Hooks, Pipeline};
use super::rate::Rate;
use super::results::{self, webhooks_of};
use super::token::Tokens;
use crate::api::retry::RetryPolicy;
use crate::api::url::check_http_url;
use crate::api::{self, documents, messages, webhooks, BaseUrl, HttpRequest};
use crate::error::Error;
use crate::model::documents::{ListDocumentsQuery, UploadDocumentInput, UploadOptions};
use crate::model::events::Operation;
use crate::model::messages::{MessageFilter, MessagesOptions};
use crate::model::options::{CallOptions, ClientOptions};
use crate::model::webhooks::RegisterWebhookInput;
use js_sys::{Function, Promise};
use std::fmt;
use std::future::Future;
use std::rc::Rc;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

const DEFAULT_TIMEOUT_MS: u32 = 30_000;

/// A client for one account of the service.
#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

struct Inner {
    base: BaseUrl,
    timeout_ms: u32,
    /// The client's `onEvent`.
    on_event: Option<Function>,
    /// How its requests are sent (the token, the retry policy, `onRetry`, `fetch`, the rate
    /// limit).
    pipeline: Rc<Pipeline>,
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

/// A shallow copy of a call's options without their `store` (the server build's
/// `ensureWebhook`).
#[cfg(feature = "server")]
fn without_store(options: JsValue) -> JsValue {
    let copy: JsValue =
        js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref()).into();
    let key = JsValue::from_str("store");
    let _ = js_sys::Reflect::delete_property(copy.unchecked_ref::<js_sys::Object>(), &key);
    copy
}

/// An optional `Ts<T>` argument as the JavaScript value it is (`undefined` when absent).
fn given<T: tsify::Tsify>(value: Option<Ts<T>>) -> JsValue
where
    <T as tsify::Tsify>::JsType: JsCast,
{
    value.map_or(JsValue::UNDEFINED, |v| v.js_value())
}

impl Inner {
    /// The events of a new call of `operation` (its own listener is added once its options
    /// are read).
    fn events(&self, operation: Operation) -> Rc<Events> {
        Rc::new(Events::new(operation, self.on_event.as_ref()))
    }

    fn call(&self, options: JsValue, events: &Events) -> Result<Call<'static>, Failure> {
        let parsed: CallOptions = optional("options", options)?;
        events.listen(parsed.on_event.as_ref().map(|f| f.cast::<Function>()));
        let signal = parsed.signal.map(|s| s.cast::<AbortSignal>().clone());
        Ok(Call::new(
            signal,
            parsed.timeout_ms.unwrap_or(self.timeout_ms),
        ))
    }

    /// Sends `request` and checks its answer with `check`.
    async fn send(
        &self,
        request: &HttpRequest,
        check: Check<'_>,
        call: &Call<'_>,
        events: &Events,
    ) -> Result<JsValue, Failure> {
        let operation = pipeline::Exchange::new(request, check);
        self.pipeline.run(&operation, call, events).await
    }

    /// The request and settings of a call of the messages query.
    fn prepare_messages(
        &self,
        (name, filter): (&str, JsValue),
        options: JsValue,
        events: &Events,
    ) -> Result<(HttpRequest, Call<'static>), Failure> {
        // Options first, so that the call's own listener hears of an invalid filter too.
        let opts: MessagesOptions = optional("options", options)?;
        events.listen(opts.on_event.as_ref().map(|f| f.cast::<Function>()));
        let filter: MessageFilter = required(name, filter)?;
        let request = messages::request(&self.base, &filter, &opts)?;
        let signal = opts.signal.map(|s| s.cast::<AbortSignal>().clone());
        let call = Call::new(signal, opts.timeout_ms.unwrap_or(self.timeout_ms));
        Ok((request, call))
    }

    /// The request and settings of an `uploadDocument` call.
    fn prepare_upload(
        &self,
        (name, input): (&str, JsValue),
        options: JsValue,
        events: &Events,
    ) -> Result<(HttpRequest, Call<'static>), Failure> {
        // Options first, so that the call's own listener hears of an invalid input too.
        let opts: UploadOptions = optional("options", options)?;
        events.listen(opts.on_event.as_ref().map(|f| f.cast::<Function>()));
        let input: UploadDocumentInput = required(name, input)?;
        let fields = documents::UploadFields {
            resource_path: input.resource_path,
            metadata: input.metadata,
            name: input.name,
            format: input.format.map(|f| f.as_str().to_owned()),
        };
        let request = documents::upload_request(&self.base, &fields)?;
        let file: web_sys::Blob = input.file.cast::<web_sys::Blob>().clone();
        let file_name = fields
            .name
            .or_else(|| js::get(&file, "name").as_string().filter(|n| !n.is_empty()))
            .unwrap_or_else(|| "upload".into());
        let call = Call {
            file: Some((file, file_name)),
            progress: opts.on_progress.map(|f| f.cast::<Function>().clone()),
            // Uploads have no total timeout unless the call asks for one.
            ..Call::new(
                opts.signal.map(|s| s.cast::<AbortSignal>().clone()),
                opts.timeout_ms.unwrap_or(0),
            )
        };
        Ok((request, call))
    }

    /// The id of the registered webhook of `input`'s type and URL, if the list has one.
    async fn find(
        &self,
        input: &RegisterWebhookInput,
        call: &Call<'_>,
        events: &Events,
    ) -> Result<Option<String>, Failure> {
        let request = webhooks::list_request(&self.base);
        let found = |answer: &Answer| {
            let (list, _) = webhooks_of(answer)?;
            let id = webhooks::find_registered(&list, input);
            Ok(id.map_or(JsValue::UNDEFINED, |id| JsValue::from_str(&id)))
        };
        Ok(self.send(&request, &found, call, events).await?.as_string())
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
        call: &Call<'_>,
        events: &Events,
    ) -> Result<String, Failure> {
        let request = webhooks::register_request(&self.base, input)?;
        let before = events.attempts();
        // A registration that got no answer is `outcome_unknown` (the pipeline's `Retry::Never`).
        let id = self
            .send(&request, &results::registered, call, events)
            .await?;
        if let Some(id) = id.as_string() {
            return Ok(id);
        }
        let (status, attempts) = (
            id.as_f64().unwrap_or(0.0) as u16,
            events.attempts() - before,
        );
        // Location not readable (e.g. not CORS-exposed) and no id in the body: look it up.
        self.find(input, call, events).await?.ok_or_else(|| {
            Failure::from(Error::Decode {
                operation: Operation::RegisterWebhook.phrase(),
                status,
                reason: "the webhook was registered, but the answer did not give its id (no readable Location header, no id in the body) and it is not in the list".into(),
            })
            .after(attempts)
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
        // `store` is read here (not by serde), the other options as every call's (a nullish
        // `store` is no unknown key).
        let store = js::get(&options, "store");
        #[cfg(not(feature = "server"))]
        if !js::is_nullish(&store) {
            return Err(invalid(
                "options.store",
                "needs the server build of estatekit (the `node` export condition: Node, Bun, Deno)",
            ));
        }
        #[cfg(feature = "server")]
        let options = match js::is_nullish(&store) {
            true => options,
            false => without_store(options),
        };
        let call = self.call(options, events)?;
        #[cfg(feature = "server")]
        if let Some(claim) = super::claim::Claim::new(store, self.base.origin(), &input)? {
            return self
                .ensure_claimed(&input, &claim, &call, events)
                .await
                .map(|id| JsValue::from_str(&id));
        }
        if let Some(id) = self.find(&input, &call, events).await? {
            return Ok(JsValue::from_str(&id));
        }
        self.register(&input, &call, events)
            .await
            .map(|id| JsValue::from_str(&id))
    }

    /// `ensureWebhook` under the store's claim (`super::claim`): claim, list, register when the
    /// list has none, release; while another holds the claim, wait and try again. The call's
    /// timeout and signal bound everything, waits and store calls included.
    #[cfg(feature = "server")]
    async fn ensure_claimed(
        &self,
        input: &RegisterWebhookInput,
        claim: &super::claim::Claim,
        call: &Call<'_>,
        events: &Events,
    ) -> Result<String, Failure> {
        use super::claim::{self, Away};
        let signal = call.signal.as_ref();
        let deadline = (call.timeout_ms > 0).then(|| js::now_ms() + f64::from(call.timeout_ms));
        let timed_out = || {
            Failure::from(Error::Timeout {
                operation: claim::ENSURE,
                timeout_ms: call.timeout_ms,
            })
            .after(events.attempts())
        };
        let aborted = || {
            let failure = Failure::from(Error::Aborted {
                operation: claim::ENSURE,
            })
            .after(events.attempts());
            match signal {
                Some(s) => failure.caused_by(s.reason()),
                None => failure,
            }
        };
        let mut pause = claim::first_pause();
        loop {
            let now = js::now_ms();
            if signal.is_some_and(AbortSignal::aborted) {
                return Err(aborted());
            }
            if deadline.is_some_and(|d| now >= d) {
                return Err(timed_out());
            }
            // The holder's list and register end by `until`; the claim outlasts them.
            let work = deadline.map_or(claim::WORK_MS, |d| (d - now).min(claim::WORK_MS));
            let owner = match claim.take(work + claim::MARGIN_MS, deadline, signal).await {
                Ok(owner) => owner,
                Err(Away::Aborted) => return Err(aborted()),
                Err(Away::Timeout) => return Err(timed_out()),
                Err(away) => {
                    claim::report(events, &away);
                    let (text, cause) = match away {
                        Away::Failed { text, cause, .. } => (text, cause),
                        _ => (String::new(), None),
                    };
                    return Err(claim::store_away(text, cause, events.attempts()));
                }
            };
            let Some(owner) = owner else {
                let now = js::now_ms();
                let wait = match deadline {
                    Some(d) if d - now <= 0.0 => return Err(timed_out()),
                    Some(d) => claim::jittered(pause).min(d - now),
                    None => claim::jittered(pause),
                };
                if !super::transport::delay(wait.ceil() as u32, signal).await {
                    return Err(aborted());
                }
                pause = claim::next_pause(pause);
                continue;
            };
            // (Without a timeout of the call's own, a timeout then names the work's bound.)
            let timeout_ms = match call.timeout_ms {
                0 => claim::WORK_MS as u32,
                ms => ms,
            };
            let work_call = Call {
                until: Some(now + work),
                ..Call::new(call.signal.clone(), timeout_ms)
            };
            let result = match self.find(input, &work_call, events).await {
                Ok(Some(id)) => Ok(id),
                Ok(None) => self.register(input, &work_call, events).await,
                Err(failure) => Err(failure),
            };
            // A registration whose outcome is unknown keeps the claim until it expires: the
            // service may still act on it, and the next holder lists after that.
            let unknown = matches!(&result, Err(f) if f.unknown_outcome.is_some());
            if !unknown {
                if let Err(away) = claim.release(&owner).await {
                    // The claim expires by itself; the others wait for it within their timeouts.
                    claim::report(events, &away);
                }
            }
            return result;
        }
    }
}

#[wasm_bindgen]
impl Client {
    /// Creates a client for one account; nothing is sent until a method is called. (The
    /// package's `Client` never throws: invalid options make every call reject with an
    /// `ApiError` of kind `invalid_input`.)
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
        let policy = RetryPolicy {
            limit: retry.max_retries.unwrap_or(defaults.limit),
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
        let pipeline = Pipeline {
            origin: base.origin().to_owned(),
            base_path: base
                .as_str()
                .get(base.origin().len()..)
                .unwrap_or("")
                .to_owned(),
            tokens: Some(Tokens::new(opts.token, function(opts.get_token))),
            policy,
            on_retry: function(opts.on_retry),
            fetch: function(opts.fetch),
            hooks: Default::default(),
            rate,
            bearer: Default::default(),
        };
        Ok(Client {
            inner: Rc::new(Inner {
                base,
                timeout_ms: opts.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
                on_event: function(opts.on_event),
                pipeline: Rc::new(pipeline),
            }),
        })
    }

    /// A call of one request whose answer (of any status) `check` turns into the result:
    /// `prepare` reads the arguments (its errors reject the promise, like every later failure).
    /// All such methods share the pipeline's one asynchronous body.
    fn simple(
        &self,
        operation: Operation,
        prepare: impl FnOnce(&Inner, &Events) -> Result<(HttpRequest, Call<'static>), Failure>,
        check: pipeline::CheckFn,
    ) -> Promise {
        let events = self.inner.events(operation);
        let prepared = prepare(&self.inner, &events);
        Pipeline::call(self.inner.pipeline.clone(), events, prepared, check)
    }

    /// Starts a call of `operation` of several requests: `body` gets the client's state and the
    /// call's events, and its future becomes the promise the method returns.
    fn run<F>(&self, operation: Operation, body: impl FnOnce(Rc<Inner>, Rc<Events>) -> F) -> Promise
    where
        F: Future<Output = Result<JsValue, Failure>> + 'static,
    {
        let events = self.inner.events(operation);
        let future = body(self.inner.clone(), events.clone());
        pipeline::promise(events, Box::pin(future))
    }

    /// Sets the hooks around each request's `fetch` call and each `getToken` call (`undefined`
    /// removes one): what the wrapper's undeclared `Symbol.for("estatekit.instrument")` method
    /// forwards, for `estatekit/otel` (see `pipeline::Hooks`). Not part of the API.
    #[wasm_bindgen(skip_typescript, js_name = __instrument)]
    pub fn instrument(&self, send: Option<Function>, ask: Option<Function>) {
        *self.inner.pipeline.hooks.borrow_mut() = Hooks { send, ask };
    }

    /// The base URL the client talks to (normalised, without trailing slash).
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.base.as_str().to_owned()
    }
}

/// The `Client` class's methods, one per row of the operation table (vocab/src/operations.rs),
/// made from the rows [`estatekit_vocab::operation_table`] gives: each method's doc is its row's
/// doc, its JavaScript name its row's `name`, its Rust name its row's `method`, its parameters its
/// row's `params` (a `string` is taken as the JavaScript value it is and checked by the behaviour,
/// any other type `T` as `Ts<T>`; `?` makes it optional) and its declared answer its row's
/// `returns`. Its body is its behaviour. A plain row's (one that names its answer's `check`:
/// `Operation::plain`) is made from the row: its one request is its route's
/// (`HttpRequest::plain`, or `HttpRequest::plain_by_id` with its one string id), its answer read
/// by `results::<check>`. Any other row's body hands the operation, its arguments and their names
/// to the function of [`does`] named as the row's `method`. (The rows' docs are `#[doc = "..."]`
/// attributes: a `///` comment passed through `macro_rules!` becomes a raw string, which
/// wasm-bindgen would copy into the declarations with its `r"`.)
macro_rules! client_methods {
    ({ $($rows:tt)* }) => {
        client_methods!(@rows [] $($rows)*);
    };
    (@rows [$($methods:tt)*]) => {
        #[wasm_bindgen]
        impl Client {
            $($methods)*
        }
    };
    (@rows [$($methods:tt)*]
        $(#[$($doc:tt)*])*
        $variant:ident {
            name: $name:tt,
            method: $method:ident,
            phrase: $phrase:tt,
            params: [$($params:tt)*],
            returns: $returns:tt,
            $(check: $check:ident,)?
            fields: $($row:tt)*
        }
        $($rows:tt)*
    ) => {
        client_methods!(@params [$($methods)*]
            { $(#[$($doc)*])* } ($variant $name $method $returns ($($check)?)) [] [] [] [$($params)*]
            $($rows)*);
    };
    // The row's parameters, one at a time, into the method's (`$decl`) and its arguments (`$arg`).
    // `EnsureWebhookOptions` is declared in TypeScript only (web/src/lib.rs: a call's options and
    // `store`, which `does::ensure_webhook` reads itself): read as `CallOptions`.
    (@params [$($methods:tt)*] { $($doc:tt)* } ($variant:ident $name:tt $method:ident $returns:tt $check:tt)
        [$($decl:tt)*] [$($arg:tt)*] [$($names:tt)*] [$param:ident ?: EnsureWebhookOptions $(, $($more:tt)*)?]
        $($rows:tt)*
    ) => {
        client_methods!(@params [$($methods)*] { $($doc)* } ($variant $name $method $returns $check)
            [$($decl)*
                #[wasm_bindgen(unchecked_optional_param_type = "EnsureWebhookOptions | null")]
                $param: Option<Ts<CallOptions>>,
            ]
            [$($arg)* given($param),]
            [$($names)* stringify!($param),]
            [$($($more)*)?]
            $($rows)*);
    };
    (@params [$($methods:tt)*] { $($doc:tt)* } ($variant:ident $name:tt $method:ident $returns:tt $check:tt)
        [$($decl:tt)*] [$($arg:tt)*] [$($names:tt)*] [$param:ident ?: $ts:ident $(, $($more:tt)*)?]
        $($rows:tt)*
    ) => {
        client_methods!(@params [$($methods)*] { $($doc)* } ($variant $name $method $returns $check)
            [$($decl)* $param: Option<Ts<$ts>>,]
            [$($arg)* given($param),]
            [$($names)* stringify!($param),]
            [$($($more)*)?]
            $($rows)*);
    };
    (@params [$($methods:tt)*] { $($doc:tt)* } ($variant:ident $name:tt $method:ident $returns:tt $check:tt)
        [$($decl:tt)*] [$($arg:tt)*] [$($names:tt)*] [$param:ident : string $(, $($more:tt)*)?]
        $($rows:tt)*
    ) => {
        client_methods!(@params [$($methods)*] { $($doc)* } ($variant $name $method $returns $check)
            [$($decl)* #[wasm_bindgen(unchecked_param_type = "string")] $param: JsValue,]
            [$($arg)* $param,]
            [$($names)* stringify!($param),]
            [$($($more)*)?]
            $($rows)*);
    };
    (@params [$($methods:tt)*] { $($doc:tt)* } ($variant:ident $name:tt $method:ident $returns:tt $check:tt)
        [$($decl:tt)*] [$($arg:tt)*] [$($names:tt)*] [$param:ident : $ts:ident $(, $($more:tt)*)?]
        $($rows:tt)*
    ) => {
        client_methods!(@params [$($methods)*] { $($doc)* } ($variant $name $method $returns $check)
            [$($decl)* $param: Ts<$ts>,]
            [$($arg)* $param.js_value(),]
            [$($names)* stringify!($param),]
            [$($($more)*)?]
            $($rows)*);
    };
    (@params [$($methods:tt)*] { $($doc:tt)* } ($variant:ident $name:tt $method:ident $returns:tt $check:tt)
        [$($decl:tt)*] [$($arg:tt)*] [$($names:tt)*] []
        $($rows:tt)*
    ) => {
        client_methods!(@rows [$($methods)*
            $($doc)*
            #[wasm_bindgen(js_name = $name, unchecked_return_type = $returns)]
            #[allow(non_snake_case)]
            pub fn $method(&self, $($decl)*) -> Promise {
                client_methods!(@body $check $method self $variant [$($arg)*] [$($names)*])
            }
        ] $($rows)*);
    };
    // A plain row's behaviour is made here from the row, by its arguments (the options, or a
    // string id and them): its one request (`HttpRequest::plain`, `plain_by_id`), its answer read
    // by `results::<check>`. Any other row's is its [`does`].
    (@body () $method:ident $self:ident $variant:ident [$($arg:tt)*] [$($names:tt)*]) => {
        does::$method($self, Operation::$variant, [$($arg)*], [$($names)*])
    };
    (@body ($check:ident) $method:ident $self:ident $variant:ident [$options:expr,] [$($names:tt)*]) => {
        $self.simple(Operation::$variant, |inner, events| {
            let request = HttpRequest::plain(Operation::$variant, &inner.base);
            Ok((request, inner.call($options, events)?))
        }, results::$check)
    };
    (@body ($check:ident) $method:ident $self:ident $variant:ident
        [$id:ident, $options:expr,] [$field:expr, $($names:tt)*]
    ) => {
        $self.simple(Operation::$variant, |inner, events| {
            let id = id_arg($field, &$id)?;
            let request = HttpRequest::plain_by_id(Operation::$variant, &inner.base, $field, &id)?;
            Ok((request, inner.call($options, events)?))
        }, results::$check)
    };
}

estatekit_vocab::operation_table!(client_methods!());

/// The own behaviour of each operation whose row is not plain, named as its row's `method`: what
/// its generated method (above) calls with the operation, its arguments' JavaScript values
/// (`undefined` for one left out) and their names as its row has them (what an error about an
/// argument names), in its row's order: how the arguments are read, which requests are built,
/// and which check reads the answer. (Each is inlined into its method. The options are named
/// `options` in every row, as a test of the table holds, and read by `Inner::call` or the
/// behaviour's own reading under that name.)
mod does {
    use super::*;

    #[inline(always)]
    pub(super) fn list_messages(
        client: &Client,
        op: Operation,
        [filter, options]: [JsValue; 2],
        [first, _]: [&'static str; 2],
    ) -> Promise {
        client.simple(
            op,
            |inner, events| inner.prepare_messages((first, filter), options, events),
            results::messages_of,
        )
    }

    #[inline(always)]
    pub(super) fn upload_document(
        client: &Client,
        op: Operation,
        [input, options]: [JsValue; 2],
        [first, _]: [&'static str; 2],
    ) -> Promise {
        client.simple(
            op,
            |inner, events| inner.prepare_upload((first, input), options, events),
            results::document_record,
        )
    }

    #[inline(always)]
    pub(super) fn list_documents(
        client: &Client,
        op: Operation,
        [query, options]: [JsValue; 2],
        [first, _]: [&'static str; 2],
    ) -> Promise {
        client.simple(
            op,
            |inner, events| {
                let query: ListDocumentsQuery = optional(first, query)?;
                Ok((
                    documents::list_request(&inner.base, &query)?,
                    inner.call(options, events)?,
                ))
            },
            results::document_list,
        )
    }

    #[inline(always)]
    pub(super) fn register_webhook(
        client: &Client,
        op: Operation,
        [input, options]: [JsValue; 2],
        _: [&'static str; 2],
    ) -> Promise {
        client.run(op, |inner, events| async move {
            inner.register_webhook(input, options, &events).await
        })
    }

    #[inline(always)]
    pub(super) fn ensure_webhook(
        client: &Client,
        op: Operation,
        [input, options]: [JsValue; 2],
        _: [&'static str; 2],
    ) -> Promise {
        client.run(op, |inner, events| async move {
            inner.ensure_webhook(input, options, &events).await
        })
    }
}
