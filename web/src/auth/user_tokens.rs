//! `createUserTokens(options).fresh(tokenSet, reason?)`: the token set a signed-in user's session
//! holds, handed back as it is while it is not due, else refreshed, with **one refresh grant per
//! refresh token** however many requests of the session ask at once.
//!
//! - In the process, concurrent callers holding the same refresh token share one round (single
//!   flight keyed by the SHA-256 of the token, never the token).
//! - Across processes, the round takes the store's claim on that hash; the others wait for the
//!   **successor** the winner stores under the hash of the old token, kept
//!   `successorRetentionMs`. The process that made a successor also keeps it in its memory for as
//!   long; a successor read from the store is read from it again at each look.
//! - A caller that arrives with a refresh token that was already rotated gets the newest set by
//!   following the chain of successors (old -> successor -> its successor ...), without a grant.
//! - A refresh token the service refuses (`invalid_grant`), with no successor kept, rejects with
//!   an `ApiError` marked `signInRequired: true`; so does a set without a refresh token, before
//!   any request. No other failure carries the marker.
//! - A store that fails or is slow is reported (`storeUnavailable`) and left aside for 5 s for
//!   claims and waiting: the process then refreshes by itself, still once per refresh token. A
//!   new successor is still written to it, and a refused refresh token still looks for one there.
//! - The chain of successors followed is bounded ([`MAX_HOPS`] links per `fresh`, joins
//!   included): a longer or circular chain in the store rejects, without the marker.

use super::{
    call_store, invalid, secret_input, Failure, Listeners, Observer, Shared, Target,
    DEFAULT_REFRESH_BEFORE_MS, POLL_MS, STORE_BACKOFF_MS,
};
use crate::api::auth::{expires_at_problem, is_invalid_grant, sign_in_rejected, token_hash, Grant};
use crate::error::{redact, Error};
use crate::js;
use crate::model::auth::{
    refresh_margin, HeldTokenSet, SignInRequired, StoreOperation, TokenEvent, TokenSet,
    TokenSignal, UserTokensOptions,
};
use crate::model::events::TokenReason;
use crate::transport;
use js_sys::{Function, Promise};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// How long a successor is kept unless the options say (15 minutes; see docs/auth.md, "Who
/// writes the new set back").
const DEFAULT_RETENTION_MS: u32 = 900_000;
/// The longest chain of successors followed by one `fresh`, joins included (the service keeps 50
/// refresh tokens per user).
const MAX_HOPS: u32 = 64;

/// What to do for a refresh token, after looking for its successors.
enum Step {
    /// Hand out this set: the newest down the chain, not due.
    Use(TokenSet),
    /// Refresh this refresh token: the given one (no usable successor, `hops` 0), or the newest
    /// set's, `hops` links down the chain.
    Refresh {
        /// The refresh token to refresh.
        token: String,
        /// The links followed to reach it.
        hops: u32,
    },
    /// The chain goes on past the links this `fresh` may still follow (too long, or circular).
    Endless,
}

/// How a round ended well.
enum Outcome {
    /// The set to hand out.
    Set(TokenSet),
    /// The newest set is due too: the round of its refresh token gives the answer (`hops` links
    /// down the chain).
    Join {
        /// The newest set's refresh token.
        token: String,
        /// The links followed to reach it.
        hops: u32,
    },
    /// The chain of successors is too long or circular: the round rejects.
    Endless,
}

impl Step {
    /// The round's outcome when this step ends it: a set to use, or another refresh token's
    /// round to join; `None` when `refresh_token` itself is to be refreshed.
    fn outcome(self, refresh_token: &str) -> Option<Outcome> {
        match self {
            Step::Use(set) => Some(Outcome::Set(set)),
            Step::Refresh { token, hops } if token != refresh_token => {
                Some(Outcome::Join { token, hops })
            }
            Step::Refresh { .. } => None,
            Step::Endless => Some(Outcome::Endless),
        }
    }
}

/// The error of a chain of successors longer than [`MAX_HOPS`] or circular (the store's content).
fn chain_too_long() -> Failure {
    invalid(
        "options.store",
        &format!(
            "its chain of successors is too long (more than {MAX_HOPS} links) or circular: the refresh token's successors lead back to it or go on without end"
        ),
    )
}

