//! `estatekit/auth` (feature `auth`: the module of the package's server entry only): the grants
//! of the token endpoint and the token provider that gets, keeps and refreshes an access token.
//!
//! The provider hands out its cached access token until it is due (its expiry minus a margin),
//! then refreshes: concurrent callers share one grant. With a `store` that several processes
//! share, one of them takes the store's claim and refreshes while the others wait for the token
//! set it stores; a process that dies holding the claim loses it when the claim expires. The
//! password grant is made only when there is no refresh token, or the service refused it.
//!
//! The signed-in staff's own token sets (`createUserTokens().fresh(set)`) are refreshed by
//! [`user_tokens`], a child module (this file holds the grants and the service account's
//! provider; the child reuses their private parts without widening them).

use super::answer::Answer;
use super::api_error::Failure;
use super::call_events::Events;
use super::input::required;
use super::js;
use super::pipeline::{self, Call, Hooks, Pipeline, Retry};
use super::transport::{self, Waited};
use crate::api::auth::{
    check_token_set, grant_request, is_invalid_grant, refresh_rejected, Grant, DEFAULT_SCOPE,
};
use crate::api::retry::RetryPolicy;
use crate::api::BaseUrl;
use crate::error::{limit, redact, Error};
use crate::model::auth::{
    refresh_margin, AuthorizationCode, GrantOptions, GrantType, PasswordCredentials,
    StoreOperation, TokenEvent, TokenProviderOptions, TokenSet, TokenSignal,
};
use crate::model::events::TokenReason;
use crate::model::options::AccessToken;
use crate::model::Input;
use js_sys::{Array, Function, Promise};
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::AbortSignal;

mod user_tokens;

/// Timeout of one grant request unless the options give one.
const DEFAULT_TIMEOUT_MS: u32 = 30_000;
/// How long before expiry the access token is refreshed unless the options say.
const DEFAULT_REFRESH_BEFORE_MS: u32 = 60_000;
/// The longest a store call may take before the provider goes on without the store.
const STORE_TIMEOUT_MS: u32 = 2_000;
/// After the store failed, how long the provider does without it before asking it again.
const STORE_BACKOFF_MS: f64 = 5_000.0;
/// How often a provider waiting for another process's refresh reads the store.
const POLL_MS: u32 = 100;
/// Repeats of a failed grant where repeating is safe (`GrantType::resend`).
const GRANT_RETRIES: u32 = 2;
/// The longest wait between two attempts of a grant (`Retry-After` included).
const GRANT_MAX_DELAY_MS: u32 = 5_000;

fn invalid(field: &str, reason: &str) -> Failure {
    Error::invalid(field, reason).into()
}

/// Reads a caller's input whose fields include secrets: a wrong type is reported without the
/// value serde would quote.
fn secret_input<T: Input>(name: &str, value: JsValue) -> Result<T, Failure> {
    required(name, value).map_err(|error| match error {
        Error::InvalidInput { field, reason }
            if reason != "is required"
                && ["password", "clientSecret", "refreshToken", "code"]
                    .iter()
                    .any(|secret| field.ends_with(secret)) =>
        {
            // An `undefined` or `null` given for it (serde's "unit value", `input::input`'s words).
            let missing = reason.starts_with("is missing");
            invalid(
                &field,
                if missing {
                    "is required"
                } else {
                    "must be a string"
                },
            )
        }
        other => other.into(),
    })
}

/// A short text for a JavaScript exception or rejection (its `message`, or its string form).
fn describe(err: &JsValue) -> String {
    let text = js::get(err, "message")
        .as_string()
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "it failed".into());
    limit(&text, 200)
}

/// `error` with each of `secrets` hidden wherever it quotes something (an answer's code and
/// message, a decode reason, a network failure's reason).
fn hide_error(error: Error, secrets: &[&str]) -> Error {
    secrets.iter().fold(error, |error, secret| match error {
        Error::Network {
            operation,
            host,
            reason,
        } => Error::Network {
            operation,
            host,
            reason: redact(reason, secret),
        },
        Error::CallerFetch { operation, reason } => Error::CallerFetch {
            operation,
            reason: redact(reason, secret),
        },
        other => other.redacted(secret),
    })
}

