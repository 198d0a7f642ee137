//! Retry policy (how often and after how long; what is retried is core's `error::retryable`)
//! and client-side rate limiting, as pure functions of time and chance so that
//! they are tested natively with injected clocks and random numbers.

use super::status::header_seconds;
use std::collections::VecDeque;

/// `ClientOptions.retry`, with defaults applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (default 2).
    pub limit: u32,
    /// Backoff base in milliseconds (default 300).
    pub base_delay_ms: u32,
    /// Upper bound of any single wait in milliseconds (default 20000).
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            limit: 2,
            base_delay_ms: 300,
            max_delay_ms: 20_000,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0 for the first retry): the service's own
    /// `retry_after_ms` when it gave one, else full-jitter exponential backoff
    /// (`random` in [0, 1) times `base * 2^retry`); always capped by `max_delay_ms`.
    pub fn delay_ms(&self, retry: u32, retry_after_ms: Option<u64>, random: f64) -> u32 {
        let cap = u64::from(self.max_delay_ms);
        let chosen = match retry_after_ms {
            Some(ms) => ms.min(cap),
            None => {
                let ceiling = u64::from(self.base_delay_ms)
                    .saturating_mul(1u64 << retry.min(30))
                    .min(cap);
                let r = if random.is_finite() {
                    random.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                (ceiling as f64 * r) as u64
            }
        };
        u32::try_from(chosen.min(cap)).unwrap_or(u32::MAX)
    }
}

/// Client-side rate limiting: at most `per_minute` request starts in any 60-second window,
/// and none while the service said the window is used up (`X-RateLimit-Remaining: 0`).
#[derive(Clone, Debug, PartialEq)]
pub struct RateWindow {
    per_minute: u32,
    starts: VecDeque<f64>,
    blocked_until: f64,
}

const WINDOW_MS: f64 = 60_000.0;

impl RateWindow {
    /// A window allowing `per_minute` requests per minute (at least 1).
    pub fn new(per_minute: u32) -> Self {
        RateWindow {
            per_minute: per_minute.max(1),
            starts: VecDeque::new(),
            blocked_until: 0.0,
        }
    }

    /// Milliseconds to wait before a request may start at `now`; 0 means "go", and the start
    /// is then recorded.
    pub fn reserve(&mut self, now: f64) -> f64 {
        while self.starts.front().is_some_and(|t| *t <= now - WINDOW_MS) {
            self.starts.pop_front();
        }
        let mut wait = self.blocked_until - now;
        if self.starts.len() >= self.per_minute as usize {
            if let Some(oldest) = self.starts.front() {
                wait = wait.max(oldest + WINDOW_MS - now);
            }
        }
        if wait > 0.0 {
            return wait;
        }
        self.starts.push_back(now);
        0.0
    }

    /// Lets no request start before `until` (what a shared budget said).
    pub fn block_until(&mut self, until: f64) {
        self.blocked_until = self.blocked_until.max(until);
    }

    /// Takes note of the service's `X-RateLimit-Remaining` / `X-RateLimit-Reset` (seconds).
    pub fn observe(&mut self, now: f64, remaining: Option<&str>, reset: Option<&str>) {
        let (remaining, reset) = (
            remaining.and_then(header_seconds),
            reset.and_then(header_seconds),
        );
        if let (Some(rem), Some(secs)) = (remaining, reset) {
            if rem <= 0.0 && secs.is_finite() && secs > 0.0 {
                self.blocked_until = self.blocked_until.max(now + secs.min(3600.0) * 1000.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_is_full_jitter_and_capped() {
        let p = RetryPolicy {
            limit: 5,
            base_delay_ms: 100,
            max_delay_ms: 1_000,
        };
        assert_eq!(p.delay_ms(0, None, 0.0), 0);
        assert_eq!(p.delay_ms(0, None, 0.5), 50);
        assert_eq!(p.delay_ms(1, None, 0.5), 100);
        assert_eq!(p.delay_ms(2, None, 0.999), 399);
        assert_eq!(p.delay_ms(10, None, 0.999), 999, "capped by maxDelayMs");
        assert_eq!(p.delay_ms(60, None, 1.0), 1_000, "no overflow");
        assert_eq!(p.delay_ms(0, None, f64::NAN), 0);
        assert_eq!(p.delay_ms(0, Some(700), 0.3), 700, "Retry-After wins");
        assert_eq!(p.delay_ms(0, Some(60_000), 0.3), 1_000, "and is capped");
        assert_eq!(RetryPolicy::default().limit, 2);
    }

    #[test]
    fn window_queues_instead_of_overrunning() {
        let mut w = RateWindow::new(2);
        assert_eq!(w.reserve(0.0), 0.0);
        assert_eq!(w.reserve(10.0), 0.0);
        assert_eq!(
            w.reserve(20.0),
            59_980.0,
            "third start waits for the oldest to age out"
        );
        assert_eq!(w.reserve(60_000.0), 0.0);
        assert_eq!(w.reserve(60_005.0), 5.0);
    }

    #[test]
    fn window_honours_the_service_headers() {
        let mut w = RateWindow::new(300);
        w.observe(1_000.0, Some("5"), Some("30"));
        assert_eq!(w.reserve(1_000.0), 0.0, "remaining > 0: go on");
        w.observe(1_000.0, Some("0"), Some("30"));
        assert_eq!(w.reserve(2_000.0), 29_000.0);
        assert_eq!(w.reserve(31_000.0), 0.0);
        w.observe(40_000.0, Some("0"), Some("soon"));
        assert_eq!(w.reserve(40_000.0), 0.0, "unreadable reset is ignored");
    }

    #[test]
    fn window_honours_a_shared_budgets_wait() {
        let mut w = RateWindow::new(300);
        w.block_until(5_000.0);
        w.block_until(3_000.0);
        assert_eq!(w.reserve(1_000.0), 4_000.0, "the later of the two");
        assert_eq!(w.reserve(5_000.0), 0.0);
    }
}
