//! Removing what the demo's simulated team wrote (`gtms demo-reset`), found by the mark its
//! workflow ids carry: every workflow whose id holds the mark, its run-ledger row and its
//! notifications, and every memory entry whose current version such a workflow wrote (its
//! author is `workflow:<id>#<step>`), with its earlier versions; and every deal whose
//! `externalId` starts with `SIMULATED_DEAL_PREFIX`. An entry a person wrote or edited since
//! keeps everything. One transaction. For a data file no server holds: the memory index is
//! built from the file when it is next opened.

use redb::{ReadableTable, WriteTransaction};

use super::memory_record::MemoryRecord;
use super::tables::{DEALS, MEMORY, MEMORY_VERSIONS, OUTBOX, RUNS, RecordTable, WORKFLOWS};
use super::workspace::DealRecord;
use super::{Store, StoreError, codec};

/// How the `externalId` of a deal the simulated team opened starts.
pub const SIMULATED_DEAL_PREFIX: &str = "sim-deal-";

/// Whether a deal's `externalId` marks it as the simulated team's.
pub fn is_simulated_deal(external_id: Option<&str>) -> bool {
    external_id.is_some_and(|e| e.starts_with(SIMULATED_DEAL_PREFIX))
}

/// What `Store::remove_marked` removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    pub workflows: usize,
    pub runs: usize,
    pub notifications: usize,
    /// Live memory entries (their earlier versions went with them).
    pub memory: usize,
    pub deals: usize,
}

/// Removes the rows of `table` whose key holds `mark`; returns how many.
fn remove_keys_holding(txn: &WriteTransaction, table: RecordTable, mark: &str) -> Result<usize, StoreError> {
    let mut t = txn.open_table(table)?;
    let mut doomed = Vec::new();
    for entry in t.iter()? {
        let key = entry?.0.value().to_owned();
        if key.contains(mark) {
            doomed.push(key);
        }
    }
    for key in &doomed {
        t.remove(key.as_str())?;
    }
    Ok(doomed.len())
}

/// Removes the live memory entries a marked workflow wrote last, with their earlier versions.
fn remove_marked_memory(txn: &WriteTransaction, mark: &str) -> Result<usize, StoreError> {
    let mut live = txn.open_table(MEMORY)?;
    let mut doomed = Vec::new();
    for entry in live.iter()? {
        let (key, bytes) = entry?;
        let record: MemoryRecord = codec::decode(bytes.value())?;
        if record.author.starts_with("workflow:") && record.author.contains(mark) {
            doomed.push(key.value().to_owned());
        }
    }
    let mut versions = txn.open_table(MEMORY_VERSIONS)?;
    for key in &doomed {
        live.remove(key.as_str())?;
        // Versions are `<scope>/<key>/<version>`: '0' follows '/' in byte order.
        let (start, end) = (format!("{key}/"), format!("{key}0"));
        let old: Vec<String> = versions
            .range(start.as_str()..end.as_str())?
            .map(|e| e.map(|(k, _)| k.value().to_owned()))
            .collect::<Result<_, _>>()?;
        for version in old {
            versions.remove(version.as_str())?;
        }
    }
    Ok(doomed.len())
}

/// Removes the deals the simulated team opened; returns their ids.
fn remove_simulated_deals(txn: &WriteTransaction) -> Result<Vec<String>, StoreError> {
    let mut deals = txn.open_table(DEALS)?;
    let mut doomed = Vec::new();
    for entry in deals.iter()? {
        let (key, bytes) = entry?;
        let deal: DealRecord = codec::decode(bytes.value())?;
        if is_simulated_deal(deal.external_id.as_deref()) {
            doomed.push(key.value().to_owned());
        }
    }
    for key in &doomed {
        deals.remove(key.as_str())?;
    }
    Ok(doomed)
}

impl Store {
    /// Removes what the workflows whose id holds `mark` left (see the module's comment).
    pub async fn remove_marked(&self, mark: &str) -> Result<Removed, StoreError> {
        let (mark, deal_index) = (mark.to_owned(), std::sync::Arc::clone(&self.deal_index));
        let workflow_index = std::sync::Arc::clone(&self.workflow_index);
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let deals = remove_simulated_deals(&txn)?;
            let removed = Removed {
                workflows: remove_keys_holding(&txn, WORKFLOWS, &mark)?,
                runs: remove_keys_holding(&txn, RUNS, &mark)?,
                notifications: remove_keys_holding(&txn, OUTBOX, &mark)?,
                memory: remove_marked_memory(&txn, &mark)?,
                deals: deals.len(),
            };
            deal_index.commit(txn, |index| deals.iter().for_each(|id| index.remove(id)))?;
            workflow_index.remove_holding(&mark);
            Ok(removed)
        })
        .await
    }
}
