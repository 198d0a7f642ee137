//! The retry policy: how often and after how long a failed request is repeated (what is repeated
//! is core's `error::retryable`), a pure function of the attempt and chance so that it is tested
//! natively with injected random numbers.

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
}
