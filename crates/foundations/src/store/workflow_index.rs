//! An in-memory index of the workflows' list fields, so the workflow list, the approvals
//! inbox, the worker views and the status counts never read every workflow (issue 27). Built
//! once when the store opens (one pass over `WORKFLOWS`) and kept current by the workflow
//! group commit, which hands it every committed record before the writer is answered: a
//! transition acknowledged is a transition listed.
//!
//! It holds, per workflow, only what a filter or an order needs (type, worker, status, start,
//! last change, when its pending approval was asked); the ids newest first overall, by worker,
//! by type and by status; the pending approvals oldest first; and a count per (worker, type,
//! status), whose number grows with the workers, not with the workflows. A page walks the
//! smallest matching id set from its cursor and the records of that page alone are read.
//! The same index, built over a listing, pages what an engine without one returns.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::{Arc, RwLock, RwLockReadGuard};

use redb::ReadableDatabase;

use super::group_commit::Committed;
use super::records::fold_all;
use super::tables::WORKFLOWS;
use super::workflows::{WorkflowOutcome, WorkflowRecord};
use super::{Store, StoreError};
use crate::domain::{WorkflowStatus, WorkflowType};

/// Where a page of workflows ends: the time its last workflow is ordered by (its start in the
/// workflow list, its approval request in the inbox) and its id. Its text, `<ms>.<id>`, is the
/// opaque cursor clients send back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowCursor {
    pub at_ms: i64,
    pub id: String,
}

impl std::fmt::Display for WorkflowCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.at_ms, self.id)
    }
}

impl std::str::FromStr for WorkflowCursor {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, ()> {
        let (at, id) = s.split_once('.').ok_or(())?;
        let at_ms = at.parse::<i64>().map_err(|_| ())?;
        if at_ms < 0 || id.is_empty() {
            return Err(());
        }
        Ok(WorkflowCursor { at_ms, id: id.to_owned() })
    }
}

/// Which workflows a page shows, newest start first: every filter optional; `after` is where
/// the previous page ended.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkflowQuery<'a> {
    pub worker: Option<&'a str>,
    pub kind: Option<WorkflowType>,
    pub status: Option<WorkflowStatus>,
    pub after: Option<&'a WorkflowCursor>,
    pub limit: usize,
}

impl WorkflowQuery<'_> {
    fn admits(&self, worker: &str, kind: WorkflowType, status: WorkflowStatus) -> bool {
        self.worker.is_none_or(|w| w == worker)
            && self.kind.is_none_or(|k| k == kind)
            && self.status.is_none_or(|s| s == status)
    }
}

/// The ids of one page, how many match in all, and whether more follow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdPage {
    pub ids: Vec<Arc<str>>,
    pub total: u64,
    pub more: bool,
}

/// The records of one page, how many match in all, and whether more follow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkflowPage {
    pub records: Vec<WorkflowRecord>,
    pub total: u64,
    pub more: bool,
}

/// A workflow not ended yet, as the index knows it (the worker views need no more to tell a
/// worker's status and which workflow to describe).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRow {
    pub id: Arc<str>,
    pub worker: Arc<str>,
    pub status: WorkflowStatus,
}

/// A workflow's place in an order that puts the newest first, ties by id.
type Newest = (Reverse<i64>, Arc<str>);

/// What the index keeps of one workflow.
struct Row {
    kind: WorkflowType,
    worker: Arc<str>,
    status: WorkflowStatus,
    created_ms: i64,
    updated_ms: i64,
    /// When its pending approval was requested, while one is.
    pending_ms: Option<i64>,
}

impl Row {
    fn newest(&self, id: &Arc<str>) -> Newest {
        (Reverse(self.created_ms), Arc::clone(id))
    }
}

#[derive(Default)]
struct Inner {
    rows: HashMap<Arc<str>, Row>,
    newest: BTreeSet<Newest>,
    by_worker: BTreeSet<(Arc<str>, Newest)>,
    by_kind: BTreeSet<(WorkflowType, Newest)>,
    by_status: BTreeSet<(WorkflowStatus, Newest)>,
    /// Every workflow by its last change, newest first.
    updated: BTreeSet<Newest>,
    /// Pending approvals, oldest request first.
    pending: BTreeSet<(i64, Arc<str>)>,
    tallies: BTreeMap<(Arc<str>, WorkflowType, WorkflowStatus), u64>,
}

