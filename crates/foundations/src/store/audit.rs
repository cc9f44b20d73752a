//! The audit log: every admin action, appended in order and never changed. Each record holds
//! the SHA-256 of the one before (`prev`) and its own (`hash`), so changing, removing or
//! reordering a record breaks the chain at that point, and `verify` names where. A record's
//! hash is the SHA-256 (lowercase hex) of the compact JSON of its other fields, in the order
//! `seq, at, actor, action, target, from, detail, prev` — what a script outside the appliance
//! recomputes from an export. The first record's `prev` is 64 zeros.

use std::collections::BTreeMap;
use std::sync::Arc;

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::codec;
use super::group_commit::GroupCommit;
use super::tables::AUDIT;
use super::{Store, StoreError};
use crate::domain::rfc3339_ms;

/// The `prev` of the first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What an action asks to be recorded; the store adds the sequence number, the time and the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Who: the user's id and name (`u-12 (Dana)`), or `cli` / `system`.
    pub actor: String,
    /// What, as `noun.verb` (`deal.update`, `key.create`).
    pub action: String,
    /// What it was done to (a deal id, a memory key, a key id).
    pub target: String,
    /// From where: the channel and, when known, the client address (`api 10.0.0.7`).
    pub from: String,
    /// What else a reader needs (a new stage, a decision); never a secret.
    pub detail: BTreeMap<String, String>,
}

/// One record of the log, as stored and as exported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditRecord {
    /// 1, 2, 3, … in the order the actions were recorded.
    pub seq: u64,
    /// When it was recorded (RFC 3339, UTC, milliseconds).
    pub at: String,
    pub actor: String,
    pub action: String,
    pub target: String,
    pub from: String,
    pub detail: BTreeMap<String, String>,
    /// The `hash` of the record before (64 zeros for the first).
    pub prev: String,
    /// SHA-256 of this record's other fields (module docs).
    pub hash: String,
}

codec::unchanged_records!(AuditRecord);

/// The fields a hash covers, in their fixed order.
#[derive(Serialize)]
struct Chained<'a> {
    seq: u64,
    at: &'a str,
    actor: &'a str,
    action: &'a str,
    target: &'a str,
    from: &'a str,
    detail: &'a BTreeMap<String, String>,
    prev: &'a str,
}

impl AuditRecord {
    /// The hash this record's fields give (what `hash` must hold).
    pub fn expected_hash(&self) -> String {
        let chained = Chained {
            seq: self.seq,
            at: &self.at,
            actor: &self.actor,
            action: &self.action,
            target: &self.target,
            from: &self.from,
            detail: &self.detail,
            prev: &self.prev,
        };
        // A struct of strings and a string map always serializes.
        let json = serde_json::to_vec(&chained).unwrap_or_default();
        hex::encode(Sha256::digest(&json))
    }
}

/// Which records a page holds: newest first, older than `before` (a `seq`), at most `limit`,
/// each filter an exact match when given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditQuery {
    pub before: Option<u64>,
    pub limit: usize,
    pub action: Option<String>,
    pub actor: Option<String>,
    pub target: Option<String>,
}

impl AuditQuery {
    fn admits(&self, r: &AuditRecord) -> bool {
        let is = |want: &Option<String>, have: &str| want.as_deref().is_none_or(|w| w == have);
        is(&self.action, &r.action) && is(&self.actor, &r.actor) && is(&self.target, &r.target)
    }
}

/// A page of the log and the cursor of the next (older) page, if there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    pub records: Vec<AuditRecord>,
    pub next_before: Option<u64>,
}

/// Where a walk of the chain stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditBreak {
    pub seq: u64,
    pub reason: String,
}

/// What `verify` found: how many records it walked and the first broken link, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditVerdict {
    pub records: u64,
    pub broken: Option<AuditBreak>,
}

/// One record to append, with the time it was asked for.
pub(crate) struct AuditAppend {
    entry: AuditEntry,
    at: String,
}

/// Concurrent appends share one durable commit (`group_commit`), each chained after the one
/// before it inside the batch's transaction: an audited action waits for one fsync of its own
/// however many run at once.
pub(crate) struct AuditLog(Arc<GroupCommit<AuditAppend, AuditRecord>>);

impl AuditLog {
    pub(crate) fn new() -> Self {
        Self(Arc::new(GroupCommit::new(append, Box::new(|_| {}))))
    }
}