/// What a round looks for down the chain of successors, and who it tells.
#[derive(Clone, Copy)]
struct Look<'a> {
    /// An access token the service refused: a set holding it is not usable.
    stale: Option<&'a str>,
    /// The most links still to follow in this `fresh`.
    hops: u32,
    /// The observer of the `fresh` call that started the round (see [`Listeners`]).
    observer: Option<&'a Observer>,
}

struct Users {
    target: Target,
    store: Option<JsValue>,
    /// `user-tokens:<baseUrl>:<clientId>:`: the start of every store key (no secret).
    prefix: String,
    refresh_before_ms: f64,
    retention_ms: u32,
    on_event: Option<Function>,
    /// The round in progress per refresh-token hash.
    flights: RefCell<HashMap<String, Promise>>,
    /// Successors this process made (not those read from the store), per hash of the old
    /// refresh token, with the time (`Date.now()` ms) until which they are kept.
    successors: RefCell<HashMap<String, (TokenSet, f64)>>,
    /// Until when the store is left aside after it failed (`Date.now()` ms).
    store_resume_at: Cell<f64>,
}

/// The signed-in users' token sets of one OAuth client (see the module's documentation). Made by
/// `createUserTokens` in `estatekit/auth`.
#[wasm_bindgen]
pub struct UserTokens {
    inner: Rc<Users>,
}

#[wasm_bindgen]
impl UserTokens {
    /// Reads the options (nothing is sent); invalid ones throw an `ApiError` of kind
    /// `invalid_input`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Ts<UserTokensOptions>) -> Result<UserTokens, JsValue> {
        Users::create(options.js_value())
            .map(|users| UserTokens {
                inner: Rc::new(users),
            })
            .map_err(Failure::into_js)
    }

    /// The token set to use now: `tokenSet`'s values while it is not due, else the newest set (a
    /// successor already made, or one refresh shared by every caller holding the same refresh
    /// token). `"unauthorized"` (the service answered 401) refreshes a set that looked valid.
    /// `tell` and `send` (internal: the wrapper's, while estatekit/otel observes; see
    /// [`Observer`]) are told the events and signals of the rounds this call starts (not of a
    /// round in progress it joins), and send their grant requests.
    #[wasm_bindgen(unchecked_return_type = "Promise<TokenSet>")]
    pub fn fresh(
        &self,
        #[wasm_bindgen(js_name = tokenSet, unchecked_param_type = "HeldTokenSet")]
        token_set: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TokenReason | undefined")] reason: JsValue,
        tell: Option<Function>,
        send: Option<Function>,
    ) -> Promise {
        future_to_promise(
            self.inner
                .clone()
                .fresh(token_set, reason, Observer::of(tell, send)),
        )
    }

    /// The base URL the sets are refreshed at (normalised).
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

/// The JavaScript `ApiError` of `failure`, marked `signInRequired: true` when `sign_in`.
fn rejection(failure: Failure, sign_in: bool) -> JsValue {
    let error = failure.into_js();
    if sign_in {
        let marker = js::to_js(&SignInRequired {
            sign_in_required: true,
        });
        let target: &js_sys::Object = error.unchecked_ref();
        js_sys::Object::assign(target, marker.unchecked_ref());
    }
    error
}

