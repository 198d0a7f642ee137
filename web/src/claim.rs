//! `ensureWebhook(input, { store })` (server build, feature `server`): one registration per
//! (type, URL) among every process that shares the store. A call claims
//! `webhook:<base URL's origin>:<type>:<url>` (never the token) for longer than its list and
//! register can take, lists, registers when the list has none, and releases the claim; a call
//! that finds the claim held waits (polling the claim, with backoff, within its own timeout and
//! signal) and then does the same under the claim, so it lists after the holder registered.
//!
//! Every store call is bounded ([`STORE_TIMEOUT_MS`]). A store that fails or does not answer
//! when a call asks for the claim ends that call with an error saying that nothing was
//! registered: with a store given, a duplicate is never registered in silence.

use super::api_error::Failure;
use super::call_events::Events;
use super::js;
use super::transport::{self, Waited};
use crate::error::Error;
use crate::model::webhooks::RegisterWebhookInput;
use js_sys::{Array, Function, Promise};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// What a call of `ensureWebhook` is, in messages.
pub const ENSURE: &str = "ensure webhook";
/// The longest wait for one store call.
pub const STORE_TIMEOUT_MS: f64 = 2_000.0;
/// The longest the holder of a claim works under it (its list and register, retries included)
/// when the call's own timeout is longer or none.
pub const WORK_MS: f64 = 60_000.0;
/// How much longer than the holder's work the claim lasts (its release, clocks that differ).
pub const MARGIN_MS: f64 = 5_000.0;
/// The first and the longest pause of a call that waits for the claim.
const POLL_FIRST_MS: f64 = 25.0;
const POLL_MAX_MS: f64 = 500.0;

/// The claim of one (origin, type, URL) in a store.
pub struct Claim {
    store: JsValue,
    key: JsValue,
}

/// Why a store call gave no usable answer.
pub enum Away {
    /// The call's signal aborted.
    Aborted,
    /// The call's deadline passed first.
    Timeout,
    /// The store rejected, threw, answered something else, or did not answer in time: why, and
    /// what it threw or rejected with.
    Failed {
        /// `timeout` or `error` (a `store` event's reason).
        reason: &'static str,
        /// The words of the error message.
        text: String,
        /// What the store threw or rejected with.
        cause: Option<JsValue>,
    },
}

impl Claim {
    /// The claim of `input` under `origin` in `store` (none when no store was given).
    pub fn new(
        store: JsValue,
        origin: &str,
        input: &RegisterWebhookInput,
    ) -> Result<Option<Claim>, Error> {
        if js::is_nullish(&store) {
            return Ok(None);
        }
        if !js::get(&store, "claim").is_function() || !js::get(&store, "release").is_function() {
            return Err(Error::invalid(
                "options.store",
                "must be a store with claim and release methods (estatekit/store)",
            ));
        }
        let key = format!(
            "webhook:{origin}:{}:{}",
            input.event_type.as_str(),
            input.url
        );
        Ok(Some(Claim {
            store,
            key: JsValue::from_str(&key),
        }))
    }

    /// Takes the claim for `ttl_ms`: the owner id, or `None` while another holds it.
    pub async fn take(
        &self,
        ttl_ms: f64,
        deadline: Option<f64>,
        signal: Option<&AbortSignal>,
    ) -> Result<Option<String>, Away> {
        let ttl = JsValue::from_f64(ttl_ms.ceil());
        let answer = self
            .call("claim", &[self.key.clone(), ttl], deadline, signal)
            .await?;
        if answer.is_null() {
            return Ok(None);
        }
        match answer.as_string() {
            Some(owner) => Ok(Some(owner)),
            None => Err(Away::Failed {
                reason: "error",
                text: "store.claim resolved neither an owner id (string) nor null".into(),
                cause: None,
            }),
        }
    }

    /// Releases the claim `owner` holds (bounded; not stopped by the call's signal or deadline,
    /// so that a claim is released whenever the store answers).
    pub async fn release(&self, owner: &str) -> Result<(), Away> {
        let args = [self.key.clone(), JsValue::from_str(owner)];
        self.call("release", &args, None, None).await.map(|_| ())
    }

