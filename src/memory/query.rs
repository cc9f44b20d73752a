//! Reading memory: the tree (scopes -> keys with sizes), word search over keys, values and
//! tags, a worker's health against its token budget, the org scope (`/api/project/memory`),
//! and the figures the worker views show (`memoryEntries`, `memory{...}`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::MemoryError;
use super::budget::{DEFAULT_BUDGET_TOKENS, entry_tokens};
use super::entry::{MemoryEntry, iso_ms};
use crate::brain::demo::words;
use crate::domain::MemoryScope;
use crate::store::{MemoryRecord, ScopeFilter, ScopeTotals, Store};

/// Entries untouched this long count as stale in the health report.
pub const STALE_AFTER_MS: i64 = 30 * 24 * 60 * 60 * 1000;
const MAX_QUERY_CHARS: usize = 200;
const MAX_HITS: usize = 50;

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeKey {
    pub key: String,
    /// Bytes of the value.
    pub size: usize,
    pub tokens: u64,
    pub version: u64,
    pub pinned: bool,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopeTree {
    pub scope: String,
    pub entries: usize,
    pub bytes: usize,
    pub tokens: u64,
    /// One page of the scope's keys, in key order.
    pub keys: Vec<TreeKey>,
    /// The `cursor` of the scope's next page of keys; absent on its last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tree {
    /// `org` first, then teams, then workers.
    pub scopes: Vec<ScopeTree>,
    pub total_entries: usize,
}

/// Keys per scope unless `limit` says otherwise, and the most it may say.
pub const TREE_PAGE: usize = 100;
pub const MAX_TREE_PAGE: usize = 1_000;

/// Which part of the tree to answer: every scope with its first page of keys, or, with `scope`,
/// that scope alone; from `cursor` (the `nextCursor` of the scope's previous page) on.
#[derive(Debug, Clone, Default, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreePage {
    /// Only this scope: `org`, `team:<id>` or `worker:<id>` (empty: every scope).
    #[schemars(regex(pattern = crate::domain::SCOPE_OR_EMPTY_PATTERN))]
    pub scope: Option<String>,
    /// The keys after this one (a scope's `nextCursor`), in each scope answered.
    pub cursor: Option<String>,
    /// Keys per scope, 1 to 1,000 (default 100).
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<usize>,
}

