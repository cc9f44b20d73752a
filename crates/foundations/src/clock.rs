//! The one place the appliance reads the time. Everything that stamps, schedules or expires
//! something asks a `Clock`: the `SystemClock` in production, a `ManualClock` in tests, so a
//! test moves time instead of waiting for it. The store carries the clock (every service holds
//! the store), and `AppState` hands the same one to the limiters and the session tokens.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Utc};

pub trait Clock: Send + Sync + 'static {
    /// Unix milliseconds.
    fn now_ms(&self) -> i64;

    /// Unix seconds.
    fn now(&self) -> u64 {
        u64::try_from(self.now_ms().div_euclid(1_000)).unwrap_or(0)
    }

    /// Unix seconds, signed (timestamps in records).
    fn now_secs(&self) -> i64 {
        self.now_ms().div_euclid(1_000)
    }

    /// The time as a UTC date-time.
    fn utc(&self) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(self.now_ms()).unwrap_or_default()
    }
}

/// A shared clock, as services hold it.
pub type SharedClock = Arc<dyn Clock>;

/// The operating system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl SystemClock {
    pub fn shared() -> SharedClock {
        Arc::new(SystemClock)
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        Utc::now().timestamp_millis()
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    /// A clock standing at `unix_secs`.
    pub fn at(unix_secs: u64) -> Self {
        Self(AtomicI64::new(millis(unix_secs)))
    }

    pub fn set(&self, unix_secs: u64) {
        self.0.store(millis(unix_secs), Ordering::SeqCst);
    }

    pub fn advance(&self, secs: u64) {
        self.0.fetch_add(millis(secs), Ordering::SeqCst);
    }
}

fn millis(secs: u64) -> i64 {
    i64::try_from(secs).unwrap_or(i64::MAX / 1_000).saturating_mul(1_000)
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told_and_agrees_in_every_unit() {
        let clock = ManualClock::at(1_800_000_000);
        assert_eq!((clock.now(), clock.now_secs(), clock.now_ms()), (1_800_000_000, 1_800_000_000, 1_800_000_000_000));
        clock.advance(61);
        assert_eq!(clock.utc().to_rfc3339(), "2027-01-15T08:01:01+00:00");
        clock.set(0);
        assert_eq!(clock.now(), 0);
    }
}
