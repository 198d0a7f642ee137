//! Fixed-window per-token rate limiting.

use crate::state::{lock, AppState};
use axum::http::{HeaderMap, HeaderValue};
use std::time::{Duration, Instant};

/// Length of a rate-limit window.
pub const WINDOW: Duration = Duration::from_secs(60);

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

fn secs_left(start: Instant, now: Instant) -> u64 {
    let elapsed = now.saturating_duration_since(start);
    let left = WINDOW.saturating_sub(elapsed);
    let s = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    s.max(1)
}

/// Counts a request for a known token; None when rate limiting is off for it.
pub fn check(state: &AppState, token: &str) -> Option<RateInfo> {
    let default = *lock(&state.default_rate_limit);
    state
        .with_account(token, |a| {
            let limit = a.rate_limit.unwrap_or(default);
            if limit == 0 {
                return None;
            }
            let now = Instant::now();
            if now.saturating_duration_since(a.window_start) >= WINDOW {
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
                reset_secs: secs_left(a.window_start, now),
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
        reset_secs: WINDOW.as_secs(),
        allowed: true,
    })
}

/// Sets a new limit (for one token, or the default for all) and restarts the window(s).
pub fn configure(state: &AppState, limit: u32, token: Option<&str>) -> bool {
    let now = Instant::now();
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