/// Reads `fresh`'s token set; no error quotes a token.
fn held_set(value: JsValue) -> Result<TokenSet, Failure> {
    let shape = "must be a token set ({ accessToken, refreshToken, expiresAt })";
    if !value.is_object() {
        return Err(invalid("tokenSet", shape));
    }
    for (key, field) in [
        ("accessToken", "tokenSet.accessToken"),
        ("expiresAt", "tokenSet.expiresAt"),
    ] {
        if js::get(&value, key).is_undefined() {
            return Err(invalid(field, "is required"));
        }
    }
    let held: HeldTokenSet =
        serde_wasm_bindgen::from_value(value).map_err(|_| invalid("tokenSet", shape))?;
    let access_token = held
        .access_token
        .as_string()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| invalid("tokenSet.accessToken", "must be a non-empty string"))?;
    let refresh_token = if js::is_nullish(&held.refresh_token) {
        None
    } else {
        let text = held
            .refresh_token
            .as_string()
            .ok_or_else(|| invalid("tokenSet.refreshToken", "must be a string"))?;
        Some(text).filter(|t| !t.is_empty())
    };
    let expires_at = held.expires_at.as_f64().ok_or_else(|| {
        invalid(
            "tokenSet.expiresAt",
            "must be a number of milliseconds since the Unix epoch",
        )
    })?;
    if let Some(problem) = expires_at_problem(expires_at) {
        return Err(invalid("tokenSet.expiresAt", &problem));
    }
    let token_type = held
        .token_type
        .as_string()
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "Bearer".into());
    let lifetime_ms = if js::is_nullish(&held.lifetime_ms) {
        None
    } else {
        let lifetime = held
            .lifetime_ms
            .as_f64()
            .filter(|ms| ms.is_finite() && *ms > 0.0)
            .ok_or_else(|| {
                invalid(
                    "tokenSet.lifetimeMs",
                    "must be a positive number of milliseconds (the access token's lifetime when the set was obtained)",
                )
            })?;
        Some(lifetime)
    };
    Ok(TokenSet {
        access_token,
        refresh_token,
        expires_at,
        token_type,
        lifetime_ms,
    })
}

/// Whether `reason` asks for a refresh whatever the set's expiry (`"unauthorized"`).
fn forced(reason: &JsValue) -> Result<bool, Failure> {
    if js::is_nullish(reason) {
        return Ok(false);
    }
    let reason: TokenReason = serde_wasm_bindgen::from_value(reason.clone()).map_err(|_| {
        invalid(
            "reason",
            "must be \"unauthorized\" (after the service answered 401), \"initial\" or \"expiring\"",
        )
    })?;
    Ok(reason == TokenReason::Unauthorized)
}

impl Users {
    fn create(options: JsValue) -> Result<Users, Failure> {
        let options: UserTokensOptions = secret_input("options", options)?;
        let function = |f: Option<crate::model::Callback>| f.map(|f| f.cast::<Function>().clone());
        let target = Target::new(
            &options.base_url,
            options.client_id,
            options.client_secret,
            None,
            options.timeout_ms,
            function(options.fetch),
        )?;
        if target.client_id.is_empty() {
            return Err(invalid("options.clientId", "must not be empty"));
        }
        if target.client_secret.is_empty() {
            return Err(invalid("options.clientSecret", "must not be empty"));
        }
        if options.timeout_ms == Some(0) {
            return Err(invalid(
                "options.timeoutMs",
                "must be a positive number of milliseconds: a refresh shared by every caller and process must end (0, no timeout, is not accepted here)",
            ));
        }
        let retention_ms = options
            .successor_retention_ms
            .unwrap_or(DEFAULT_RETENTION_MS);
        if retention_ms == 0 {
            return Err(invalid(
                "options.successorRetentionMs",
                "must be a positive number of milliseconds",
            ));
        }
        // No secret in the keys: the base URL, the client id, then a refresh token's hash.
        let prefix = format!("user-tokens:{}:{}:", target.base.as_str(), target.client_id);
        Ok(Users {
            target,
            store: options.store.map(|s| s.value().clone()),
            prefix,
            refresh_before_ms: f64::from(
                options
                    .refresh_before_ms
                    .unwrap_or(DEFAULT_REFRESH_BEFORE_MS),
            ),
            retention_ms,
            on_event: function(options.on_event),
            flights: RefCell::default(),
            successors: RefCell::default(),
            store_resume_at: Cell::new(0.0),
        })
    }

    /// Who is told about a round: `onEvent` and the round's `observer`.
    fn listeners(&self, observer: Option<&Observer>) -> Listeners {
        Listeners {
            on_event: self.on_event.clone(),
            observer: observer.cloned(),
        }
    }

    fn emit(&self, observer: Option<&Observer>, event: impl FnOnce() -> TokenEvent) {
        self.listeners(observer).emit(event);
    }

    /// Reports a store failure (with the client secret and `secrets` hidden) and leaves the
    /// store aside for a while.
    fn store_failed(
        &self,
        observer: Option<&Observer>,
        operation: StoreOperation,
        reason: String,
        secrets: &[&str],
    ) {
        let reason = secrets
            .iter()
            .chain(std::iter::once(&self.target.client_secret.as_str()))
            .fold(reason, |text, secret| redact(text, secret));
        self.store_resume_at.set(js::now_ms() + STORE_BACKOFF_MS);
        self.emit(observer, || TokenEvent::StoreUnavailable {
            operation,
            reason,
        });
    }

