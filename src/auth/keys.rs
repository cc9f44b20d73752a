//! `gtms_` API keys: `gtms_<key id: 12 hex>_<secret: 64 hex>` (32 random bytes). Stored only
//! as argon2id hashes, looked up by the public key id. A verified key is cached as the
//! SHA-256 of the whole key, so the hot path does no argon2 work; a revoke drops the cache
//! entry and marks the id revoked in memory, so it bites on the very next request. Usage is
//! counted in memory and rolled up into redb by `flush_usage` (periodically and at shutdown).
//! A key that is not cached passes the `AttemptGuard` before argon2 runs: a recently failed
//! secret fails at once, one verification per key id runs at a time, and failed attempts are
//! limited per client IP and per key id.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Mutex;

use serde::Serialize;
use sha2::{Digest as _, Sha256};

use super::AuthError;
use super::guard::{AttemptGuard, Digest};
use super::secrets::{Hasher, random_hex};
use crate::domain::Tenant;
use crate::store::{ApiKeyRecord, Store, UsageDelta};

const PREFIX: &str = "gtms_";
const ID_HEX: usize = 12;
const SECRET_HEX: usize = 64;

/// A key that passed verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedKey {
    pub id: String,
    pub tenant: Tenant,
}

/// What `gtms keys list` shows; never the hash.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct KeySummary {
    pub id: String,
    pub tenant: Tenant,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub requests: u64,
    pub revoked: bool,
}

impl From<ApiKeyRecord> for KeySummary {
    fn from(r: ApiKeyRecord) -> Self {
        Self {
            id: r.id,
            tenant: r.tenant,
            name: r.name,
            created_at: r.created_at,
            last_used_at: r.last_used_at,
            requests: r.requests,
            revoked: r.revoked_at.is_some(),
        }
    }
}

#[derive(Debug, Default)]
struct Pending {
    /// Requests per UTC day number (unix seconds / 86,400); dated only when rolled up.
    by_day: BTreeMap<i64, u64>,
    last_used_at: i64,
}

fn day_name(day: i64) -> String {
    chrono::DateTime::from_timestamp(day * 86_400, 0).map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default()
}

pub struct ApiKeys {
    store: Store,
    hasher: Hasher,
    guard: AttemptGuard,
    verified: Mutex<HashMap<String, (Digest, VerifiedKey)>>,
    revoked: Mutex<HashSet<String>>,
    pending: Mutex<HashMap<String, Pending>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Splits a presented key into its id, if it has the `gtms_` shape.
pub fn key_id(presented: &str) -> Option<&str> {
    let rest = presented.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    (hex(id, ID_HEX) && hex(secret, SECRET_HEX)).then_some(id)
}

/// Tenants are short lowercase identifiers.
impl ApiKeys {
    pub fn new(store: Store, hasher: Hasher, guard: AttemptGuard) -> Self {
        Self {
            store,
            hasher,
            guard,
            verified: Mutex::new(HashMap::new()),
            revoked: Mutex::new(HashSet::new()),
            pending: Mutex::new(HashMap::new()),
        }
    }

    /// Issues a key for `tenant`; the returned key string is shown once and never stored.
    pub async fn create(&self, tenant: &Tenant, name: &str, now: i64) -> Result<(String, KeySummary), AuthError> {
        if name.chars().count() > 100 || name.chars().any(char::is_control) {
            return Err(AuthError::BadInput("name: at most 100 printable characters".into()));
        }
        let id = random_hex(ID_HEX / 2);
        let key = format!("{PREFIX}{id}_{}", random_hex(SECRET_HEX / 2));
        let hash = self.hasher.hash(key.clone()).await?;
        let record = ApiKeyRecord {
            id,
            tenant: tenant.clone(),
            name: name.to_owned(),
            hash,
            created_at: now,
            last_used_at: None,
            requests: 0,
            revoked_at: None,
        };
        self.store.insert_api_key(record.clone()).await?;
        Ok((key, record.into()))
    }

    /// Every key, usage rolled up first so counts are current.
    pub async fn list(&self) -> Result<Vec<KeySummary>, AuthError> {
        self.flush_usage().await?;
        let mut keys: Vec<KeySummary> = self.store.api_keys().await?.into_iter().map(Into::into).collect();
        keys.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(keys)
    }

    pub async fn revoke(&self, id: &str, now: i64) -> Result<KeySummary, AuthError> {
        lock(&self.revoked).insert(id.to_owned());
        lock(&self.verified).remove(id);
        match self.store.revoke_api_key(id, now).await? {
            Some(record) => Ok(record.into()),
            None => {
                lock(&self.revoked).remove(id);
                Err(AuthError::NotFound("key"))
            }
        }
    }

