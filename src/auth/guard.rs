//! Cheap refusals in front of argon2. A credential check that would run argon2 first passes
//! three gates, none of which costs more than a hash-map lookup:
//! - a secret that failed recently (remembered as the SHA-256 of the whole presented
//!   credential, in a bounded map, for `FAILED_TTL_SECS`) fails again at once;
//! - one verification per credential id at a time (`flight`): later callers wait for the
//!   first and then find its result (the caller's cache, or the failure memory);
//! - failed attempts are counted per client IP and per credential id in fixed windows, and
//!   over the limit the attempt is refused (429) before argon2 runs. An attempt is counted
//!   when it starts and refunded when it succeeds, so concurrent attempts cannot overshoot.
//!
//! Knows nothing of HTTP; the time comes from the injected `Clock`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use super::AuthError;
use crate::clock::Clock;
use crate::limits::{Decision, FixedWindow};

/// How long a failed secret is remembered.
pub const FAILED_TTL_SECS: u64 = 300;
/// At most this many failed secrets are remembered (~50 bytes each).
const FAILED_MAX: usize = 10_000;

/// Failed-attempt limits, per fixed window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptLimits {
    pub per_ip: u64,
    pub per_credential: u64,
    pub window_secs: u64,
}

pub type Digest = [u8; 32];

pub struct AttemptGuard {
    clock: Arc<dyn Clock>,
    per_ip: FixedWindow,
    per_credential: FixedWindow,
    failed: Mutex<HashMap<Digest, u64>>,
    flights: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

/// An attempt counted against its client and credential; refunded if it succeeds.
#[must_use]
pub struct Attempt {
    ip: Option<String>,
    credential: String,
}

/// Held while one verification of a credential id runs.
pub struct Flight<'a> {
    guard: &'a AttemptGuard,
    id: String,
    lock: Option<OwnedMutexGuard<()>>,
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        self.lock.take();
        let mut flights = lock(&self.guard.flights);
        // Only the map holds it now: nobody is waiting, so the entry can go.
        if flights.get(&self.id).is_some_and(|m| Arc::strong_count(m) == 1) {
            flights.remove(&self.id);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl AttemptGuard {
    pub fn new(limits: AttemptLimits, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            per_ip: FixedWindow::new(limits.per_ip, limits.window_secs),
            per_credential: FixedWindow::new(limits.per_credential, limits.window_secs),
            failed: Mutex::new(HashMap::new()),
            flights: Mutex::new(HashMap::new()),
        }
    }

    /// Whether this exact credential failed within the last `FAILED_TTL_SECS`.
    pub fn failed_recently(&self, digest: &Digest) -> bool {
        let now = self.clock.now();
        lock(&self.failed).get(digest).is_some_and(|expires| *expires > now)
    }

    /// Waits until no other verification of `id` is running, then holds the turn.
    pub async fn flight(&self, id: &str) -> Flight<'_> {
        let mutex = Arc::clone(lock(&self.flights).entry(id.to_owned()).or_default());
        let held = mutex.lock_owned().await;
        Flight { guard: self, id: id.to_owned(), lock: Some(held) }
    }

    /// Counts an attempt that is about to run argon2, or refuses it when the client or the
    /// credential has used up its failures for the window.
    pub fn admit(&self, ip: Option<IpAddr>, credential: &str) -> Result<Attempt, AuthError> {
        let now = self.clock.now();
        let ip_key = ip.map(|ip| ip.to_string());
        if let Some(key) = &ip_key {
            let decision = self.per_ip.check(key, now);
            if !decision.allowed {
                return Err(refusal(decision, now));
            }
        }
        let decision = self.per_credential.check(credential, now);
        if !decision.allowed {
            if let Some(key) = &ip_key {
                self.per_ip.refund(key, now);
            }
            return Err(refusal(decision, now));
        }
        Ok(Attempt { ip: ip_key, credential: credential.to_owned() })
    }

    /// The attempt verified: it does not count as a failure.
    pub fn succeeded(&self, attempt: Attempt) {
        let now = self.clock.now();
        if let Some(ip) = &attempt.ip {
            self.per_ip.refund(ip, now);
        }
        self.per_credential.refund(&attempt.credential, now);
    }

