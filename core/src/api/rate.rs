//! Client-side rate limiting: the window of request starts, a pure function of time so that it
//! is tested natively with an injected clock.

use super::status::header_seconds;
use std::collections::VecDeque;

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