/// `failure` with each of `secrets` hidden in its message and its `details`.
fn hide(mut failure: Failure, secrets: &[&str]) -> Failure {
    failure.error = hide_error(failure.error, secrets);
    if !failure.call.details.is_undefined() {
        let details = std::mem::take(&mut failure.call.details);
        failure.call.details = secrets
            .iter()
            .fold(details, |value, secret| js::redact_value(value, secret));
    }
    failure
}

/// What observes one round of getting tokens (estatekit/otel's, given by the JavaScript wrapper
/// of `getToken` and `fresh` only while something observes; internal): `tell` is told the
/// round's `TokenEvent`s and `TokenSignal`s, and `send`, if there, sends its grant requests, as
/// `send(fetch, url, init, callId)` (it must call `fetch(url, init)` at once and return what that
/// returns: estatekit/otel's runs it with tracing suppressed, so that an app's fetch
/// instrumentation makes no second span of it).
#[derive(Clone)]
struct Observer {
    tell: Function,
    send: Option<Function>,
}

impl Observer {
    /// The observer of the wrapper's `tell` and `send`: none without `tell`.
    fn of(tell: Option<Function>, send: Option<Function>) -> Option<Observer> {
        tell.map(|tell| Observer { tell, send })
    }
}

/// Who is told about one round of getting tokens: the `onEvent` listener given at construction,
/// and the [`Observer`] of the call that started the round. Nothing is built when neither is
/// there.
#[derive(Clone, Default)]
struct Listeners {
    on_event: Option<Function>,
    observer: Option<Observer>,
}

impl Listeners {
    /// Tells both a `TokenEvent` (one JavaScript object for both).
    fn emit(&self, event: impl FnOnce() -> TokenEvent) {
        if self.on_event.is_none() && self.observer.is_none() {
            return;
        }
        let value = js::to_js(&event());
        let observer = self.observer.as_ref().map(|o| &o.tell);
        for listener in self.on_event.iter().chain(observer) {
            js::notify(listener, &value);
        }
    }

    /// Tells the observer alone what `onEvent` is not told.
    fn signal(&self, signal: TokenSignal) {
        if let Some(observer) = &self.observer {
            js::notify(&observer.tell, &js::to_js(&signal));
        }
    }
}

/// Who grants are made for, and how they are sent.
struct Target {
    base: BaseUrl,
    client_id: String,
    client_secret: String,
    scope: String,
    timeout_ms: u32,
    fetch: Option<Function>,
}

impl Target {
    fn new(
        base_url: &str,
        client_id: String,
        client_secret: String,
        scope: Option<String>,
        timeout_ms: Option<u32>,
        fetch: Option<Function>,
    ) -> Result<Target, Failure> {
        Ok(Target {
            base: BaseUrl::parse(base_url)?,
            client_id,
            client_secret,
            scope: scope.unwrap_or_else(|| DEFAULT_SCOPE.into()),
            timeout_ms: timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
            fetch,
        })
    }

    /// The longest one grant may take with a timeout: every attempt its whole `timeout_ms`, and
    /// the longest wait between attempts.
    fn grant_budget_ms(&self) -> u32 {
        (GRANT_RETRIES + 1)
            .saturating_mul(self.timeout_ms)
            .saturating_add(GRANT_RETRIES.saturating_mul(GRANT_MAX_DELAY_MS))
    }

    /// How long a store's claim to refresh lasts: the holder's whole round (the grant with all
    /// its attempts and waits, its store calls) and a margin. A holder that dies loses it then.
    fn claim_ms(&self) -> u32 {
        self.grant_budget_ms()
            .saturating_add(STORE_TIMEOUT_MS.saturating_mul(4))
            .saturating_add(5_000)
    }

