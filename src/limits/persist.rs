//! Rate-limit windows across restarts: `save` writes every limiter's current-window counters
//! to the store (a low-rate job and graceful shutdown call it), `load` restores them at start.
//! Counters of windows that ended by the clock's `now`, or saved under another window length,
//! are not restored.

use super::NamedLimiter;
use crate::store::{RateWindowCount, RateWindowsRecord, Store, StoreError};

/// Saves the current window of every limiter; returns how many counters were written.
pub async fn save(store: &Store, limiters: &[NamedLimiter], now: u64) -> Result<usize, StoreError> {
    let mut written = 0;
    let records = limiters
        .iter()
        .map(|l| {
            let counts: Vec<RateWindowCount> = l
                .limiter
                .snapshot(now)
                .into_iter()
                .map(|c| RateWindowCount { key: c.key, window: c.window, count: c.count })
                .collect();
            written += counts.len();
            let record = RateWindowsRecord { window_secs: l.limiter.window_secs(), saved_at: now, counts };
            (l.name.to_owned(), record)
        })
        .collect();
    store.save_rate_windows(records).await?;
    Ok(written)
}

/// Restores the saved counters that still belong to the current window; returns how many.
pub async fn load(store: &Store, limiters: &[NamedLimiter], now: u64) -> Result<usize, StoreError> {
    let mut restored = 0;
    for (name, record) in store.rate_windows().await? {
        let Some(limiter) = limiters.iter().find(|l| l.name == name).map(|l| &l.limiter) else { continue };
        if record.window_secs != limiter.window_secs() {
            continue;
        }
        let current = now / limiter.window_secs();
        let counts: Vec<super::WindowCount> = record
            .counts
            .into_iter()
            .filter(|c| c.window == current)
            .map(|c| super::WindowCount { key: c.key, window: c.window, count: c.count })
            .collect();
        restored += counts.len();
        limiter.restore(counts, now);
    }
    Ok(restored)
}