impl Inner {
    fn upsert(&mut self, w: &WorkflowRecord) {
        self.remove(&w.id);
        let id: Arc<str> = Arc::from(w.id.as_str());
        let pending = !w.status.is_terminal() && w.approval.as_ref().is_some_and(|a| a.is_pending());
        let row = Row {
            kind: w.kind,
            worker: self.shared_worker(&w.worker),
            status: w.status,
            created_ms: w.created_ms,
            updated_ms: w.updated_ms,
            pending_ms: w.approval.as_ref().filter(|_| pending).map(|a| a.requested_ms),
        };
        let key = row.newest(&id);
        self.newest.insert(key.clone());
        self.by_worker.insert((Arc::clone(&row.worker), key.clone()));
        self.by_kind.insert((row.kind, key.clone()));
        self.by_status.insert((row.status, key));
        self.updated.insert((Reverse(row.updated_ms), Arc::clone(&id)));
        if let Some(at) = row.pending_ms {
            self.pending.insert((at, Arc::clone(&id)));
        }
        *self.tallies.entry((Arc::clone(&row.worker), row.kind, row.status)).or_default() += 1;
        self.rows.insert(id, row);
    }

    /// The `Arc` that workflows of `worker` already share, or a new one for its first (a
    /// hundred thousand rows hold eight names, not a hundred thousand copies).
    fn shared_worker(&self, worker: &str) -> Arc<str> {
        let from = (Arc::from(worker), (Reverse(i64::MAX), Arc::from("")));
        match self.by_worker.range(from..).next() {
            Some((held, _)) if &**held == worker => Arc::clone(held),
            _ => Arc::from(worker),
        }
    }

    fn remove(&mut self, id: &str) {
        let Some((id, row)) = self.rows.remove_entry(id) else { return };
        let key = row.newest(&id);
        self.newest.remove(&key);
        self.by_worker.remove(&(Arc::clone(&row.worker), key.clone()));
        self.by_kind.remove(&(row.kind, key.clone()));
        self.by_status.remove(&(row.status, key));
        self.updated.remove(&(Reverse(row.updated_ms), Arc::clone(&id)));
        if let Some(at) = row.pending_ms {
            self.pending.remove(&(at, Arc::clone(&id)));
        }
        let tally = (row.worker, row.kind, row.status);
        if let Some(n) = self.tallies.get_mut(&tally) {
            *n -= 1;
            if *n == 0 {
                self.tallies.remove(&tally);
            }
        }
    }

    fn count(&self, admits: impl Fn(&str, WorkflowType, WorkflowStatus) -> bool) -> u64 {
        self.tallies.iter().filter(|((w, k, s), _)| admits(w, *k, *s)).map(|(_, n)| n).sum()
    }

    /// The ids of the smallest id set a filter of `q` names (all workflows without a filter),
    /// newest first, after `q.after`.
    fn candidates<'a>(&'a self, q: &WorkflowQuery<'a>) -> Box<dyn Iterator<Item = &'a Arc<str>> + 'a> {
        let sizes = [
            q.worker.map(|x| (self.count(|w, _, _| w == x), 0)),
            q.kind.map(|x| (self.count(|_, k, _| k == x), 1)),
            q.status.map(|x| (self.count(|_, _, s| s == x), 2)),
        ];
        let smallest = sizes.into_iter().flatten().min().map(|(_, which)| which);
        let after = q.after.map(|c| (Reverse(c.at_ms), Arc::from(c.id.as_str())));
        match (smallest, q.worker, q.kind, q.status) {
            (Some(0), Some(worker), _, _) => Box::new(keyed_after(&self.by_worker, Arc::from(worker), after)),
            (Some(1), _, Some(kind), _) => Box::new(keyed_after(&self.by_kind, kind, after)),
            (Some(2), _, _, Some(status)) => Box::new(keyed_after(&self.by_status, status, after)),
            _ => {
                let lower = after.map_or(Bound::Unbounded, Bound::Excluded);
                Box::new(self.newest.range((lower, Bound::Unbounded)).map(|(_, id)| id))
            }
        }
    }
}

