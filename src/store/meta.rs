//! Server-wide singletons in the `meta` table: the boot record (how many times this data
//! file has been served, and since when).

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::META;
use super::{Store, StoreError, codec};

const BOOT_KEY: &str = "boot";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootRecord {
    pub boots: u64,
    pub first_boot_at: i64,
    pub last_boot_at: i64,
}

impl Store {
    /// Counts one more start of the server on this data file; durable on return.
    pub async fn record_boot(&self, now_unix: i64) -> Result<BootRecord, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let record = {
                let mut table = txn.open_table(META)?;
                let previous: Option<BootRecord> = match table.get(BOOT_KEY)? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                let record = match previous {
                    Some(p) => BootRecord { boots: p.boots + 1, last_boot_at: now_unix, ..p },
                    None => BootRecord { boots: 1, first_boot_at: now_unix, last_boot_at: now_unix },
                };
                table.insert(BOOT_KEY, codec::encode(&record)?.as_slice())?;
                record
            };
            txn.commit()?;
            Ok(record)
        })
        .await
    }

    pub async fn boot_record(&self) -> Result<Option<BootRecord>, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(META)?;
            match table.get(BOOT_KEY)? {
                Some(v) => Ok(Some(codec::decode(v.value())?)),
                None => Ok(None),
            }
        })
        .await
    }
}