    /// `store[method](...args)`, bounded by [`STORE_TIMEOUT_MS`], the deadline and the signal.
    async fn call(
        &self,
        method: &str,
        args: &[JsValue],
        deadline: Option<f64>,
        signal: Option<&AbortSignal>,
    ) -> Result<JsValue, Away> {
        let failed = |reason, text: String, cause| Away::Failed {
            reason,
            text,
            cause,
        };
        let function: Function = js::get(&self.store, method)
            .dyn_into()
            .map_err(|_| failed("error", format!("store.{method} is not a function"), None))?;
        let args: Array = args.iter().collect();
        let returned = function.apply(&self.store, &args).map_err(|e| {
            failed(
                "error",
                format!("store.{method} threw: {}", describe(&e)),
                Some(e),
            )
        })?;
        let now = js::now_ms();
        let ms = deadline.map_or(STORE_TIMEOUT_MS, |d| (d - now).min(STORE_TIMEOUT_MS));
        let pending = Promise::resolve(&returned);
        let waited = transport::wait(Some(&pending), Some(ms.max(0.0) as u32), signal).await;
        if method == "claim" && !matches!(waited, Waited::Done(_)) {
            self.release_late(pending);
        }
        match waited {
            Waited::Done(Ok(value)) => Ok(value),
            Waited::Done(Err(e)) => Err(failed(
                "error",
                format!("store.{method} failed: {}", describe(&e)),
                Some(e),
            )),
            Waited::Aborted => Err(Away::Aborted),
            Waited::Elapsed if ms < STORE_TIMEOUT_MS => Err(Away::Timeout),
            Waited::Elapsed => Err(failed(
                "timeout",
                format!("store.{method} did not answer within {STORE_TIMEOUT_MS} ms"),
                None,
            )),
        }
    }

    /// A claim the call stopped waiting for may still be taken (a client that queued the
    /// command while it reconnected sends it later): taken, it is released at once, so that it
    /// does not keep the other calls out until it expires.
    fn release_late(&self, pending: Promise) {
        let (store, key) = (self.store.clone(), self.key.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let Ok(owner) = JsFuture::from(pending).await else {
                return;
            };
            if !owner.is_string() {
                return;
            }
            if let Ok(release) = js::get(&store, "release").dyn_into::<Function>() {
                // Its outcome is the store's: a rejection is handled here, and nothing waits.
                if let Ok(returned) = release.call2(&store, &key, &owner) {
                    let _ = JsFuture::from(Promise::resolve(&returned)).await;
                }
            }
        });
    }
}

/// The failure of a call whose store was away when it asked for the claim: nothing registered.
pub fn store_away(text: String, cause: Option<JsValue>, attempts: u32) -> Failure {
    let failure = Failure::from(Error::Network {
        operation: ENSURE,
        host: "the store (options.store)".into(),
        reason: format!(
            "{text}; ensureWebhook registered nothing, so that no process registers a duplicate: \
             call it again once the store answers"
        ),
    })
    .after(attempts);
    match cause {
        Some(cause) => failure.caused_by(cause),
        None => failure,
    }
}

/// The next pause of a call that waits for the claim: doubled, at most [`POLL_MAX_MS`], with
/// jitter (so that waiters do not ask all at once).
pub fn next_pause(pause: f64) -> f64 {
    (pause * 2.0).min(POLL_MAX_MS)
}

/// The first pause.
pub fn first_pause() -> f64 {
    POLL_FIRST_MS
}

/// A pause of about `pause` ms: between half of it and all of it.
pub fn jittered(pause: f64) -> f64 {
    pause * (0.5 + js_sys::Math::random() * 0.5)
}

/// A short text for what a store threw or rejected with (its `message`, or its string form).
fn describe(err: &JsValue) -> String {
    let text = js::get(err, "message")
        .as_string()
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "no message".into());
    crate::error::limit(&text, 200)
}

/// Reports a store failure to the call's listeners (`store` event, purpose `webhook`).
pub fn report(events: &Events, away: &Away) {
    if let Away::Failed { reason, .. } = away {
        events.store("webhook", reason);
    }
}