    /// Makes one grant, repeating it where that is safe (`GrantType::resend`, at most
    /// [`GRANT_RETRIES`] times, honouring `Retry-After` up to 5 s), and checks the answer.
    /// Every failure has the client secret and the grant's own secret hidden.
    async fn grant(
        &self,
        grant: Grant<'_>,
        signal: Option<&AbortSignal>,
        listeners: &Listeners,
    ) -> Result<TokenSet, Failure> {
        let kind = grant.kind();
        let mut secrets = grant.secrets();
        secrets.push(&self.client_secret);
        let request = grant_request(&self.base, &self.client_id, &self.client_secret, grant)
            .map_err(|e| hide(e.into(), &secrets))?;
        let used_refresh_token = match grant {
            Grant::Refresh { refresh_token } => Some(refresh_token),
            _ => None,
        };
        // A grant's pipeline: no token (the credentials are in the body), no rate limit, the
        // grant type's own repeats, a timeout per request.
        let pipeline = Pipeline {
            origin: self.base.origin().to_owned(),
            base_path: String::new(),
            tokens: None,
            policy: RetryPolicy {
                limit: GRANT_RETRIES,
                base_delay_ms: 250,
                max_delay_ms: GRANT_MAX_DELAY_MS,
            },
            on_retry: None,
            fetch: self.fetch.clone(),
            // The round's observer sends the grant request (see [`Observer`]).
            hooks: RefCell::new(Hooks {
                send: listeners.observer.as_ref().and_then(|o| o.send.clone()),
                ask: None,
            }),
            rate: None,
            bearer: Default::default(),
        };
        let set = RefCell::new(None);
        // The status of the answer being checked: a grant that gave a set tells it too.
        let answered = Cell::new(None);
        let check = |answer: &Answer| {
            answered.set(Some(answer.status));
            let tokens = checked(answer, kind, answer.sent_at, used_refresh_token)?;
            set.replace(Some(tokens));
            Ok(JsValue::UNDEFINED)
        };
        let told = |result: &Result<JsValue, Failure>, started: f64| {
            listeners.emit(|| {
                let (kind_failed, status) = match result {
                    Ok(_) => (None, answered.get()),
                    Err(f) => (Some(f.error.kind()), f.error.status()),
                };
                TokenEvent::Grant {
                    grant: kind,
                    ok: result.is_ok(),
                    kind: kind_failed,
                    status,
                    duration_ms: js::now_precise() - started,
                }
            });
        };
        let call = Call {
            per_attempt: true,
            attempted: Some(&told),
            ..Call::new(signal.cloned(), self.timeout_ms)
        };
        let operation = pipeline::Exchange {
            request: &request,
            retry: Retry::Grant(kind),
            check: &check,
        };
        // The client's request events are not a grant's: it reports `TokenEvent`s.
        let events = Events::of_grant();
        let result = pipeline.run(&operation, &call, &events).await;
        result.map_err(|f| hide(f, &secrets))?;
        set.take().ok_or_else(|| {
            Error::Decode {
                operation: grant.operation(),
                status: 200,
                reason: "the answer was not checked".into(),
            }
            .into()
        })
    }
}

/// The token set of a grant's answer, or its failure.
fn checked(
    answer: &Answer,
    kind: GrantType,
    sent_at: f64,
    used_refresh_token: Option<&str>,
) -> Result<TokenSet, Failure> {
    if !answer.ok() {
        return Err(answer.status_failure());
    }
    answer.json()?;
    check_token_set(
        kind,
        answer.status,
        &answer.bytes(),
        sent_at,
        used_refresh_token,
    )
    .map_err(|e| answer.fail(e))
}

/// Runs a grant function's future as a promise of a `TokenSet` object.
fn grant_promise(
    future: impl std::future::Future<Output = Result<TokenSet, Failure>> + 'static,
) -> Promise {
    future_to_promise(async move {
        future
            .await
            .map(|set| js::to_js(&set))
            .map_err(Failure::into_js)
    })
}

/// Reads a grant function's options.
fn grant_target(options: JsValue) -> Result<(Target, Option<AbortSignal>), Failure> {
    let options: GrantOptions = secret_input("options", options)?;
    let signal = options.signal.map(|s| s.cast::<AbortSignal>().clone());
    let fetch = options.fetch.map(|f| f.cast::<Function>().clone());
    let target = Target::new(
        &options.base_url,
        options.client_id,
        options.client_secret,
        options.scope,
        options.timeout_ms,
        fetch,
    )?;
    Ok((target, signal))
}