    /// The attempt failed: it stays counted, and its secret is remembered.
    pub fn failed(&self, _attempt: Attempt, digest: Digest) {
        self.remember_failure(digest);
    }

    /// Remembers a secret that failed (for `FAILED_TTL_SECS`), bounded in number.
    pub fn remember_failure(&self, digest: Digest) {
        let now = self.clock.now();
        let mut failed = lock(&self.failed);
        if failed.len() >= FAILED_MAX {
            failed.retain(|_, expires| *expires > now);
            if let Some(victim) = (failed.len() >= FAILED_MAX).then(|| failed.keys().next().copied()).flatten() {
                failed.remove(&victim);
            }
        }
        failed.insert(digest, now + FAILED_TTL_SECS);
    }

    /// The limiters, for persisting and purging: (per IP, per credential).
    pub fn limiters(&self) -> (&FixedWindow, &FixedWindow) {
        (&self.per_ip, &self.per_credential)
    }

    /// Drops expired memories; returns how many went.
    pub fn purge_expired(&self) -> usize {
        let now = self.clock.now();
        let mut failed = lock(&self.failed);
        let before = failed.len();
        failed.retain(|_, expires| *expires > now);
        before - failed.len() + self.per_ip.purge_expired(now) + self.per_credential.purge_expired(now)
    }
}

fn refusal(decision: Decision, now: u64) -> AuthError {
    AuthError::TooManyAttempts { decision, retry_after: decision.retry_after(now) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    fn guard(clock: Arc<ManualClock>) -> AttemptGuard {
        AttemptGuard::new(AttemptLimits { per_ip: 3, per_credential: 2, window_secs: 60 }, clock)
    }

    #[test]
    fn failures_are_limited_per_credential_and_per_ip_and_successes_are_refunded() {
        let clock = Arc::new(ManualClock::at(0));
        let g = guard(clock.clone());
        let ip = Some(IpAddr::from([10, 0, 0, 1]));
        for _ in 0..5 {
            let ok = g.admit(ip, "key-a").expect("successes never use up the budget");
            g.succeeded(ok);
        }
        g.failed(g.admit(ip, "key-a").expect("first failure"), [1; 32]);
        g.failed(g.admit(ip, "key-a").expect("second failure"), [2; 32]);
        assert!(matches!(g.admit(ip, "key-a"), Err(AuthError::TooManyAttempts { .. })), "per credential");
        g.failed(g.admit(ip, "key-b").expect("the IP has one left"), [3; 32]);
        let refused = g.admit(ip, "key-c");
        assert!(matches!(refused, Err(AuthError::TooManyAttempts { retry_after: 60, .. })), "per IP");
        assert!(g.admit(Some(IpAddr::from([10, 0, 0, 2])), "key-c").is_ok(), "another client");
        clock.advance(60);
        assert!(g.admit(ip, "key-a").is_ok(), "a new window starts fresh");
    }

    #[test]
    fn a_failed_secret_is_remembered_briefly() {
        let clock = Arc::new(ManualClock::at(0));
        let g = guard(clock.clone());
        let attempt = g.admit(None, "k").expect("admitted");
        g.failed(attempt, [7; 32]);
        assert!(g.failed_recently(&[7; 32]));
        assert!(!g.failed_recently(&[8; 32]));
        clock.advance(FAILED_TTL_SECS);
        assert!(!g.failed_recently(&[7; 32]));
        assert_eq!(g.purge_expired(), 2, "the memory and the credential's counter");
    }

    #[tokio::test]
    async fn one_flight_per_id_and_the_map_empties_afterwards() {
        let g = guard(Arc::new(ManualClock::at(0)));
        let first = g.flight("id").await;
        let other = tokio::time::timeout(std::time::Duration::from_millis(0), g.flight("other")).await;
        assert!(other.is_ok(), "other ids are not held up");
        drop(other);
        let second = tokio::time::timeout(std::time::Duration::from_millis(0), g.flight("id")).await;
        assert!(second.is_err(), "the same id waits");
        drop(first);
        assert!(lock(&g.flights).is_empty());
    }
}