    /// Checks a presented key with no client address (the per-IP limit does not apply).
    pub async fn verify(&self, presented: &str) -> Result<VerifiedKey, AuthError> {
        self.verify_from(presented, None).await
    }

    /// Checks a presented key. Every failure is the same `InvalidCredentials`, except a
    /// refusal before argon2 (`TooManyAttempts`, `Busy`).
    pub async fn verify_from(&self, presented: &str, client: Option<IpAddr>) -> Result<VerifiedKey, AuthError> {
        let id = key_id(presented).ok_or(AuthError::InvalidCredentials)?;
        let digest: Digest = Sha256::digest(presented.as_bytes()).into();
        if let Some(settled) = self.settled(id, &digest) {
            return settled;
        }
        let record = self.store.api_key(id).await?.ok_or(AuthError::InvalidCredentials)?;
        if record.revoked_at.is_some() {
            return Err(AuthError::InvalidCredentials);
        }
        let _flight = self.guard.flight(id).await;
        // The verification we may have waited for can have settled this very key.
        if let Some(settled) = self.settled(id, &digest) {
            return settled;
        }
        let attempt = self.guard.admit(client, id)?;
        if !self.hasher.verify(presented.to_owned(), record.hash).await? {
            self.guard.failed(attempt, digest);
            return Err(AuthError::InvalidCredentials);
        }
        self.guard.succeeded(attempt);
        let key = VerifiedKey { id: record.id, tenant: record.tenant };
        // A revoke may have landed while argon2 ran; it wins.
        if lock(&self.revoked).contains(&key.id) {
            return Err(AuthError::InvalidCredentials);
        }
        lock(&self.verified).insert(key.id.clone(), (digest, key.clone()));
        Ok(key)
    }

    /// The answer for a key without argon2, when there is one: the cache of verified keys
    /// (one secret per id, so any other secret for a cached id is wrong), or a recent failure.
    fn settled(&self, id: &str, digest: &Digest) -> Option<Result<VerifiedKey, AuthError>> {
        if let Some((cached, key)) = lock(&self.verified).get(id) {
            return Some(if cached == digest { Ok(key.clone()) } else { Err(AuthError::InvalidCredentials) });
        }
        self.guard.failed_recently(digest).then_some(Err(AuthError::InvalidCredentials))
    }

    /// The failed-attempt guard (its limiters are persisted and purged by jobs).
    pub fn guard(&self) -> &AttemptGuard {
        &self.guard
    }

    /// Counts one request of `id` (in memory; see `flush_usage`).
    pub fn record_use(&self, id: &str, now: i64) {
        let mut pending = lock(&self.pending);
        // Look up before inserting, so the hot path allocates no key string.
        let entry = match pending.get_mut(id) {
            Some(entry) => entry,
            None => pending.entry(id.to_owned()).or_default(),
        };
        *entry.by_day.entry(now.div_euclid(86_400)).or_default() += 1;
        entry.last_used_at = entry.last_used_at.max(now);
    }

    /// Writes the counted usage into redb in one transaction. On failure the counts are put
    /// back, so nothing is lost to a transient error.
    pub async fn flush_usage(&self) -> Result<(), AuthError> {
        let taken: HashMap<String, Pending> = std::mem::take(&mut *lock(&self.pending));
        if taken.is_empty() {
            return Ok(());
        }
        let deltas: Vec<(String, UsageDelta)> = taken
            .iter()
            .map(|(id, p)| {
                let by_day = p.by_day.iter().map(|(d, n)| (day_name(*d), *n)).collect();
                (id.clone(), UsageDelta { by_day, last_used_at: p.last_used_at })
            })
            .collect();
        if let Err(e) = self.store.add_key_usage(deltas).await {
            let mut pending = lock(&self.pending);
            for (id, p) in taken {
                let entry = pending.entry(id).or_default();
                for (day, n) in p.by_day {
                    *entry.by_day.entry(day).or_default() += n;
                }
                entry.last_used_at = entry.last_used_at.max(p.last_used_at);
            }
            return Err(e.into());
        }
        Ok(())
    }

    pub async fn usage_by_day(&self, id: &str) -> Result<Vec<(String, u64)>, AuthError> {
        self.flush_usage().await?;
        Ok(self.store.key_usage_by_day(id).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_shape_is_checked_before_any_lookup() {
        let good = format!("gtms_{}_{}", "a1".repeat(6), "0f".repeat(32));
        assert_eq!(key_id(&good), Some("a1a1a1a1a1a1"));
        for bad in [
            "",
            "gtms_",
            "gtms_abc_def",
            "sk_live_x",
            &good.to_uppercase(),
            &format!("{good}0"),
            &good.replace('_', "-"),
        ] {
            assert_eq!(key_id(bad), None, "{bad}");
        }
    }
}
