//! API keys of `/v1/enrich` and MCP: one record per key (tenant, name, argon2id hash, usage
//! totals, revocation), and per-key per-day request counts rolled up from memory.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::{API_KEYS, KEY_USAGE};
use super::{Store, StoreError, codec};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiKeyRecord {
    /// Public key id, embedded in the key itself.
    pub id: String,
    pub tenant: crate::domain::Tenant,
    pub name: String,
    /// argon2id PHC string of the whole key; the key itself is never stored.
    pub hash: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub requests: u64,
    pub revoked_at: Option<i64>,
}

/// Usage accumulated in memory since the last roll-up, for one key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageDelta {
    /// `(YYYY-MM-DD, requests)` pairs.
    pub by_day: Vec<(String, u64)>,
    pub last_used_at: i64,
}

fn usage_key(id: &str, day: &str) -> String {
    format!("{id}/{day}")
}

super::codec::unchanged_records!(ApiKeyRecord);

impl Store {
    pub async fn insert_api_key(&self, record: ApiKeyRecord) -> Result<(), StoreError> {
        self.put_record(API_KEYS, record.id.clone(), record).await
    }

    pub async fn api_key(&self, id: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        self.get_record(API_KEYS, id.to_owned()).await
    }

    pub async fn api_keys(&self) -> Result<Vec<ApiKeyRecord>, StoreError> {
        self.all_records(API_KEYS).await
    }

    /// Marks a key revoked; returns the updated record, or `None` for an unknown id.
    pub async fn revoke_api_key(&self, id: &str, now: i64) -> Result<Option<ApiKeyRecord>, StoreError> {
        self.modify_record(API_KEYS, id.to_owned(), move |mut record: ApiKeyRecord| {
            record.revoked_at.get_or_insert(now);
            (Some(record.clone()), record)
        })
        .await
    }

    /// Adds rolled-up usage to the keys' totals and per-day counts, in one transaction.
    pub async fn add_key_usage(&self, deltas: Vec<(String, UsageDelta)>) -> Result<(), StoreError> {
        if deltas.is_empty() {
            return Ok(());
        }
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut keys = txn.open_table(API_KEYS)?;
                let mut usage = txn.open_table(KEY_USAGE)?;
                for (id, delta) in deltas {
                    let mut total = 0;
                    for (day, n) in &delta.by_day {
                        let k = usage_key(&id, day);
                        let before = usage.get(k.as_str())?.map(|v| v.value()).unwrap_or(0);
                        usage.insert(k.as_str(), before + n)?;
                        total += n;
                    }
                    let current: Option<ApiKeyRecord> = match keys.get(id.as_str())? {
                        Some(v) => Some(codec::decode(v.value())?),
                        None => None,
                    };
                    if let Some(mut record) = current {
                        record.requests += total;
                        record.last_used_at = record.last_used_at.max(Some(delta.last_used_at));
                        keys.insert(id.as_str(), codec::encode(&record)?.as_slice())?;
                    }
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    /// Per-day request counts of one key, oldest day first.
    pub async fn key_usage_by_day(&self, id: &str) -> Result<Vec<(String, u64)>, StoreError> {
        let prefix = format!("{id}/");
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(KEY_USAGE)?;
            let mut out = Vec::new();
            for entry in table.range(prefix.as_str()..)? {
                let (k, v) = entry?;
                let Some(day) = k.value().strip_prefix(prefix.as_str()).map(str::to_owned) else { break };
                out.push((day, v.value()));
            }
            Ok(out)
        })
        .await
    }
}