/// Signs a user in with the password grant (servers only).
#[wasm_bindgen(js_name = passwordGrant, unchecked_return_type = "Promise<TokenSet>")]
pub fn password_grant(options: Ts<GrantOptions>, credentials: Ts<PasswordCredentials>) -> Promise {
    let (options, credentials) = (options.js_value(), credentials.js_value());
    grant_promise(async move {
        let (target, signal) = grant_target(options)?;
        let credentials: PasswordCredentials = secret_input("credentials", credentials)?;
        let grant = Grant::Password {
            username: &credentials.username,
            password: &credentials.password,
            scope: &target.scope,
        };
        target
            .grant(grant, signal.as_ref(), &Listeners::default())
            .await
    })
}

/// Gets a new access token with a refresh token (RFC 6749 §6). When the answer carries no new
/// refresh token, the set keeps the one given.
#[wasm_bindgen(js_name = refreshGrant, unchecked_return_type = "Promise<TokenSet>")]
pub fn refresh_grant(
    options: Ts<GrantOptions>,
    #[wasm_bindgen(js_name = refreshToken, unchecked_param_type = "string")] refresh_token: JsValue,
) -> Promise {
    let options = options.js_value();
    grant_promise(async move {
        let (target, signal) = grant_target(options)?;
        let refresh_token = refresh_token
            .as_string()
            .ok_or_else(|| invalid("refreshToken", "must be a string"))?;
        let grant = Grant::Refresh {
            refresh_token: &refresh_token,
        };
        target
            .grant(grant, signal.as_ref(), &Listeners::default())
            .await
    })
}

/// Exchanges the code of the sign-in dialog (`/accounts/dialog/authorize`) for tokens.
#[wasm_bindgen(
    js_name = authorizationCodeGrant,
    unchecked_return_type = "Promise<TokenSet>"
)]
pub fn authorization_code_grant(options: Ts<GrantOptions>, code: Ts<AuthorizationCode>) -> Promise {
    let (options, code) = (options.js_value(), code.js_value());
    grant_promise(async move {
        let (target, signal) = grant_target(options)?;
        let code: AuthorizationCode = secret_input("code", code)?;
        let grant = Grant::AuthorizationCode {
            code: &code.code,
            redirect_uri: &code.redirect_uri,
        };
        target
            .grant(grant, signal.as_ref(), &Listeners::default())
            .await
    })
}

/// A token set as the store keeps it (JSON text), with the lifetime its answer gave (the
/// refresh margin is at most a quarter of it).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stored {
    tokens: TokenSet,
    lifetime_ms: f64,
}

/// Why the store did not give a token set.
enum Shared {
    /// The store failed or was too slow: go on without it.
    Unavailable,
    /// This provider's own grant failed while it held the claim.
    Failed(Failure),
}

/// What a provider knows now.
#[derive(Default)]
struct State {
    /// The current token set and its lifetime in milliseconds.
    set: Option<(TokenSet, f64)>,
    /// The best refresh token known: the set's, a stored one, or the option's.
    refresh_token: Option<String>,
    /// An access token the service refused (`getToken("unauthorized")`, `invalidate()`).
    stale: Option<String>,
    /// The grant (or store round) in progress, shared by every caller.
    pending: Option<Promise>,
    /// The observer of the call that started the round in progress (see [`Listeners`]).
    observer: Option<Observer>,
    /// Until when the store is not asked (it failed recently), `Date.now()` ms.
    store_resume_at: f64,
    closed: bool,
}

struct Provider {
    target: Target,
    username: Option<String>,
    password: Option<String>,
    store: Option<JsValue>,
    /// The store key of this base URL, client and user's token set.
    key: String,
    refresh_before_ms: f64,
    on_event: Option<Function>,
    state: RefCell<State>,
}

/// Gets, keeps and refreshes the access token of one user of one OAuth client (see the module's
/// documentation). Made by `createTokenProvider` in `estatekit/auth`.
#[wasm_bindgen]
pub struct TokenProvider {
    inner: Rc<Provider>,
}

