//! Persisted rate-limit windows: one record per limiter (by its name) holding the counters
//! of the window that was current when it was saved, so a restart does not hand every client
//! a fresh budget. Each save replaces every limiter's record in one transaction.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::RATE_WINDOWS;
use super::{Store, StoreError, codec};

/// One counter: its key (an IP, a user, an API key id), window index and count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateWindowCount {
    pub key: String,
    pub window: u64,
    pub count: u64,
}

/// A limiter's saved counters; `window_secs` says how their window indexes are to be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateWindowsRecord {
    pub window_secs: u64,
    /// Unix seconds of the save.
    pub saved_at: u64,
    pub counts: Vec<RateWindowCount>,
}

super::codec::unchanged_records!(RateWindowsRecord);

impl Store {
    /// Replaces the saved windows of every named limiter, in one commit.
    pub async fn save_rate_windows(&self, records: Vec<(String, RateWindowsRecord)>) -> Result<(), StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut table = txn.open_table(RATE_WINDOWS)?;
                for (name, record) in &records {
                    table.insert(name.as_str(), codec::encode(record)?.as_slice())?;
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    /// Every limiter's saved windows, by limiter name.
    pub async fn rate_windows(&self) -> Result<Vec<(String, RateWindowsRecord)>, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(RATE_WINDOWS)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                let (name, value) = entry?;
                out.push((name.value().to_owned(), codec::decode(value.value())?));
            }
            Ok(out)
        })
        .await
    }
}