/// The ids filed under `key` in one of the index's (key, newest) sets, newest first, after
/// `after`.
fn keyed_after<'a, K: Ord + Clone + 'a>(
    set: &'a BTreeSet<(K, Newest)>,
    key: K,
    after: Option<Newest>,
) -> impl Iterator<Item = &'a Arc<str>> + 'a {
    let lower = match after {
        Some(a) => Bound::Excluded((key.clone(), a)),
        None => Bound::Included((key.clone(), (Reverse(i64::MAX), Arc::from("")))),
    };
    set.range((lower, Bound::Unbounded)).take_while(move |(k, _)| *k == key).map(|(_, (_, id))| id)
}

/// The index; cheap to share.
#[derive(Default)]
pub struct WorkflowIndex(RwLock<Inner>);

/// The workflow index over every workflow of the file (`Store::open`).
pub(crate) fn build(db: &redb::Database) -> Result<WorkflowIndex, StoreError> {
    let index = WorkflowIndex::default();
    fold_all(&db.begin_read()?, WORKFLOWS, (), |_, w: WorkflowRecord| index.upsert(&w))?;
    Ok(index)
}

impl WorkflowIndex {
    /// What the workflow group commit hands each committed outcome: a written record updates
    /// `index`.
    pub(crate) fn on_commit(index: Arc<WorkflowIndex>) -> Committed<WorkflowOutcome> {
        Box::new(move |out| {
            if let WorkflowOutcome::Written(record) = out {
                index.upsert(record);
            }
        })
    }

    /// An index over `records` (an engine's listing).
    pub fn build(records: &[WorkflowRecord]) -> Self {
        let index = WorkflowIndex::default();
        records.iter().for_each(|w| index.upsert(w));
        index
    }

    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.0.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `record`, or replaces the workflow with its id.
    pub(crate) fn upsert(&self, record: &WorkflowRecord) {
        self.0.write().unwrap_or_else(|p| p.into_inner()).upsert(record);
    }

    /// Drops every workflow whose id holds `mark`.
    pub(crate) fn remove_holding(&self, mark: &str) {
        let mut inner = self.0.write().unwrap_or_else(|p| p.into_inner());
        let doomed: Vec<Arc<str>> = inner.rows.keys().filter(|id| id.contains(mark)).cloned().collect();
        doomed.iter().for_each(|id| inner.remove(id));
    }

    /// The page `q` asks for: at most `q.limit` ids, newest start first, after `q.after`.
    pub fn page(&self, q: &WorkflowQuery<'_>) -> IdPage {
        let inner = self.read();
        let total = inner.count(|w, k, s| q.admits(w, k, s));
        let mut ids = Vec::with_capacity(q.limit.min(1_024));
        let mut more = false;
        for id in inner.candidates(q) {
            let Some(row) = inner.rows.get(id) else { continue };
            if !q.admits(&row.worker, row.kind, row.status) {
                continue;
            }
            if ids.len() == q.limit {
                more = true;
                break;
            }
            ids.push(Arc::clone(id));
        }
        IdPage { ids, total, more }
    }

    /// At most `limit` workflows with a pending approval, oldest request first, after `after`.
    pub fn pending(&self, after: Option<&WorkflowCursor>, limit: usize) -> IdPage {
        let inner = self.read();
        let lower = after.map_or(Bound::Unbounded, |c| Bound::Excluded((c.at_ms, Arc::from(c.id.as_str()))));
        let mut walk = inner.pending.range((lower, Bound::Unbounded)).map(|(_, id)| Arc::clone(id));
        let ids: Vec<Arc<str>> = walk.by_ref().take(limit).collect();
        let more = walk.next().is_some();
        IdPage { ids, total: inner.pending.len() as u64, more }
    }