impl Provider {
    /// Who is told about the round in progress.
    fn listeners(&self) -> Listeners {
        Listeners {
            on_event: self.on_event.clone(),
            observer: self.state.borrow().observer.clone(),
        }
    }

    fn emit(&self, event: impl FnOnce() -> TokenEvent) {
        self.listeners().emit(event);
    }

    /// `text` with every secret the provider holds hidden (for what it reports of the store).
    fn hide_all(&self, text: String) -> String {
        let state = self.state.borrow();
        let mut secrets: Vec<&str> = vec![&self.target.client_secret];
        secrets.extend(self.password.as_deref());
        secrets.extend(state.refresh_token.as_deref());
        if let Some((set, _)) = &state.set {
            secrets.push(&set.access_token);
            secrets.extend(set.refresh_token.as_deref());
        }
        secrets
            .iter()
            .fold(text, |text, secret| redact(text, secret))
    }

    fn store_failed(&self, operation: StoreOperation, reason: String) {
        let reason = self.hide_all(reason);
        self.emit(|| TokenEvent::StoreUnavailable { operation, reason });
    }

    /// Whether `set` may be handed out now: not refused, and not yet due for refreshing.
    fn usable(&self, set: &TokenSet, lifetime_ms: f64, stale: Option<&str>) -> bool {
        let margin = refresh_margin(self.refresh_before_ms, Some(lifetime_ms));
        stale != Some(set.access_token.as_str()) && js::now_ms() < set.expires_at - margin
    }

    fn usable_now(&self, set: &TokenSet, lifetime_ms: f64) -> bool {
        let stale = self.state.borrow().stale.clone();
        self.usable(set, lifetime_ms, stale.as_deref())
    }

    /// The cached token set while its access token is valid for another second and was not
    /// refused.
    fn still_valid(&self) -> Option<(TokenSet, f64)> {
        let state = self.state.borrow();
        let (set, lifetime) = state.set.as_ref()?;
        let valid = js::now_ms() < set.expires_at - 1_000.0;
        (valid && state.stale.as_deref() != Some(set.access_token.as_str()))
            .then(|| (set.clone(), *lifetime))
    }

    /// `getToken(reason)`; a round it starts tells `observer` too.
    async fn get(
        self: Rc<Self>,
        reason: JsValue,
        observer: Option<Observer>,
    ) -> Result<JsValue, JsValue> {
        let reason: Option<TokenReason> = if js::is_nullish(&reason) {
            None
        } else {
            Some(serde_wasm_bindgen::from_value(reason).map_err(|_| {
                invalid(
                    "reason",
                    "must be \"initial\", \"unauthorized\" or \"expiring\"",
                )
                .into_js()
            })?)
        };
        let promise = {
            let mut state = self.state.borrow_mut();
            if state.closed {
                return Err(invalid("tokenProvider", "this token provider was closed").into_js());
            }
            if reason == Some(TokenReason::Unauthorized) {
                // The service refused the token: never hand it out again.
                if let Some((set, _)) = state.set.take() {
                    state.stale = Some(set.access_token);
                }
            } else if let Some((set, lifetime)) = &state.set {
                if self.usable(set, *lifetime, state.stale.as_deref()) {
                    return Ok(access_token(set));
                }
            }
            match &state.pending {
                Some(pending) => pending.clone(),
                None => {
                    state.observer = observer;
                    let pending = future_to_promise(self.clone().obtain());
                    state.pending = Some(pending.clone());
                    pending
                }
            }
        };
        JsFuture::from(promise).await
    }

    /// One shared round of getting a token set; its result is cached for the next callers.
    async fn obtain(self: Rc<Self>) -> Result<JsValue, JsValue> {
        let result = self.obtain_set().await;
        let mut state = self.state.borrow_mut();
        state.pending = None;
        state.observer = None;
        let (set, lifetime) = result.map_err(Failure::into_js)?;
        let value = access_token(&set);
        if !state.closed {
            if set.refresh_token.is_some() {
                state.refresh_token = set.refresh_token.clone();
            }
            state.stale = None;
            state.set = Some((set, lifetime));
        }
        Ok(value)
    }

