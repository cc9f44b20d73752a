//! Fixed-window rate limiting, exact under concurrency (one mutex around the counters). A
//! window is `[k·w, (k+1)·w)` in unix seconds, so every limiter agrees on when it resets.

use std::collections::HashMap;
use std::sync::Mutex;

/// What one check decided, with the figures for the `X-RateLimit-*` headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub limit: u64,
    pub remaining: u64,
    /// Unix seconds when the current window ends.
    pub reset: u64,
}

impl Decision {
    /// Seconds until the window resets (at least 1), for `Retry-After`.
    pub fn retry_after(&self, now: u64) -> u64 {
        self.reset.saturating_sub(now).max(1)
    }
}

#[derive(Debug)]
pub struct FixedWindow {
    limit: u64,
    window_secs: u64,
    /// key -> (window index, requests counted in it)
    buckets: Mutex<HashMap<String, (u64, u64)>>,
}

/// Above this many tracked keys a check also drops buckets of past windows.
const PURGE_THRESHOLD: usize = 50_000;

impl FixedWindow {
    pub fn new(limit: u64, window_secs: u64) -> Self {
        Self { limit, window_secs: window_secs.max(1), buckets: Mutex::new(HashMap::new()) }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Counts one request for `key` at `now` (unix seconds) and decides.
    pub fn check(&self, key: &str, now: u64) -> Decision {
        let window = now / self.window_secs;
        let reset = (window + 1) * self.window_secs;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > PURGE_THRESHOLD {
            buckets.retain(|_, (w, _)| *w == window);
        }
        // Look up before inserting, so the hot path allocates no key string.
        let bucket = match buckets.get_mut(key) {
            Some(bucket) => bucket,
            None => buckets.entry(key.to_owned()).or_insert((window, 0)),
        };
        if bucket.0 != window {
            *bucket = (window, 0);
        }
        let allowed = bucket.1 < self.limit;
        if allowed {
            bucket.1 += 1;
        }
        Decision { allowed, limit: self.limit, remaining: self.limit - bucket.1, reset }
    }

    /// Drops the counters of windows that have ended; returns how many were dropped.
    pub fn purge_expired(&self, now: u64) -> usize {
        let window = now / self.window_secs;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let before = buckets.len();
        buckets.retain(|_, (w, _)| *w >= window);
        before - buckets.len()
    }
}

pub fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_holds_within_a_window_and_resets_after() {
        let l = FixedWindow::new(2, 60);
        let a = l.check("k", 120);
        assert!(a.allowed && a.remaining == 1 && a.reset == 180);
        assert!(l.check("k", 130).allowed);
        let over = l.check("k", 179);
        assert!(!over.allowed && over.remaining == 0);
        assert_eq!(over.retry_after(179), 1);
        assert!(l.check("other", 179).allowed, "keys are independent");
        assert!(l.check("k", 180).allowed, "a new window starts fresh");
        assert_eq!(l.purge_expired(300), 2);
    }

    #[test]
    fn concurrent_checks_never_exceed_the_limit() {
        let l = std::sync::Arc::new(FixedWindow::new(10, 900));
        let handles: Vec<_> = (0..50)
            .map(|_| {
                let l = l.clone();
                std::thread::spawn(move || l.check("ip", 1000).allowed)
            })
            .collect();
        let granted = handles.into_iter().filter(|_| true).map(|h| h.join().unwrap_or(false)).filter(|a| *a).count();
        assert_eq!(granted, 10);
    }
}