    /// The store, unless there is none or it is left aside after a failure.
    fn live_store(&self) -> Option<JsValue> {
        self.store
            .clone()
            .filter(|_| js::now_ms() >= self.store_resume_at.get())
    }

    /// Whether `set` may be handed out now: not refused (`stale`), not due (`refreshBeforeMs`
    /// before it expires, at most a quarter of its lifetime where the set says it).
    fn usable(&self, set: &TokenSet, stale: Option<&str>) -> bool {
        let margin = refresh_margin(self.refresh_before_ms, set.lifetime_ms);
        stale != Some(set.access_token.as_str()) && js::now_ms() < set.expires_at - margin
    }

    /// `fresh(tokenSet, reason)`; the rounds it starts tell `observer` too.
    async fn fresh(
        self: Rc<Self>,
        token_set: JsValue,
        reason: JsValue,
        observer: Option<Observer>,
    ) -> Result<JsValue, JsValue> {
        let force = forced(&reason).map_err(Failure::into_js)?;
        let held = held_set(token_set).map_err(Failure::into_js)?;
        if !force && self.usable(&held, None) {
            return Ok(js::to_js(&held));
        }
        let Some(refresh_token) = held.refresh_token.clone() else {
            let error = Error::invalid(
                "tokenSet.refreshToken",
                "is missing: the set cannot be refreshed, the user must sign in again",
            );
            return Err(rejection(error.into(), true));
        };
        let stale = force.then(|| held.access_token.clone());
        let first = self.flight(
            refresh_token.clone(),
            stale.clone(),
            MAX_HOPS,
            observer.clone(),
        );
        let value = JsFuture::from(first).await?;
        let same = js::get(&value, "accessToken").as_string() == Some(held.access_token);
        if force && same {
            // This caller joined a round that did not know the token was refused: one of its own.
            return JsFuture::from(self.flight(refresh_token, stale, MAX_HOPS, observer)).await;
        }
        Ok(value)
    }

    /// The round for `refresh_token` in progress, or a new one: one per refresh token. A new
    /// round follows at most `hops` links of successors, the rounds it joins included, and tells
    /// `observer` (so do the rounds it starts to join).
    fn flight(
        self: &Rc<Self>,
        refresh_token: String,
        stale: Option<String>,
        hops: u32,
        observer: Option<Observer>,
    ) -> Promise {
        let hash = token_hash(&refresh_token);
        if let Some(pending) = self.flights.borrow().get(&hash) {
            return pending.clone();
        }
        let this = Rc::clone(self);
        let key = hash.clone();
        let promise = future_to_promise(async move {
            let look = Look {
                stale: stale.as_deref(),
                hops,
                observer: observer.as_ref(),
            };
            let result = this.settle(&refresh_token, &key, look).await;
            this.flights.borrow_mut().remove(&key);
            match result {
                Ok(Outcome::Set(set)) => Ok(js::to_js(&set)),
                Ok(Outcome::Join { token, hops: used }) if used < hops => {
                    JsFuture::from(this.flight(token, stale, hops - used, observer)).await
                }
                // No signInRequired marker: the user's sign-in is not what failed.
                Ok(Outcome::Join { .. } | Outcome::Endless) => Err(chain_too_long().into_js()),
                Err(failure) => {
                    let sign_in = is_invalid_grant(&failure.error);
                    Err(rejection(failure, sign_in))
                }
            }
        });
        self.flights.borrow_mut().insert(hash, promise.clone());
        promise
    }

    /// One round: a usable successor, else a refresh under the store's claim, else (no store,
    /// or it failed) a refresh by this process alone.
    async fn settle(
        &self,
        refresh_token: &str,
        hash: &str,
        look: Look<'_>,
    ) -> Result<Outcome, Failure> {
        if let Some(outcome) = self
            .step(refresh_token, hash, look, false)
            .await
            .outcome(refresh_token)
        {
            return Ok(outcome);
        }
        if let Some(store) = self.live_store() {
            match self.claimed(&store, refresh_token, hash, look).await {
                Ok(outcome) => return Ok(outcome),
                Err(Shared::Failed(failure)) => return Err(failure),
                Err(Shared::Unavailable) => {}
            }
        }
        self.refresh(refresh_token, hash, look).await
    }

