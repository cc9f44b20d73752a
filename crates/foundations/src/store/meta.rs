//! Server-wide singletons in the `meta` table: the boot record (how many times this data
//! file has been served, and since when) and the generated JWT secret.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::META;
use super::{Store, StoreError, codec};

const BOOT_KEY: &str = "boot";
const JWT_SECRET_KEY: &str = "jwt_secret";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootRecord {
    pub boots: u64,
    pub first_boot_at: i64,
    pub last_boot_at: i64,
}

super::codec::unchanged_records!(BootRecord);

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

impl Store {
    /// The JWT signing secret kept in the database: `generate()` runs once, on the first call
    /// ever, and every later call (and restart) returns the same secret.
    pub async fn jwt_secret_or_init(
        &self,
        generate: impl FnOnce() -> String + Send + 'static,
    ) -> Result<String, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let secret = {
                let mut table = txn.open_table(META)?;
                let existing: Option<String> = match table.get(JWT_SECRET_KEY)? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                match existing {
                    Some(secret) => secret,
                    None => {
                        let secret = generate();
                        table.insert(JWT_SECRET_KEY, codec::encode(&secret)?.as_slice())?;
                        secret
                    }
                }
            };
            txn.commit()?;
            Ok(secret)
        })
        .await
    }
}