    async fn obtain_set(&self) -> Result<(TokenSet, f64), Failure> {
        if let Some(store) = &self.store {
            if js::now_ms() >= self.state.borrow().store_resume_at {
                match self.through_store(store).await {
                    Ok(found) => return Ok(found),
                    Err(Shared::Failed(failure)) => return Err(failure),
                    Err(Shared::Unavailable) => {
                        self.state.borrow_mut().store_resume_at = js::now_ms() + STORE_BACKOFF_MS;
                    }
                }
            }
            // Without the store, the cached token serves while it is valid (a refresh now could
            // race the other processes'); only an expired or refused one is refreshed here.
            if let Some(cached) = self.still_valid() {
                return Ok(cached);
            }
        }
        self.grant_now().await
    }

    /// The token set through the store: a usable stored one, or this provider's grant under the
    /// store's claim, or the one another process stores while it holds the claim. The claim
    /// outlasts the holder's whole grant, retries included ([`Target::claim_ms`]); a waiter asks
    /// for the claim again at each look, so it takes over as soon as the claim of a holder that
    /// died expires. Bounded: after twice the claim's lifetime it goes on without the store.
    async fn through_store(&self, store: &JsValue) -> Result<(TokenSet, f64), Shared> {
        let claim_ms = self.target.claim_ms();
        let give_up = js::now_ms() + 2.0 * f64::from(claim_ms);
        let claim_key = format!("{}:refreshing", self.key);
        let mut waiting = false;
        loop {
            if let Some(found) = self.read_store(store).await? {
                return Ok(found);
            }
            let claimed = self
                .call_store(store, "claim", &[(&claim_key).into(), claim_ms.into()])
                .await
                .map_err(|reason| {
                    self.store_failed(StoreOperation::Claim, reason);
                    Shared::Unavailable
                })?;
            if let Some(owner) = claimed.as_string() {
                // Another process may have stored a set between the read and the claim.
                let result = match self.read_store(store).await {
                    Ok(Some(found)) => Ok(found),
                    _ => self.grant_now().await,
                };
                if let Ok((set, lifetime)) = &result {
                    self.write_store(store, set, *lifetime).await;
                }
                let released = self
                    .call_store(store, "release", &[(&claim_key).into(), owner.into()])
                    .await;
                if let Err(reason) = released {
                    self.store_failed(StoreOperation::Release, reason);
                }
                return result.map_err(Shared::Failed);
            }
            // Another process holds the claim: look again for what it stores, and for the claim
            // (free again once the holder released it or its claim expired).
            if js::now_ms() > give_up {
                self.store_failed(
                    StoreOperation::Claim,
                    "another process held the claim to refresh for too long".into(),
                );
                return Err(Shared::Unavailable);
            }
            if !waiting {
                waiting = true;
                self.listeners().signal(TokenSignal::StoreWait);
            }
            transport::delay(POLL_MS, None).await;
        }
    }

    /// The stored token set when it is usable; remembers its refresh token either way.
    async fn read_store(&self, store: &JsValue) -> Result<Option<(TokenSet, f64)>, Shared> {
        let value = self
            .call_store(store, "get", &[self.key.as_str().into()])
            .await
            .map_err(|reason| {
                self.store_failed(StoreOperation::Get, reason);
                Shared::Unavailable
            })?;
        if js::is_nullish(&value) {
            return Ok(None);
        }
        let stored = value
            .as_string()
            .ok_or_else(|| "not a string".to_owned())
            .and_then(|text| js_sys::JSON::parse(&text).map_err(|_| "not JSON".to_owned()))
            .and_then(|parsed| {
                serde_wasm_bindgen::from_value::<Stored>(parsed)
                    .map_err(|e| crate::api::status::serde_message(&e))
            });
        let stored = match stored {
            Ok(stored) => stored,
            Err(reason) => {
                // Overwritten by the next grant.
                self.store_failed(
                    StoreOperation::Get,
                    format!("the stored token set is not valid ({reason})"),
                );
                return Ok(None);
            }
        };
        if let Some(refresh_token) = &stored.tokens.refresh_token {
            self.state.borrow_mut().refresh_token = Some(refresh_token.clone());
        }
        if self.usable_now(&stored.tokens, stored.lifetime_ms) {
            let expires_at = stored.tokens.expires_at;
            self.emit(|| TokenEvent::Shared { expires_at });
            return Ok(Some((stored.tokens, stored.lifetime_ms)));
        }
        Ok(None)
    }