    /// What to do for `refresh_token`, after following its successors (`always`: in the store
    /// even while it is left aside after a failure).
    async fn step(&self, refresh_token: &str, hash: &str, look: Look<'_>, always: bool) -> Step {
        match self.follow(hash, refresh_token, look, always).await {
            Err(()) => Step::Endless,
            Ok(None) => Step::Refresh {
                token: refresh_token.to_owned(),
                hops: 0,
            },
            Ok(Some((set, hops))) if self.usable(&set, look.stale) => {
                let expires_at = set.expires_at;
                self.emit(look.observer, || TokenEvent::Successor { hops, expires_at });
                Step::Use(set)
            }
            Ok(Some((set, hops))) => Step::Refresh {
                token: set
                    .refresh_token
                    .unwrap_or_else(|| refresh_token.to_owned()),
                hops,
            },
        }
    }

    /// The newest set down the chain of successors from `hash`, and how many links it took; an
    /// error when the chain goes on past `look.hops` links.
    async fn follow(
        &self,
        hash: &str,
        refresh_token: &str,
        look: Look<'_>,
        always: bool,
    ) -> Result<Option<(TokenSet, u32)>, ()> {
        let limit = look.hops;
        let mut key = hash.to_owned();
        let mut newest = None;
        for hops in 1..=limit.saturating_add(1) {
            let Some(set) = self
                .successor(&key, refresh_token, always, look.observer)
                .await
            else {
                break;
            };
            if hops > limit {
                return Err(());
            }
            let next = set.refresh_token.as_deref().map(token_hash);
            newest = Some((set, hops));
            match next {
                // A refresh that kept its refresh token is its own successor.
                Some(next) if next != key => key = next,
                _ => break,
            }
        }
        Ok(newest)
    }

    /// The successor kept under `hash`: in this process, else in the store (`always`: even while
    /// it is left aside after a failure; the call is still bounded by the store's timeout).
    async fn successor(
        &self,
        hash: &str,
        refresh_token: &str,
        always: bool,
        observer: Option<&Observer>,
    ) -> Option<TokenSet> {
        let kept = self.successors.borrow().get(hash).cloned();
        if let Some((set, until)) = kept {
            if js::now_ms() < until {
                return Some(set);
            }
        }
        let store = if always {
            self.store.clone()?
        } else {
            self.live_store()?
        };
        let key = format!("{}{hash}", self.prefix);
        let value = match call_store(&store, "get", &[key.into()]).await {
            Ok(value) => value,
            Err(reason) => {
                self.store_failed(observer, StoreOperation::Get, reason, &[refresh_token]);
                return None;
            }
        };
        if js::is_nullish(&value) {
            return None;
        }
        let set = value
            .as_string()
            .and_then(|text| js_sys::JSON::parse(&text).ok())
            .and_then(|parsed| serde_wasm_bindgen::from_value::<TokenSet>(parsed).ok());
        if set.is_none() {
            // Not what this module writes: reported, and replaced by the next refresh.
            self.emit(observer, || TokenEvent::StoreUnavailable {
                operation: StoreOperation::Get,
                reason: "the stored successor is not a token set".into(),
            });
        }
        set
    }