    /// Every workflow not ended yet, oldest start first.
    pub fn live(&self) -> Vec<LiveRow> {
        let inner = self.read();
        let mut live: Vec<(i64, LiveRow)> = [WorkflowStatus::Running, WorkflowStatus::Waiting]
            .into_iter()
            .flat_map(|s| keyed_after(&inner.by_status, s, None))
            .filter_map(|id| {
                let row = inner.rows.get(id)?;
                let live = LiveRow { id: Arc::clone(id), worker: Arc::clone(&row.worker), status: row.status };
                Some((row.created_ms, live))
            })
            .collect();
        live.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
        live.into_iter().map(|(_, row)| row).collect()
    }

    /// The workflows changed at or after `since_ms`, last change first, at most `limit`.
    pub fn changed_since(&self, since_ms: i64, limit: usize) -> Vec<Arc<str>> {
        let inner = self.read();
        let changed = inner.updated.iter().take_while(|(Reverse(at), _)| *at >= since_ms);
        changed.take(limit).map(|(_, id)| Arc::clone(id)).collect()
    }

    /// How many workflows of each (type, status) pair there are (pairs with none left out).
    pub fn counts(&self) -> BTreeMap<(WorkflowType, WorkflowStatus), u64> {
        let mut counts = BTreeMap::new();
        for ((_, kind, status), n) in &self.read().tallies {
            *counts.entry((*kind, *status)).or_default() += n;
        }
        counts
    }
}

impl Store {
    /// One page of workflows: the ids from the workflow index, then those records alone.
    pub async fn workflow_page(&self, query: &WorkflowQuery<'_>) -> Result<WorkflowPage, StoreError> {
        let IdPage { ids, total, more } = self.workflow_index.page(query);
        Ok(WorkflowPage { records: self.workflows_by_id(ids).await?, total, more })
    }

    /// One page of the workflows waiting for a decision, oldest request first.
    pub async fn pending_approvals(
        &self,
        after: Option<&WorkflowCursor>,
        limit: usize,
    ) -> Result<WorkflowPage, StoreError> {
        let IdPage { ids, total, more } = self.workflow_index.pending(after, limit);
        Ok(WorkflowPage { records: self.workflows_by_id(ids).await?, total, more })
    }

    /// Every workflow not ended yet, oldest start first, from the index (no record is read).
    pub fn live_workflows(&self) -> Vec<LiveRow> {
        self.workflow_index.live()
    }

