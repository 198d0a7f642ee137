//! The client-side rate limit of one call's attempt: this process's own window and, in the
//! server build (feature `server`), the budget that several processes share through
//! `rateLimit.store`, taken first. Browsers share a budget with no other process, and their
//! module stays without that code (it cost the main entry about 900 bytes gzip).

use super::call_events::Events;
use super::js;
use super::transport;
use crate::api::rate::RateWindow;
use crate::error::Error;
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// A client's rate limit.
pub struct Rate {
    window: RefCell<RateWindow>,
    #[cfg(feature = "server")]
    shared: Option<shared::Shared>,
}

/// Why a call could not wait for its turn.
pub enum Stop {
    /// Its signal aborted.
    Aborted,
    /// Its deadline would pass first.
    Timeout,
}

impl Rate {
    /// `per_minute` requests per minute; `given` is the caller's `rateLimit` object, whose
    /// `store` and `key` are read here (not by serde: `model::options::RATE_LIMIT_KEYS`).
    pub fn new(per_minute: u32, given: &JsValue, origin: &str) -> Result<Rate, Error> {
        let store = js::get(given, "store");
        #[cfg(not(feature = "server"))]
        let _ = origin;
        #[cfg(not(feature = "server"))]
        if !js::is_nullish(&store) {
            return Err(Error::invalid(
                "options.rateLimit.store",
                "needs the server build of estatekit (the `node` export condition: Node, Bun, Deno)",
            ));
        }
        Ok(Rate {
            window: RefCell::new(RateWindow::new(per_minute)),
            #[cfg(feature = "server")]
            shared: shared::Shared::new(per_minute, store, js::get(given, "key"), origin)?,
        })
    }

    /// This process's window (which also reads the service's rate-limit headers).
    pub fn window(&self) -> &RefCell<RateWindow> {
        &self.window
    }

    /// Waits until an attempt may start: in the server build, a take from the shared budget
    /// first (its wait is then held by this process's window, so that it still holds if the
    /// store fails later), then this process's window. `deadline` and `signal` bound every wait;
    /// each is told to `events` (`rateWait`) before it starts.
    pub async fn turn(
        &self,
        deadline: Option<f64>,
        signal: Option<&AbortSignal>,
        events: &Events,
    ) -> Result<(), Stop> {
        // Whether this attempt is done with the store: it took one from the budget (then only
        // this process's window may still delay it: it must not take a second one), or the
        // store failed.
        #[cfg(feature = "server")]
        let mut done = false;
        loop {
            #[cfg(feature = "server")]
            if let Some(shared) = self.shared.as_ref().filter(|_| !done) {
                done = shared.ask(&self.window, deadline, signal, events).await?;
            }
            let now = js::now_ms();
            let wait = self.window.borrow_mut().reserve(now);
            if wait <= 0.0 {
                return Ok(());
            }
            if deadline.is_some_and(|d| now + wait >= d) {
                return Err(Stop::Timeout);
            }
            let wait = wait.ceil() as u32;
            events.rate_wait(wait);
            if !transport::delay(wait, signal).await {
                return Err(Stop::Aborted);
            }
        }
    }
}

#[cfg(feature = "server")]
mod shared {
    use super::{js, Events, Stop};
    use crate::api::rate::RateWindow;
    use crate::error::Error;
    use crate::transport::{self, Waited};
    use js_sys::Promise;
    use std::cell::{Cell, RefCell};
    use wasm_bindgen::prelude::*;
    use web_sys::AbortSignal;

    #[wasm_bindgen]
    extern "C" {
        /// `rateLimit.store` (estatekit/store's `Store`), as far as the client uses it.
        pub type RateStore;

        /// `store.take(key, perWindow, windowMs)`.
        #[wasm_bindgen(method, catch)]
        fn take(
            this: &RateStore,
            key: &JsValue,
            limit: u32,
            window_ms: u32,
        ) -> Result<JsValue, JsValue>;
    }

    /// The longest wait for the store's `take`.
    pub const STORE_TIMEOUT_MS: f64 = 1_000.0;
    /// How long the store is left aside after it failed.
    const STORE_PAUSE_MS: f64 = 5_000.0;
    /// The window of the shared budget: a minute.
    const WINDOW_MS: u32 = 60_000;

    /// The shared budget: `store.take(key, perMinute, 60000)`.
    pub struct Shared {
        store: RateStore,
        key: JsValue,
        limit: u32,
        /// Until when the store is left aside after a failure.
        paused_until: Cell<f64>,
    }

    impl Shared {
        /// The budget of `store` (none when not given) under `key` (default `rate:` and the
        /// origin: never the token).
        pub fn new(
            limit: u32,
            store: JsValue,
            key: JsValue,
            origin: &str,
        ) -> Result<Option<Shared>, Error> {
            if js::is_nullish(&store) {
                return Ok(None);
            }
            if !js::get(&store, "take").is_function() {
                return Err(Error::invalid(
                    "options.rateLimit.store",
                    "must be a store with a take method (estatekit/store)",
                ));
            }
            let key = match key.as_string() {
                Some(k) if !k.is_empty() => key,
                _ if js::is_nullish(&key) => JsValue::from_str(&format!("rate:{origin}")),
                _ => {
                    return Err(Error::invalid(
                        "options.rateLimit.key",
                        "must be a non-empty string",
                    ))
                }
            };
            Ok(Some(Shared {
                store: store.unchecked_into(),
                key,
                limit,
                paused_until: Cell::new(0.0),
            }))
        }

        /// Takes one from the shared budget, unless the store was left aside after a failure.
        /// Its wait goes to `window` (which the caller waits for); a store that fails or does
        /// not answer within 1 s is left aside for 5 s and the call goes on with `window`
        /// alone, telling `events`. `true` when the attempt is done with the store (it took one,
        /// or the store failed or is left aside); `false` when it must wait and ask again. Errs
        /// only when the call's deadline or signal ends it.
        pub async fn ask(
            &self,
            window: &RefCell<RateWindow>,
            deadline: Option<f64>,
            signal: Option<&AbortSignal>,
            events: &Events,
        ) -> Result<bool, Stop> {
            let now = js::now_ms();
            if now < self.paused_until.get() {
                return Ok(true);
            }
            let ms = deadline.map_or(STORE_TIMEOUT_MS, |d| (d - now).min(STORE_TIMEOUT_MS));
            let failure =
                match transport::wait(Some(&self.take()), Some(ms.max(0.0) as u32), signal).await {
                    Waited::Aborted => return Err(Stop::Aborted),
                    Waited::Elapsed if ms < STORE_TIMEOUT_MS => return Err(Stop::Timeout),
                    Waited::Elapsed => "timeout",
                    Waited::Done(Ok(wait)) => match wait.as_f64() {
                        Some(w) if w >= 0.0 => {
                            window.borrow_mut().block_until(js::now_ms() + w);
                            return Ok(w <= 0.0);
                        }
                        _ => "error",
                    },
                    Waited::Done(Err(_)) => "error",
                };
            self.paused_until.set(js::now_ms() + STORE_PAUSE_MS);
            events.store("rate", failure);
            Ok(true)
        }

        /// `store.take(key, perWindow, 60000)` as a promise (a throw becomes its rejection).
        fn take(&self) -> Promise {
            match self.store.take(&self.key, self.limit, WINDOW_MS) {
                Ok(value) => Promise::resolve(&value),
                Err(e) => Promise::reject(&e),
            }
        }
    }
}