/// The memory tree from the memory index (no entry is read from the file): each scope's
/// totals and one page of its keys; its cost grows with the scopes and the page, not with memory.
pub fn tree(store: &Store, page: &TreePage) -> Result<Tree, MemoryError> {
    let limit = page.limit.unwrap_or(TREE_PAGE);
    if !(1..=MAX_TREE_PAGE).contains(&limit) {
        return Err(MemoryError::BadInput(format!("limit: 1 to {MAX_TREE_PAGE} keys per scope")));
    }
    let index = store.memory_index();
    let one_scope = page.scope.as_deref().filter(|s| !s.is_empty());
    let mut totals: Vec<(MemoryScope, ScopeTotals)> = match one_scope {
        Some(scope) => {
            let parsed = MemoryScope::parse(scope)?;
            index.totals_of(&parsed.to_string()).map(|t| (parsed, t)).into_iter().collect()
        }
        None => {
            index.scope_totals().into_iter().filter_map(|t| Some((MemoryScope::parse(&t.scope).ok()?, t))).collect()
        }
    };
    totals.sort_by(|a, b| a.0.cmp(&b.0));
    let total_entries = match one_scope {
        Some(_) => totals.iter().map(|(_, t)| t.entries).sum(),
        None => index.len(),
    };
    let scopes = totals
        .into_iter()
        .map(|(_, t)| {
            let (entries, more) = index.scope_keys(&t.scope, page.cursor.as_deref(), limit);
            let keys: Vec<TreeKey> = entries
                .iter()
                .map(|e| TreeKey {
                    key: e.key.clone(),
                    size: e.value_bytes,
                    tokens: e.tokens,
                    version: e.version,
                    pinned: e.pinned,
                    updated_at: iso_ms(e.updated_at),
                })
                .collect();
            let next_cursor = if more { keys.last().map(|k| k.key.clone()) } else { None };
            ScopeTree { scope: t.scope, entries: t.entries, bytes: t.bytes, tokens: t.tokens, keys, next_cursor }
        })
        .collect();
    Ok(Tree { scopes, total_entries })
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    #[serde(flatten)]
    pub entry: MemoryEntry,
    /// How many of the query's words the entry contains (key, value or tags).
    pub score: usize,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResults {
    pub query: String,
    pub scope: Option<String>,
    /// Best first (score, then most recently written); at most 50.
    pub results: Vec<SearchHit>,
    /// Entries matching: exact when `totalExact`, otherwise at least this many (counting stops
    /// after 50,000 postings, so a word in most of memory does not cost a scan).
    pub total: usize,
    pub total_exact: bool,
}

/// Entries containing words of `q` (words of three letters or more, case-insensitive),
/// optionally in one scope.
pub async fn search(store: &Store, q: &str, scope: Option<&str>) -> Result<SearchResults, MemoryError> {
    let scope = scope.filter(|s| !s.is_empty()).map(MemoryScope::parse).transpose()?;
    let too_long = q.chars().count() > MAX_QUERY_CHARS;
    let q = q.trim();
    let asked = words(q);
    if asked.is_empty() || too_long {
        return Err(MemoryError::BadInput(format!(
            "q: give 1-{MAX_QUERY_CHARS} characters with at least one word of three or more letters"
        )));
    }
    let scope_name = scope.as_ref().map(MemoryScope::to_string);
    let filter = scope_name.as_deref().map_or(ScopeFilter::Any, ScopeFilter::Exact);
    let (total, hits) = store.memory_index().search(&asked, filter, MAX_HITS);
    let scores: Vec<usize> = hits.iter().map(|(score, _)| *score).collect();
    let records = store.memory_entries(hits.into_iter().map(|(_, e)| (e.scope, e.key)).collect()).await?;
    let found = records.iter().zip(scores).filter_map(|(r, score)| Some((r.as_ref()?, score)));
    let results = found.map(|(r, score)| SearchHit { entry: r.into(), score }).collect();
    Ok(SearchResults { query: q.to_owned(), scope: scope_name, results, total: total.count, total_exact: total.exact })
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthReport {
    pub worker_id: String,
    pub total_entries: usize,
    pub pinned_facts: usize,
    /// Estimated tokens of the scope (about four characters per token).
    pub tokens: u64,
    pub budget: u64,
    /// tokens / budget.
    pub utilization: f64,
    /// ISO 8601 UTC; null before the first compression.
    pub last_compression: Option<String>,
    /// Entries not updated for 30 days.
    pub stale_entries: usize,
    /// `healthy` (under 80 % of the budget), `warning` (80-100 %) or `over-budget`.
    pub status: &'static str,
}

/// The worker scope of `worker_id`; 404 when neither the worker nor any memory of it exists.
pub(super) async fn known_worker(
    store: &Store,
    worker_id: &str,
) -> Result<(MemoryScope, Vec<MemoryRecord>), MemoryError> {
    let scope = MemoryScope::worker(worker_id)?;
    let records = store.memory_scope(&scope.to_string()).await?;
    if records.is_empty() && !store.memory_worker_known(worker_id).await? {
        return Err(MemoryError::NotFound(format!("no worker {worker_id:?}")));
    }
    Ok((scope, records))
}

pub async fn health(store: &Store, worker_id: &str) -> Result<HealthReport, MemoryError> {
    let (_, records) = known_worker(store, worker_id).await?;
    let now = store.now_ms();
    let tokens: u64 = records.iter().map(entry_tokens).sum();
    let utilization = (tokens as f64 / DEFAULT_BUDGET_TOKENS as f64 * 1000.0).round() / 1000.0;
    let status = match utilization {
        u if u > 1.0 => "over-budget",
        u if u >= 0.8 => "warning",
        _ => "healthy",
    };
    Ok(HealthReport {
        worker_id: worker_id.to_owned(),
        total_entries: records.len(),
        pinned_facts: records.iter().filter(|r| r.pinned).count(),
        tokens,
        budget: DEFAULT_BUDGET_TOKENS,
        utilization,
        last_compression: store.last_compression(worker_id).await?.map(|c| iso_ms(c.at)),
        stale_entries: records.iter().filter(|r| now - r.updated_at > STALE_AFTER_MS).count(),
        status,
    })
}

/// `GET /api/project/memory`: the org scope's entries.
pub async fn project(store: &Store) -> Result<Vec<MemoryEntry>, MemoryError> {
    Ok(store.memory_scope(&MemoryScope::Org.to_string()).await?.iter().map(MemoryEntry::from).collect())
}

/// The `memory` object of a worker's detail view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkerMemory {
    pub pinned_facts: usize,
    pub total_entries: usize,
    /// ISO 8601 UTC; null before the first compression.
    pub last_compression: Option<String>,
}

pub async fn worker_memory(store: &Store, worker_id: &str) -> Result<WorkerMemory, MemoryError> {
    let scope = MemoryScope::worker(worker_id)?;
    let totals = store.memory_index().totals_of(&scope.to_string()).unwrap_or_default();
    Ok(WorkerMemory {
        pinned_facts: totals.pinned,
        total_entries: totals.entries,
        last_compression: store.last_compression(worker_id).await?.map(|c| iso_ms(c.at)),
    })
}

/// `memoryEntries` of the worker list: live entries per worker id (absent = 0), from the
/// memory index's scope totals.
pub fn worker_entry_counts(store: &Store) -> BTreeMap<String, usize> {
    let totals = store.memory_index().scope_totals();
    let workers = totals.into_iter().filter_map(|t| match MemoryScope::parse(&t.scope) {
        Ok(MemoryScope::Worker(id)) => Some((id, t.entries)),
        _ => None,
    });
    workers.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{FoldPlan, MemoryWrite};

    fn write(scope: &str, key: &str, pinned: bool) -> MemoryWrite {
        MemoryWrite {
            scope: scope.into(),
            key: key.into(),
            value: format!("value of {key}"),
            pinned: Some(pinned),
            tags: None,
            if_version: None,
            author: "t".into(),
            now_ms: 1_000,
        }
    }

    async fn store_with(writes: &[(&str, &str, bool)]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("m.redb")).expect("open");
        for (scope, key, pinned) in writes {
            store.write_memory(write(scope, key, *pinned)).await.expect("write");
        }
        (dir, store)
    }

    #[tokio::test]
    async fn worker_memory_counts_only_that_workers_live_entries() {
        let (_dir, store) = store_with(&[
            ("worker:sdr", "a", true),
            ("worker:sdr", "b", false),
            ("worker:sdr", "c", false),
            ("worker:sdr-2", "a", true),
            ("team:sdr", "a", true),
            ("org", "a", true),
        ])
        .await;
        let sdr = worker_memory(&store, "sdr").await.expect("sdr");
        assert_eq!(sdr, WorkerMemory { pinned_facts: 1, total_entries: 3, last_compression: None });
        let empty = worker_memory(&store, "nobody").await.expect("an unknown worker has empty memory");
        assert_eq!(empty, WorkerMemory { pinned_facts: 0, total_entries: 0, last_compression: None });
        assert!(matches!(worker_memory(&store, "Bad/Id").await, Err(MemoryError::Address(_))), "ids are parsed");

        let counts = worker_entry_counts(&store);
        assert_eq!(counts.into_iter().collect::<Vec<_>>(), [("sdr".to_owned(), 3), ("sdr-2".to_owned(), 1)]);
    }

    #[tokio::test]
    async fn worker_memory_reports_the_last_compression_and_what_stays_live() {
        let (_dir, store) = store_with(&[("worker:w", "old", false), ("worker:w", "keep", true)]).await;
        let plan = FoldPlan {
            worker: "w".into(),
            scope: "worker:w".into(),
            fold: vec![("old".into(), 1)],
            summary_key: "summary-1".into(),
            summary_value: "old things".into(),
            author: "t".into(),
            now_ms: 1_700_000_000_000,
        };
        store.fold_memory(plan).await.expect("fold");
        let w = worker_memory(&store, "w").await.expect("w");
        assert_eq!((w.pinned_facts, w.total_entries), (1, 2), "the summary replaced the folded entry");
        assert_eq!(w.last_compression.as_deref(), Some("2023-11-14T22:13:20.000Z"));
    }
}
