//! Fixed-window rate limiting per account (a fixed token, or the account an issued access token
//! reaches). The window is `--rate-limit-window-ms` long (60 s by default).

use crate::state::AppState;
use crate::util::lock;
use axum::http::{HeaderMap, HeaderValue};

/// Default length of a rate-limit window, in ms.
pub const WINDOW_MS: u64 = crate::config::DEFAULT_RATE_LIMIT_WINDOW_MS;

/// The window's length in words: "minute" for 60 s, else "<n> ms" (in the 429's message).
pub fn window_text(window_ms: u64) -> String {
    if window_ms == WINDOW_MS {
        "minute".to_string()
    } else {
        format!("{window_ms} ms")
    }
}

/// Result of counting one request.
#[derive(Debug, Clone, Copy)]
pub struct RateInfo {
    /// Limit per window.
    pub limit: u32,
    /// Remaining requests in the window.
    pub remaining: u32,
    /// Seconds until the window resets.
    pub reset_secs: u64,
    /// Whether the request is allowed.
    pub allowed: bool,
}

impl RateInfo {
    /// Writes the three `X-RateLimit-*` headers.
    pub fn apply(&self, h: &mut HeaderMap) {
        h.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        h.insert("x-ratelimit-remaining", HeaderValue::from(self.remaining));
        h.insert("x-ratelimit-reset", HeaderValue::from(self.reset_secs));
    }
}

fn secs_left(window_ms: u64, start: u64, now: u64) -> u64 {
    let left = window_ms.saturating_sub(now.saturating_sub(start));
    left.div_ceil(1000).max(1)
}

/// Counts a request for an account's token; None when rate limiting is off for it.
pub fn check(state: &AppState, token: &str) -> Option<RateInfo> {
    let default = *lock(&state.default_rate_limit);
    let now = state.now_ms();
    let window_ms = state.config.rate_limit_window_ms;
    state
        .with_account(token, |a| {
            let limit = a.rate_limit.unwrap_or(default);
            if limit == 0 {
                return None;
            }
            if now.saturating_sub(a.window_start) >= window_ms {
                a.window_start = now;
                a.window_count = 0;
            }
            let allowed = a.window_count < limit;
            if allowed {
                a.window_count += 1;
            }
            Some(RateInfo {
                limit,
                remaining: limit.saturating_sub(a.window_count),
                reset_secs: secs_left(window_ms, a.window_start, now),
                allowed,
            })
        })
        .flatten()
}

/// Headers for responses without a known account (e.g. 401): a full, untouched window.
pub fn unauthenticated(state: &AppState) -> Option<RateInfo> {
    let limit = *lock(&state.default_rate_limit);
    (limit > 0).then_some(RateInfo {
        limit,
        remaining: limit,
        reset_secs: state.config.rate_limit_window_ms.div_ceil(1000).max(1),
        allowed: true,
    })
}

/// Sets a new limit (for one token, or the default for all) and restarts the window(s).
pub fn configure(state: &AppState, limit: u32, token: Option<&str>) -> bool {
    let now = state.now_ms();
    match token {
        Some(t) => state
            .with_account(t, |a| {
                a.rate_limit = Some(limit);
                a.window_start = now;
                a.window_count = 0;
            })
            .is_some(),
        None => {
            *lock(&state.default_rate_limit) = limit;
            for a in lock(&state.accounts).values_mut() {
                a.rate_limit = None;
                a.window_start = now;
                a.window_count = 0;
            }
            true
        }
    }
}