    async fn write_store(&self, store: &JsValue, set: &TokenSet, lifetime_ms: f64) {
        let stored = Stored {
            tokens: set.clone(),
            lifetime_ms,
        };
        let text = js_sys::JSON::stringify(&js::to_js(&stored)).map(JsValue::from);
        let written = match text {
            Ok(text) => self
                .call_store(store, "set", &[self.key.as_str().into(), text])
                .await
                .map(drop),
            Err(_) => Err("the token set could not be written as JSON".into()),
        };
        if let Err(reason) = written {
            self.store_failed(StoreOperation::Set, reason);
        }
    }

    /// Calls `store[method](...args)` ([`call_store`]).
    async fn call_store(
        &self,
        store: &JsValue,
        method: &str,
        args: &[JsValue],
    ) -> Result<JsValue, String> {
        call_store(store, method, args).await
    }

    /// A grant now: with the best refresh token known, else (or when the service refuses it)
    /// with the password when the options gave one.
    async fn grant_now(&self) -> Result<(TokenSet, f64), Failure> {
        let refresh_token = self.state.borrow().refresh_token.clone();
        let listeners = self.listeners();
        let sent = js::now_ms();
        let lifetime = |set: TokenSet| {
            let lifetime = set.lifetime_ms.unwrap_or(set.expires_at - sent);
            (set, lifetime)
        };
        if let Some(refresh_token) = refresh_token {
            let grant = Grant::Refresh {
                refresh_token: &refresh_token,
            };
            match self.target.grant(grant, None, &listeners).await {
                Ok(set) => return Ok(lifetime(set)),
                Err(failure) if is_invalid_grant(&failure.error) => {
                    // Unknown, expired or deleted (the cap of 50 per client and user).
                    let mut state = self.state.borrow_mut();
                    if state.refresh_token.as_deref() == Some(refresh_token.as_str()) {
                        state.refresh_token = None;
                    }
                    if self.password.is_none() {
                        return Err(Failure {
                            error: refresh_rejected(failure.error),
                            ..failure
                        });
                    }
                }
                Err(failure) => return Err(failure),
            }
        }
        match (&self.username, &self.password) {
            (Some(username), Some(password)) => {
                let grant = Grant::Password {
                    username,
                    password,
                    scope: &self.target.scope,
                };
                self.target
                    .grant(grant, None, &listeners)
                    .await
                    .map(lifetime)
            }
            _ => Err(invalid(
                "options",
                "there is no refresh token to use: give username and password, or a refreshToken",
            )),
        }
    }
}

/// Calls `store[method](...args)`, bounded by [`STORE_TIMEOUT_MS`]: what it resolved with, or why
/// it failed. (The answer's shape is checked by `estatekit/store`'s `checkedStore`, which every
/// store given to estatekit goes through.)
async fn call_store(store: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let function: Function = js::get(store, method)
        .dyn_into()
        .map_err(|_| format!("store.{method} is not a function"))?;
    let args: Array = args.iter().collect();
    let returned = function
        .apply(store, &args)
        .map_err(|e| format!("store.{method} threw: {}", describe(&e)))?;
    match transport::wait(
        Some(&Promise::resolve(&returned)),
        Some(STORE_TIMEOUT_MS),
        None,
    )
    .await
    {
        Waited::Done(Ok(value)) => Ok(value),
        Waited::Done(Err(e)) => Err(format!("store.{method} failed: {}", describe(&e))),
        _ => Err(format!(
            "store.{method} did not answer within {STORE_TIMEOUT_MS} ms"
        )),
    }
}

/// `{ token, expiresAt }` of a set.
fn access_token(set: &TokenSet) -> JsValue {
    js::to_js(&AccessToken {
        token: set.access_token.clone(),
        expires_at: set.expires_at,
    })
}

