//! Fixed-window rate limiting, exact under concurrency (one mutex around the counters). A
//! window is `[k·w, (k+1)·w)` in unix seconds, so every limiter agrees on when it resets.
//! Time comes from the injected `crate::clock::Clock` (the system clock in production, a `ManualClock` in
//! tests, so a test moves time instead of waiting for it). Counters can be snapshotted and
//! restored, so windows survive a restart.

pub mod persist;

use std::collections::HashMap;
use std::sync::Mutex;

/// One counter of a limiter, as persisted: its key, window index and count.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WindowCount {
    pub key: String,
    pub window: u64,
    pub count: u64,
}

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

    /// Gives back one request counted for `key` in the current window (an attempt that turned
    /// out to be legitimate, when only failures should count).
    pub fn refund(&self, key: &str, now: u64) {
        let window = now / self.window_secs;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(bucket) = buckets.get_mut(key).filter(|b| b.0 == window) {
            bucket.1 = bucket.1.saturating_sub(1);
        }
    }

    pub fn window_secs(&self) -> u64 {
        self.window_secs
    }

    /// The counters of the current window (for persisting).
    pub fn snapshot(&self, now: u64) -> Vec<WindowCount> {
        let window = now / self.window_secs;
        let buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        buckets
            .iter()
            .filter(|(_, (w, n))| *w == window && *n > 0)
            .map(|(k, (w, n))| WindowCount { key: k.clone(), window: *w, count: *n })
            .collect()
    }

    /// Loads persisted counters; those of windows that have ended are ignored, and a counter
    /// already higher in memory is kept.
    pub fn restore(&self, counts: impl IntoIterator<Item = WindowCount>, now: u64) {
        let window = now / self.window_secs;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        for c in counts.into_iter().filter(|c| c.window == window) {
            let bucket = buckets.entry(c.key).or_insert((window, 0));
            bucket.1 = bucket.1.max(c.count.min(self.limit));
        }
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

/// A limiter with the stable name its windows are persisted under.
#[derive(Debug, Clone)]
pub struct NamedLimiter {
    pub name: &'static str,
    pub limiter: std::sync::Arc<FixedWindow>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Clock, ManualClock};

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

    #[test]
    fn a_refund_gives_back_one_request_of_the_current_window() {
        let l = FixedWindow::new(2, 60);
        l.check("k", 0);
        l.check("k", 0);
        assert!(!l.check("k", 1).allowed);
        l.refund("k", 1);
        assert!(l.check("k", 2).allowed);
        l.refund("absent", 2);
    }

    #[test]
    fn snapshots_restore_the_current_window_only() {
        let clock = ManualClock::at(600);
        let l = FixedWindow::new(3, 60);
        l.check("a", clock.now());
        l.check("a", clock.now());
        let saved = l.snapshot(clock.now());
        assert_eq!(saved, vec![WindowCount { key: "a".into(), window: 10, count: 2 }]);
        let fresh = FixedWindow::new(3, 60);
        fresh.restore(saved.clone(), clock.now());
        assert_eq!(fresh.check("a", clock.now()).remaining, 0);
        clock.advance(60);
        let later = FixedWindow::new(3, 60);
        later.restore(saved, clock.now());
        assert_eq!(later.check("a", clock.now()).remaining, 2, "an ended window is not restored");
    }
}
