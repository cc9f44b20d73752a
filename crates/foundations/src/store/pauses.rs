//! Pauses: a worker or a workflow type that an admin paused. While a pause stands, new starts
//! of what it names are refused and running workflows hold at their next activity boundary
//! (both engines read `hold` there). Every pause and resume bumps one revision number, so a
//! workflow that learned it was held (Temporal, from the transition activity) can tell whether
//! a resume it receives came after what it learned.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::codec;
use super::tables::{META, PAUSES};
use super::{Store, StoreError};
use crate::domain::WorkflowType;

/// The `META` key of the revision every pause and resume bumps.
const REVISION: &str = "pause_revision";

/// What a pause names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PauseScope {
    Worker,
    Type,
}

impl PauseScope {
    pub fn as_str(self) -> &'static str {
        match self {
            PauseScope::Worker => "worker",
            PauseScope::Type => "type",
        }
    }
}

/// A standing pause: what it names, who paused it, when and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PauseRecord {
    pub scope: PauseScope,
    /// A worker id, or a workflow type (`content-generation`).
    pub target: String,
    /// Who paused it (`u-12 (Dana)`).
    pub by: String,
    pub at_ms: i64,
    pub reason: String,
}

codec::unchanged_records!(PauseRecord, u64);

fn key(scope: PauseScope, target: &str) -> String {
    format!("{}/{target}", scope.as_str())
}

/// Why a workflow holds: the pause that names its worker (first) or its type, as of `revision`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub revision: u64,
    pub pause: PauseRecord,
}

/// What a resume lifted, and the revision it left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed {
    pub pause: PauseRecord,
    pub revision: u64,
}

fn bump(txn: &redb::WriteTransaction) -> Result<u64, StoreError> {
    let mut meta = txn.open_table(META)?;
    let current: u64 = match meta.get(REVISION)? {
        Some(v) => codec::decode(v.value())?,
        None => 0,
    };
    let next = current + 1;
    meta.insert(REVISION, codec::encode(&next)?.as_slice())?;
    Ok(next)
}

impl Store {
    /// Records a pause; when one already stands for the same target it is kept as it was and
    /// returned with `false`.
    pub async fn pause(&self, record: PauseRecord) -> Result<(PauseRecord, bool), StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let outcome = {
                let mut table = txn.open_table(PAUSES)?;
                let key = key(record.scope, &record.target);
                let standing: Option<PauseRecord> = match table.get(key.as_str())? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                match standing {
                    Some(standing) => (standing, false),
                    None => {
                        table.insert(key.as_str(), codec::encode(&record)?.as_slice())?;
                        (record, true)
                    }
                }
            };
            if outcome.1 {
                bump(&txn)?;
            }
            txn.commit()?;
            Ok(outcome)
        })
        .await
    }

    /// Lifts the pause on `target`; `None` when none stands.
    pub async fn resume(&self, scope: PauseScope, target: &str) -> Result<Option<Resumed>, StoreError> {
        let key = key(scope, target);
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let removed: Option<PauseRecord> = {
                let mut table = txn.open_table(PAUSES)?;
                let removed = table.remove(key.as_str())?;
                match removed {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                }
            };
            let Some(pause) = removed else { return Ok(None) };
            let revision = bump(&txn)?;
            txn.commit()?;
            Ok(Some(Resumed { pause, revision }))
        })
        .await
    }

    /// Every standing pause, workers first, each group by target.
    pub async fn pauses(&self) -> Result<Vec<PauseRecord>, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(PAUSES)?;
            let mut pauses = Vec::new();
            for entry in table.iter()? {
                pauses.push(codec::decode::<PauseRecord>(entry?.1.value())?);
            }
            pauses.sort_by(|a, b| {
                (a.scope != PauseScope::Worker, &a.target).cmp(&(b.scope != PauseScope::Worker, &b.target))
            });
            Ok(pauses)
        })
        .await
    }

    /// The pause a workflow of `worker` and `kind` holds for, if any, with the current revision.
    pub async fn hold(&self, worker: &str, kind: WorkflowType) -> Result<Option<Hold>, StoreError> {
        let keys = [key(PauseScope::Worker, worker), key(PauseScope::Type, kind.as_str())];
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(PAUSES)?;
            for key in &keys {
                if let Some(v) = table.get(key.as_str())? {
                    let pause: PauseRecord = codec::decode(v.value())?;
                    let revision = match txn.open_table(META)?.get(REVISION)? {
                        Some(v) => codec::decode(v.value())?,
                        None => 0,
                    };
                    return Ok(Some(Hold { revision, pause }));
                }
            }
            Ok(None)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pause(scope: PauseScope, target: &str, reason: &str) -> PauseRecord {
        PauseRecord { scope, target: target.into(), by: "u-1 (Ann)".into(), at_ms: 1_000, reason: reason.into() }
    }

    #[tokio::test]
    async fn a_pause_stands_until_resumed_and_every_change_bumps_the_revision() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("t.redb")).expect("open");
        let kind = WorkflowType::ContentGeneration;
        assert_eq!(store.hold("content-writer", kind).await.expect("hold"), None);

        let (_, created) = store.pause(pause(PauseScope::Type, "content-generation", "brand review")).await.expect("p");
        assert!(created);
        let (kept, created) = store.pause(pause(PauseScope::Type, "content-generation", "again")).await.expect("p");
        assert!(!created, "a second pause of the same target keeps the first");
        assert_eq!(kept.reason, "brand review");
        let held = store.hold("content-writer", kind).await.expect("hold").expect("held by the type");
        assert_eq!((held.revision, held.pause.target.as_str()), (1, "content-generation"));

        store.pause(pause(PauseScope::Worker, "content-writer", "rollout")).await.expect("p");
        let held = store.hold("content-writer", kind).await.expect("hold").expect("held");
        assert_eq!((held.revision, held.pause.scope), (2, PauseScope::Worker), "the worker's pause is named first");
        let targets: Vec<String> = store.pauses().await.expect("list").into_iter().map(|p| p.target).collect();
        assert_eq!(targets, ["content-writer", "content-generation"]);

        let resumed = store.resume(PauseScope::Worker, "content-writer").await.expect("r").expect("stood");
        assert_eq!(resumed.revision, 3);
        assert_eq!(store.resume(PauseScope::Worker, "content-writer").await.expect("r"), None);
        let held = store.hold("content-writer", kind).await.expect("hold").expect("the type still holds it");
        assert_eq!(held.revision, 3);
        store.resume(PauseScope::Type, "content-generation").await.expect("r");
        assert_eq!(store.hold("content-writer", kind).await.expect("hold"), None);
        drop(store);
        let reopened = Store::open(&dir.path().join("t.redb")).expect("reopen");
        assert!(reopened.pauses().await.expect("list").is_empty());
    }
}