#[wasm_bindgen]
impl TokenProvider {
    /// Makes a provider (nothing is sent before the first `getToken`); invalid options throw an
    /// `ApiError` of kind `invalid_input`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Ts<TokenProviderOptions>) -> Result<TokenProvider, JsValue> {
        TokenProvider::create(options.js_value()).map_err(Failure::into_js)
    }

    fn create(options: JsValue) -> Result<TokenProvider, Failure> {
        let options: TokenProviderOptions = secret_input("options", options)?;
        let function = |f: Option<crate::model::Callback>| f.map(|f| f.cast::<Function>().clone());
        match (&options.username, &options.password) {
            (Some(_), None) => {
                return Err(invalid("options.password", "is required with username"))
            }
            (None, Some(_)) => {
                return Err(invalid("options.username", "is required with password"))
            }
            _ => {}
        }
        if options.username.is_none() && options.refresh_token.is_none() && options.store.is_none()
        {
            return Err(invalid(
                "options",
                "give username and password, or a refreshToken, or a store that holds a token set",
            ));
        }
        for (field, value) in [
            ("options.username", &options.username),
            ("options.password", &options.password),
            ("options.refreshToken", &options.refresh_token),
        ] {
            if value.as_deref() == Some("") {
                return Err(invalid(field, "must not be empty"));
            }
        }
        let target = Target::new(
            &options.base_url,
            options.client_id,
            options.client_secret,
            options.scope,
            options.timeout_ms,
            function(options.fetch),
        )?;
        if target.client_id.is_empty() || target.client_secret.is_empty() {
            let field = if target.client_id.is_empty() {
                "options.clientId"
            } else {
                "options.clientSecret"
            };
            return Err(invalid(field, "must not be empty"));
        }
        // The key names no secret: the base URL's origin, the client and the user.
        let key = format!(
            "tokens:{}:{}:{}",
            target.base.as_str(),
            target.client_id,
            options.username.as_deref().unwrap_or("-")
        );
        Ok(TokenProvider {
            inner: Rc::new(Provider {
                target,
                username: options.username,
                password: options.password,
                store: options.store.map(|s| s.value().clone()),
                key,
                refresh_before_ms: f64::from(
                    options
                        .refresh_before_ms
                        .unwrap_or(DEFAULT_REFRESH_BEFORE_MS),
                ),
                on_event: function(options.on_event),
                state: RefCell::new(State {
                    refresh_token: options.refresh_token,
                    ..State::default()
                }),
            }),
        })
    }

    /// The access token and when it expires: the cached one while it is not due, else a new one
    /// (one grant shared by concurrent callers). `"unauthorized"` (the client's call after a
    /// 401) gets a new one even if the cached one looked valid. `tell` and `send` (internal: the
    /// wrapper's, while estatekit/otel observes; see [`Observer`]) are told the events and
    /// signals of the round this call starts, and send its grant requests (a call that joins a
    /// round in progress or gets the cached token starts none).
    #[wasm_bindgen(js_name = getToken, unchecked_return_type = "Promise<AccessToken>")]
    pub fn get_token(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TokenReason | undefined")] reason: JsValue,
        tell: Option<Function>,
        send: Option<Function>,
    ) -> Promise {
        future_to_promise(self.inner.clone().get(reason, Observer::of(tell, send)))
    }

    /// Forgets the cached access token: the next `getToken` gets a new one (the refresh token is
    /// kept).
    pub fn invalidate(&self) {
        let mut state = self.inner.state.borrow_mut();
        if let Some((set, _)) = state.set.take() {
            state.stale = Some(set.access_token);
        }
    }

    /// Stops the provider: its tokens are dropped and every later `getToken` rejects.
    pub fn close(&self) {
        let mut state = self.inner.state.borrow_mut();
        state.closed = true;
        state.set = None;
        state.refresh_token = None;
        state.stale = None;
    }

    /// The base URL the provider gets tokens for (normalised).
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.target.base.as_str().to_owned()
    }

    /// The OAuth client's id.
    #[wasm_bindgen(getter, js_name = clientId)]
    pub fn client_id(&self) -> String {
        self.inner.target.client_id.clone()
    }
}
