//! The client-side rate limit of one call's attempt: this process's own window, and, with
//! `rateLimit.store`, the budget every process shares, taken first.

use super::events::Events;
use super::js;
use super::transport::{self, Waited};
use crate::api::retry::RateWindow;
use crate::model::client::{StoreFailure, StorePurpose};
use js_sys::{Function, Promise};
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// The longest wait for the store's `take`.
const STORE_TIMEOUT_MS: f64 = 1_000.0;
/// How long the store is left aside after it failed.
const STORE_PAUSE_MS: f64 = 5_000.0;

/// A client's rate limit.
pub struct Rate {
    window: RefCell<RateWindow>,
    shared: Option<Shared>,
}

/// The shared budget: `store.take(key, perMinute, 60000)`.
struct Shared {
    store: JsValue,
    take: Function,
    key: JsValue,
    limit: JsValue,
    /// Until when the store is left aside after a failure.
    paused_until: Cell<f64>,
}

/// Why a call could not wait for its turn.
pub enum Stop {
    /// Its signal aborted.
    Aborted,
    /// Its deadline would pass first.
    Timeout,
}

impl Rate {
    /// `per_minute` requests per minute, shared through `store` under `key` when given.
    pub fn new(per_minute: u32, store: Option<&JsValue>, key: &str) -> Rate {
        Rate {
            window: RefCell::new(RateWindow::new(per_minute)),
            shared: store.map(|store| Shared {
                store: store.clone(),
                take: js::get(store, "take").into(),
                key: key.into(),
                limit: per_minute.into(),
                paused_until: Cell::new(0.0),
            }),
        }
    }

    /// This process's window (which also reads the service's rate-limit headers).
    pub fn window(&self) -> &RefCell<RateWindow> {
        &self.window
    }

    /// Waits until an attempt may start: a take from the shared budget (its wait also held by
    /// this process's window, so that it still holds if the store fails later), then this
    /// process's window. `deadline` and `signal` bound every wait.
    pub async fn turn(
        &self,
        deadline: Option<f64>,
        signal: Option<&AbortSignal>,
        events: &Events,
    ) -> Result<(), Stop> {
        loop {
            let now = js::now_ms();
            let left = deadline.map(|d| d - now);
            if let Some(shared) = self.shared.as_ref().filter(|s| now >= s.paused_until.get()) {
                let limit = left.map_or(STORE_TIMEOUT_MS, |l| l.min(STORE_TIMEOUT_MS));
                let failure = match shared.take(limit.max(0.0) as u32, signal).await {
                    Waited::Aborted => return Err(Stop::Aborted),
                    Waited::Elapsed if limit < STORE_TIMEOUT_MS => return Err(Stop::Timeout),
                    Waited::Elapsed => Some(StoreFailure::Timeout),
                    Waited::Done(Ok(wait)) => match wait.as_f64() {
                        Some(w) if w >= 0.0 => {
                            self.window.borrow_mut().block_until(js::now_ms() + w);
                            None
                        }
                        _ => Some(StoreFailure::Error),
                    },
                    Waited::Done(Err(_)) => Some(StoreFailure::Error),
                };
                if let Some(reason) = failure {
                    shared.paused_until.set(js::now_ms() + STORE_PAUSE_MS);
                    events.store(StorePurpose::Rate, reason);
                }
            }
            let now = js::now_ms();
            let wait = self.window.borrow_mut().reserve(now);
            if wait <= 0.0 {
                return Ok(());
            }
            if deadline.is_some_and(|d| now + wait >= d) {
                return Err(Stop::Timeout);
            }
            if !transport::delay(wait.ceil() as u32, signal).await {
                return Err(Stop::Aborted);
            }
        }
    }
}

impl Shared {
    /// Calls `store.take(key, limit, 60000)`, waiting at most `ms` for its answer.
    async fn take(&self, ms: u32, signal: Option<&AbortSignal>) -> Waited {
        let promise = match self
            .take
            .call3(&self.store, &self.key, &self.limit, &60_000.into())
        {
            Ok(value) => Promise::resolve(&value),
            Err(e) => Promise::reject(&e),
        };
        transport::wait(Some(&promise), Some(ms), signal).await
    }
}