    /// The refresh of `refresh_token` under the store's claim on its hash: this process refreshes
    /// when it takes the claim, else it waits (bounded: twice the claim's lifetime) for the
    /// successor the holder stores, or for the claim of a holder that died to expire.
    async fn claimed(
        &self,
        store: &JsValue,
        refresh_token: &str,
        hash: &str,
        look: Look<'_>,
    ) -> Result<Outcome, Shared> {
        // The claim outlasts the holder's whole round: the grant with all its attempts and
        // waits, its store calls, and a margin.
        let claim_ms = self.target.claim_ms();
        let give_up = js::now_ms() + 2.0 * f64::from(claim_ms);
        let claim_key = format!("{}{hash}:refreshing", self.prefix);
        let mut waiting = false;
        loop {
            let claimed = call_store(store, "claim", &[(&claim_key).into(), claim_ms.into()])
                .await
                .map_err(|reason| {
                    self.store_failed(
                        look.observer,
                        StoreOperation::Claim,
                        reason,
                        &[refresh_token],
                    );
                    Shared::Unavailable
                })?;
            if let Some(owner) = claimed.as_string() {
                // Another process may have refreshed between the first look and the claim.
                let step = self.step(refresh_token, hash, look, false).await;
                let result = match step.outcome(refresh_token) {
                    Some(outcome) => Ok(outcome),
                    None => self.refresh(refresh_token, hash, look).await,
                };
                let released =
                    call_store(store, "release", &[(&claim_key).into(), owner.into()]).await;
                if let Err(reason) = released {
                    self.store_failed(
                        look.observer,
                        StoreOperation::Release,
                        reason,
                        &[refresh_token],
                    );
                }
                return result.map_err(Shared::Failed);
            }
            // Another process is refreshing this token: look for the successor it stores, and
            // for the claim again (free once the holder released it or, if it died, its claim
            // expired: this process then takes over).
            if js::now_ms() > give_up {
                self.store_failed(
                    look.observer,
                    StoreOperation::Claim,
                    "another process held the claim to refresh for too long".into(),
                    &[],
                );
                return Err(Shared::Unavailable);
            }
            if !waiting {
                waiting = true;
                self.listeners(look.observer).signal(TokenSignal::StoreWait);
            }
            transport::delay(POLL_MS, None).await;
            let step = self.step(refresh_token, hash, look, false).await;
            if let Some(outcome) = step.outcome(refresh_token) {
                return Ok(outcome);
            }
            if self.live_store().is_none() {
                return Err(Shared::Unavailable);
            }
        }
    }

    /// The refresh grant itself; its answer is kept as the successor of `hash`. When the service
    /// refuses the token, a successor kept meanwhile (by a process this one could not wait for)
    /// still serves; else only a new sign-in can.
    async fn refresh(
        &self,
        refresh_token: &str,
        hash: &str,
        look: Look<'_>,
    ) -> Result<Outcome, Failure> {
        let grant = Grant::Refresh { refresh_token };
        let listeners = self.listeners(look.observer);
        match self.target.grant(grant, None, &listeners).await {
            Ok(set) => {
                self.keep(hash, &set, refresh_token, look.observer).await;
                Ok(Outcome::Set(set))
            }
            Err(failure) if is_invalid_grant(&failure.error) => {
                // Another process may have refreshed it: the store is asked even while it is
                // left aside, lest a process that could not reach it signs the user out.
                let step = self.step(refresh_token, hash, look, true).await;
                step.outcome(refresh_token).ok_or_else(|| Failure {
                    error: sign_in_rejected(failure.error),
                    ..failure
                })
            }
            Err(failure) => Err(failure),
        }
    }

    /// Keeps `set` as the successor of `hash` for the retention: in this process, and in the
    /// store (JSON, under the hash, never the token).
    async fn keep(
        &self,
        hash: &str,
        set: &TokenSet,
        refresh_token: &str,
        observer: Option<&Observer>,
    ) {
        let now = js::now_ms();
        {
            let mut kept = self.successors.borrow_mut();
            kept.retain(|_, (_, until)| *until > now);
            kept.insert(
                hash.to_owned(),
                (set.clone(), now + f64::from(self.retention_ms)),
            );
        }
        // Written even while the store is left aside after a failure: another process may need
        // this successor (the call is bounded by the store's timeout).
        let Some(store) = self.store.clone() else {
            return;
        };
        let key = format!("{}{hash}", self.prefix);
        let written = match js_sys::JSON::stringify(&js::to_js(set)) {
            Ok(text) => call_store(
                &store,
                "set",
                &[key.into(), text.into(), self.retention_ms.into()],
            )
            .await
            .map(drop),
            Err(_) => Err("the token set could not be written as JSON".into()),
        };
        if let Err(reason) = written {
            let mut secrets = vec![refresh_token, set.access_token.as_str()];
            secrets.extend(set.refresh_token.as_deref());
            self.store_failed(observer, StoreOperation::Set, reason, &secrets);
        }
    }
}