    /// At most `limit` workflows changed at or after `since_ms`, last change first.
    pub async fn workflows_changed_since(
        &self,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<WorkflowRecord>, StoreError> {
        self.workflows_by_id(self.workflow_index.changed_since(since_ms, limit)).await
    }

    /// How many workflows of each (type, status) pair there are, from the index.
    pub fn workflow_counts(&self) -> BTreeMap<(WorkflowType, WorkflowStatus), u64> {
        self.workflow_index.counts()
    }

    /// The records of `ids`, in that order, read in one transaction (an id removed since it was
    /// listed is skipped).
    pub async fn workflows_by_id(&self, ids: Vec<Arc<str>>) -> Result<Vec<WorkflowRecord>, StoreError> {
        self.records_at(WORKFLOWS, ids).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ApprovalRecord;

    fn workflow(id: &str, worker: &str, kind: WorkflowType, status: WorkflowStatus, at: i64) -> WorkflowRecord {
        let mut w = WorkflowRecord::started(id.into(), kind, worker.into(), "{}".into(), None, at);
        w.status = status;
        w.updated_ms = at + 5;
        w
    }

    fn ids(page: &IdPage) -> Vec<&str> {
        page.ids.iter().map(|id| &**id).collect()
    }

    fn index() -> WorkflowIndex {
        use WorkflowStatus::{Completed, Running, Waiting};
        use WorkflowType::{ClientOnboarding as On, LeadQualification as Lead};
        let mut waiting = workflow("w3", "ann", On, Waiting, 30);
        waiting.approval = Some(ApprovalRecord {
            step: "review".into(),
            summary: "s".into(),
            requested_ms: 33,
            deadline_ms: None,
            decision: None,
            comment: None,
            decided_ms: None,
            decided_by: None,
        });
        WorkflowIndex::build(&[
            workflow("w1", "ann", On, Completed, 10),
            workflow("w2", "bob", Lead, Running, 20),
            waiting,
            workflow("w4", "bob", On, Completed, 40),
            workflow("w5", "ann", Lead, Completed, 40),
        ])
    }

    #[test]
    fn pages_go_newest_first_and_resume_after_their_cursor() {
        let index = index();
        let q = WorkflowQuery { limit: 2, ..WorkflowQuery::default() };
        let first = index.page(&q);
        assert_eq!((ids(&first), first.total, first.more), (vec!["w4", "w5"], 5, true));
        let cursor: WorkflowCursor = "40.w5".parse().expect("a cursor");
        let second = index.page(&WorkflowQuery { after: Some(&cursor), ..q });
        assert_eq!((ids(&second), second.more), (vec!["w3", "w2"], true));
        let cursor = WorkflowCursor { at_ms: 20, id: "w2".into() };
        let last = index.page(&WorkflowQuery { after: Some(&cursor), ..q });
        assert_eq!((ids(&last), last.more), (vec!["w1"], false));
    }

    #[test]
    fn filters_combine_and_count_exactly() {
        let index = index();
        let q = WorkflowQuery {
            worker: Some("ann"),
            kind: Some(WorkflowType::ClientOnboarding),
            limit: 10,
            ..WorkflowQuery::default()
        };
        let page = index.page(&q);
        assert_eq!((ids(&page), page.total), (vec!["w3", "w1"], 2));
        let done = index.page(&WorkflowQuery { status: Some(WorkflowStatus::Completed), limit: 1, ..q });
        assert_eq!((ids(&done), done.total, done.more), (vec!["w1"], 1, false));
        let nobody = index.page(&WorkflowQuery { worker: Some("zed"), limit: 10, ..WorkflowQuery::default() });
        assert_eq!((nobody.ids.len(), nobody.total), (0, 0));
    }

    #[test]
    fn a_transition_moves_a_workflow_between_sets_and_counts() {
        let index = index();
        assert_eq!(ids(&index.pending(None, 10)), ["w3"]);
        let live =
            |index: &WorkflowIndex| index.live().into_iter().map(|r| (r.id.to_string(), r.status)).collect::<Vec<_>>();
        assert_eq!(live(&index), [("w2".into(), WorkflowStatus::Running), ("w3".into(), WorkflowStatus::Waiting)]);
        let mut decided = workflow("w3", "ann", WorkflowType::ClientOnboarding, WorkflowStatus::Completed, 30);
        decided.updated_ms = 99;
        index.upsert(&decided);
        assert_eq!(index.pending(None, 10).total, 0);
        assert_eq!(live(&index), [("w2".into(), WorkflowStatus::Running)]);
        assert_eq!(index.changed_since(50, 10).iter().map(|id| &**id).collect::<Vec<_>>(), ["w3"]);
        let counts = index.counts();
        assert_eq!(counts.get(&(WorkflowType::ClientOnboarding, WorkflowStatus::Completed)), Some(&3));
        assert_eq!(counts.get(&(WorkflowType::ClientOnboarding, WorkflowStatus::Waiting)), None);
        index.remove_holding("w");
        assert_eq!(index.page(&WorkflowQuery { limit: 10, ..WorkflowQuery::default() }).total, 0);
    }

    #[test]
    fn a_workers_workflows_share_one_name() {
        let index = index();
        let inner = index.read();
        let worker = |id: &str| inner.rows.get(id).map(|row| Arc::clone(&row.worker));
        let (w1, w5) = (worker("w1"), worker("w5"));
        assert!(w1.zip(w5).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)), "ann's workflows hold one Arc");
    }

    #[test]
    fn cursors_read_back_what_they_print_and_refuse_the_rest() {
        let c = WorkflowCursor { at_ms: 1_700_000_000_000, id: "onboarding-1.2".into() };
        assert_eq!(c.to_string().parse::<WorkflowCursor>(), Ok(c));
        for bad in ["", "12", "x.w1", "-5.w1", "12."] {
            assert!(bad.parse::<WorkflowCursor>().is_err(), "{bad}");
        }
    }
}