/// Appends one record after the last (redb runs one writer at a time, so no two records share
/// a `seq` or a `prev`).
fn append(txn: &WriteTransaction, op: AuditAppend) -> Result<AuditRecord, StoreError> {
    let mut table = txn.open_table(AUDIT)?;
    let last: Option<AuditRecord> = match table.last()? {
        Some((_, v)) => Some(codec::decode(v.value())?),
        None => None,
    };
    let AuditAppend { entry: AuditEntry { actor, action, target, from, detail }, at } = op;
    let (seq, prev) = last.map_or((1, GENESIS.to_owned()), |l| (l.seq + 1, l.hash));
    let mut record = AuditRecord { seq, at, actor, action, target, from, detail, prev, hash: String::new() };
    record.hash = record.expected_hash();
    table.insert(seq, codec::encode(&record)?.as_slice())?;
    Ok(record)
}

impl Store {
    /// Appends one record after the last and returns it once committed (with whatever other
    /// appends were queued beside it: `AuditLog`).
    pub async fn append_audit(&self, entry: AuditEntry) -> Result<AuditRecord, StoreError> {
        let at = rfc3339_ms(self.now_ms());
        self.audit_log.0.submit(&self.db, AuditAppend { entry, at }).await
    }

    /// One page of the log, newest first. A filtered page reads older records until it is
    /// full or the log ends.
    pub async fn audit_page(&self, query: AuditQuery) -> Result<AuditPage, StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(AUDIT)?;
            let range = match query.before {
                Some(before) => table.range(..before)?,
                None => table.range(0..)?,
            };
            let mut records = Vec::new();
            let mut next_before = None;
            for entry in range.rev() {
                let record: AuditRecord = codec::decode(entry?.1.value())?;
                if !query.admits(&record) {
                    continue;
                }
                if records.len() == query.limit {
                    next_before = records.last().map(|r: &AuditRecord| r.seq);
                    break;
                }
                records.push(record);
            }
            Ok(AuditPage { records, next_before })
        })
        .await
    }

    /// Every record, oldest first, folded into `acc` one at a time (exports).
    pub async fn audit_fold<A, F>(&self, mut acc: A, mut add: F) -> Result<A, StoreError>
    where
        A: Send + 'static,
        F: FnMut(&mut A, AuditRecord) + Send + 'static,
    {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            for entry in txn.open_table(AUDIT)?.iter()? {
                add(&mut acc, codec::decode(entry?.1.value())?);
            }
            Ok(acc)
        })
        .await
    }

    /// Walks the chain from the first record: each must be numbered one after the one before,
    /// point at its hash, and hash to what it holds. Stops at the first that does not.
    pub async fn verify_audit(&self) -> Result<AuditVerdict, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let mut walked = 0;
            let mut prev = GENESIS.to_owned();
            for entry in txn.open_table(AUDIT)?.iter()? {
                let (key, value) = entry?;
                let seq = key.value();
                let broken =
                    |reason: String| Ok(AuditVerdict { records: walked, broken: Some(AuditBreak { seq, reason }) });
                let record: AuditRecord = match codec::decode(value.value()) {
                    Ok(r) => r,
                    Err(e) => return broken(format!("record {seq} cannot be read: {e}")),
                };
                if record.seq != seq || seq != walked + 1 {
                    return broken(format!("record {seq} follows record {walked} (a record is missing or moved)"));
                }
                if record.prev != prev {
                    return broken(format!("record {seq} does not point at the hash of record {walked}"));
                }
                if record.expected_hash() != record.hash {
                    return broken(format!("record {seq} was changed after it was written (its hash does not match)"));
                }
                prev = record.hash;
                walked = seq;
            }
            Ok(AuditVerdict { records: walked, broken: None })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(action: &str, target: &str) -> AuditEntry {
        AuditEntry {
            actor: "u-1 (Dana)".into(),
            action: action.into(),
            target: target.into(),
            from: "api 127.0.0.1".into(),
            detail: BTreeMap::from([("stage".to_owned(), "proposal".to_owned())]),
        }
    }

    fn open() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("audit.redb")).expect("open store");
        (dir, store)
    }

    #[tokio::test]
    async fn records_chain_page_newest_first_and_filter() {
        let (_dir, store) = open();
        for i in 0..5 {
            let action = if i % 2 == 0 { "deal.update" } else { "memory.write" };
            store.append_audit(entry(action, &format!("t{i}"))).await.expect("append");
        }
        let first = store.audit_page(AuditQuery { limit: 2, ..AuditQuery::default() }).await.expect("page");
        assert_eq!(first.records.iter().map(|r| r.seq).collect::<Vec<_>>(), [5, 4]);
        assert_eq!(first.next_before, Some(4));
        assert_eq!(first.records[1].prev, store_hash(&store, 3).await);
        let rest = AuditQuery { before: first.next_before, limit: 10, ..AuditQuery::default() };
        let rest = store.audit_page(rest).await.expect("page");
        assert_eq!(rest.records.iter().map(|r| r.seq).collect::<Vec<_>>(), [3, 2, 1]);
        assert_eq!((rest.next_before, rest.records[2].prev.as_str()), (None, GENESIS));
        let deals = AuditQuery { limit: 10, action: Some("deal.update".into()), ..AuditQuery::default() };
        let deals = store.audit_page(deals).await.expect("page");
        assert_eq!(deals.records.iter().map(|r| r.seq).collect::<Vec<_>>(), [5, 3, 1]);
        let verdict = store.verify_audit().await.expect("verify");
        assert_eq!(verdict, AuditVerdict { records: 5, broken: None });
    }

    /// Appends made at once share commits and still form one unbroken chain, one record each.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_chain_without_gaps() {
        let (_dir, store) = open();
        let appends = (0..64).map(|i| {
            let store = store.clone();
            tokio::spawn(async move { store.append_audit(entry("memory.write", &format!("k{i}"))).await })
        });
        let mut seqs: Vec<u64> = Vec::new();
        for append in appends.collect::<Vec<_>>() {
            seqs.push(append.await.expect("task").expect("append").seq);
        }
        seqs.sort_unstable();
        assert_eq!(seqs, (1..=64).collect::<Vec<_>>(), "one seq each, none twice");
        assert_eq!(store.verify_audit().await.expect("verify"), AuditVerdict { records: 64, broken: None });
    }

    async fn store_hash(store: &Store, seq: u64) -> String {
        let page = AuditQuery { before: Some(seq + 1), limit: 1, ..AuditQuery::default() };
        store.audit_page(page).await.expect("page").records.remove(0).hash
    }

    /// Rewrites record `seq` in place with `change`, as someone with the file could.
    async fn tamper(store: &Store, seq: u64, change: impl FnOnce(&mut AuditRecord) + Send + 'static) {
        store
            .blocking(move |db| {
                let txn = db.begin_write()?;
                {
                    let mut table = txn.open_table(AUDIT)?;
                    let mut record: AuditRecord = match table.get(seq)? {
                        Some(v) => codec::decode(v.value())?,
                        None => return Ok(()),
                    };
                    change(&mut record);
                    table.insert(seq, codec::encode(&record)?.as_slice())?;
                }
                txn.commit()?;
                Ok(())
            })
            .await
            .expect("tamper");
    }

    #[tokio::test]
    async fn verify_names_the_first_changed_or_missing_record() {
        let (_dir, store) = open();
        for i in 0..4 {
            store.append_audit(entry("deal.update", &format!("t{i}"))).await.expect("append");
        }
        tamper(&store, 3, |r| r.target = "someone-else".into()).await;
        let verdict = store.verify_audit().await.expect("verify");
        assert_eq!(verdict.records, 2);
        assert_eq!(verdict.broken.as_ref().map(|b| b.seq), Some(3), "{verdict:?}");
        assert!(verdict.broken.is_some_and(|b| b.reason.contains("changed")));

        // Rehashing the changed record does not help: the next one no longer points at it.
        tamper(&store, 3, |r| r.hash = r.expected_hash()).await;
        let verdict = store.verify_audit().await.expect("verify");
        assert_eq!(verdict.broken.as_ref().map(|b| b.seq), Some(4), "{verdict:?}");

        let (_dir, store) = open();
        for i in 0..3 {
            store.append_audit(entry("deal.update", &format!("t{i}"))).await.expect("append");
        }
        store
            .blocking(|db| {
                let txn = db.begin_write()?;
                txn.open_table(AUDIT)?.remove(2)?;
                txn.commit()?;
                Ok(())
            })
            .await
            .expect("remove");
        let verdict = store.verify_audit().await.expect("verify");
        assert_eq!(verdict.broken.map(|b| (b.seq, b.reason.contains("missing"))), Some((3, true)));
    }

    #[test]
    fn the_hash_is_the_sha256_of_the_documented_json() {
        let record = AuditRecord {
            seq: 1,
            at: "2026-11-26T10:00:00.000Z".into(),
            actor: "cli".into(),
            action: "key.create".into(),
            target: "k-1".into(),
            from: "cli".into(),
            detail: BTreeMap::from([("tenant".to_owned(), "acme".to_owned())]),
            prev: GENESIS.into(),
            hash: String::new(),
        };
        let json = format!(
            r#"{{"seq":1,"at":"2026-11-26T10:00:00.000Z","actor":"cli","action":"key.create","target":"k-1","from":"cli","detail":{{"tenant":"acme"}},"prev":"{GENESIS}"}}"#
        );
        assert_eq!(record.expected_hash(), hex::encode(Sha256::digest(json.as_bytes())));
    }
}
