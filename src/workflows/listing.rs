//! How the workflow service reads lists of workflows without reading every one (issue 27):
//! a `Listing` pages the workflow list newest first, the approvals inbox oldest request
//! first, and answers the live workflows, the recently changed ones and the counts per
//! (type, status). The demo engine's listing is its store's workflow index (only the records
//! of a page are read); an engine without an index (Temporal, whose state lives in the
//! cluster) lists once and the same index, built over that listing, answers — so both page,
//! order and count alike.
//!
//! A page is asked for with a `limit` (1 to 1,000, default 100) and the opaque `cursor` the
//! previous page answered as `nextCursor`; no cursor (or an empty one) is the first page. A
//! cursor's text is `<ms>.<workflow id>` (`store::WorkflowCursor`); clients treat it as opaque.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::domain::paging::page_size;
use crate::domain::{WorkflowStatus, WorkflowType};
use crate::store::{
    IdPage, LiveRow, Store, StoreError, WorkflowCursor, WorkflowIndex, WorkflowPage, WorkflowQuery, WorkflowRecord,
};

/// The page of a list without filters: `GET /api/coordinator/approvals` and `…/runs`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// Items per page, 1 to 1,000 (default 100).
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<usize>,
    /// The `nextCursor` of the previous page (empty or absent: the first page).
    #[schemars(regex(pattern = r"^([0-9]{1,18}\..+)?$"))]
    pub cursor: Option<String>,
}

/// A page's size and where it starts, checked; `Err` says what is wrong, for a 400.
pub fn checked(limit: Option<usize>, cursor: Option<&str>) -> Result<(usize, Option<WorkflowCursor>), String> {
    let limit = page_size(limit, "items")?;
    let cursor = match cursor {
        None | Some("") => None,
        Some(text) => Some(text.parse().map_err(|()| format!("cursor {text:?} is not a cursor this list gave"))?),
    };
    Ok((limit, cursor))
}

/// The cursor of the page after `records`, when `more` follow: its last record's time (by
/// `at`) and id.
pub fn next_cursor(records: &[WorkflowRecord], more: bool, at: impl Fn(&WorkflowRecord) -> i64) -> Option<String> {
    let last = records.last().filter(|_| more)?;
    Some(WorkflowCursor { at_ms: at(last), id: last.id.clone() }.to_string())
}

/// The requested time of a record's pending approval (the approvals inbox's order).
pub fn requested_ms(w: &WorkflowRecord) -> i64 {
    w.approval.as_ref().map_or(w.created_ms, |a| a.requested_ms)
}

/// What the workflow lists are read from.
pub enum Listing {
    /// The demo engine's store, with its workflow index.
    Indexed(Store),
    /// One listing of an engine without an index, and an index over it.
    Snapshot { records: HashMap<Arc<str>, WorkflowRecord>, index: WorkflowIndex },
}

impl Listing {
    /// A listing over `records` (every workflow an engine knows).
    pub fn snapshot(records: Vec<WorkflowRecord>) -> Self {
        let index = WorkflowIndex::build(&records);
        Listing::Snapshot { records: records.into_iter().map(|w| (Arc::from(w.id.as_str()), w)).collect(), index }
    }

    /// The records of `ids` from the snapshot, in order.
    fn pick(records: &HashMap<Arc<str>, WorkflowRecord>, ids: &[Arc<str>]) -> Vec<WorkflowRecord> {
        ids.iter().filter_map(|id| records.get(id).cloned()).collect()
    }

    fn from_snapshot(records: &HashMap<Arc<str>, WorkflowRecord>, page: IdPage) -> WorkflowPage {
        WorkflowPage { records: Self::pick(records, &page.ids), total: page.total, more: page.more }
    }

    /// One page of workflows, newest start first.
    pub async fn page(&self, query: &WorkflowQuery<'_>) -> Result<WorkflowPage, StoreError> {
        match self {
            Listing::Indexed(store) => store.workflow_page(query).await,
            Listing::Snapshot { records, index } => Ok(Self::from_snapshot(records, index.page(query))),
        }
    }

    /// One page of the workflows waiting for a decision, oldest request first.
    pub async fn pending(&self, after: Option<&WorkflowCursor>, limit: usize) -> Result<WorkflowPage, StoreError> {
        match self {
            Listing::Indexed(store) => store.pending_approvals(after, limit).await,
            Listing::Snapshot { records, index } => Ok(Self::from_snapshot(records, index.pending(after, limit))),
        }
    }

    /// Every workflow not ended yet, oldest start first (no record is read).
    pub fn live(&self) -> Vec<LiveRow> {
        match self {
            Listing::Indexed(store) => store.live_workflows(),
            Listing::Snapshot { index, .. } => index.live(),
        }
    }

    /// The records of `ids`, in that order (an id gone since it was listed is skipped).
    pub async fn records(&self, ids: Vec<Arc<str>>) -> Result<Vec<WorkflowRecord>, StoreError> {
        match self {
            Listing::Indexed(store) => store.workflows_by_id(ids).await,
            Listing::Snapshot { records, .. } => Ok(Self::pick(records, &ids)),
        }
    }

    /// At most `limit` workflows changed at or after `since_ms`, last change first.
    pub async fn changed_since(&self, since_ms: i64, limit: usize) -> Result<Vec<WorkflowRecord>, StoreError> {
        match self {
            Listing::Indexed(store) => store.workflows_changed_since(since_ms, limit).await,
            Listing::Snapshot { records, index } => Ok(Self::pick(records, &index.changed_since(since_ms, limit))),
        }
    }

    /// How many workflows of each (type, status) pair there are (pairs with none left out).
    pub fn counts(&self) -> BTreeMap<(WorkflowType, WorkflowStatus), u64> {
        match self {
            Listing::Indexed(store) => store.workflow_counts(),
            Listing::Snapshot { index, .. } => index.counts(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::paging::{MAX_PAGE, PAGE};

    #[test]
    fn limits_and_cursors_are_checked() {
        assert_eq!(checked(None, None), Ok((PAGE, None)));
        assert_eq!(checked(None, Some("")), Ok((PAGE, None)));
        assert_eq!(checked(Some(MAX_PAGE), Some("5.w")).map(|(_, c)| c.map(|c| c.id)), Ok(Some("w".into())));
        assert!(checked(Some(0), None).is_err());
        assert!(checked(Some(MAX_PAGE + 1), None).is_err());
        assert!(checked(None, Some("w5")).is_err_and(|e| e.contains("\"w5\"")));
    }
}
