//! Compression: when a worker's scope is over its token budget, its oldest unpinned entries
//! are summarised by the fast model (the demo model offline) into one `summary-<time>` entry;
//! the originals move to the archive in the same transaction (readable through `history`).
//! A model failure, or an entry changed meanwhile, leaves every original in place. Run by
//! the scheduled `memory-compression` job and by `POST /api/memory/compress/:workerId`.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::budget::{DEFAULT_BUDGET_TOKENS, entry_tokens};
use super::entry::iso_ms;
use super::query::known_worker;
use super::{MAX_VALUE_BYTES, MemoryError};
use crate::auth::AdminProof;
use crate::brain::model::{Speaker, Turn};
use crate::brain::{Llm, TaskType};
use crate::domain::MemoryScope;
use crate::events::MEMORY_COMPRESSED;
use crate::store::{FoldPlan, MemoryOutcome, MemoryRecord, Store};

pub const COMPRESSION_AUTHOR: &str = "memory-compression";

/// Which entries to fold: none while the scope is within `budget`; otherwise the oldest
/// unpinned ones until what stays is at most half the budget (or nothing unpinned is left).
pub fn plan_fold(entries: &[MemoryRecord], budget: u64) -> Vec<&MemoryRecord> {
    let total: u64 = entries.iter().map(entry_tokens).sum();
    if total <= budget {
        return Vec::new();
    }
    let mut candidates: Vec<&MemoryRecord> = entries.iter().filter(|r| !r.pinned).collect();
    candidates.sort_by(|a, b| a.updated_at.cmp(&b.updated_at).then(a.key.cmp(&b.key)));
    let mut remaining = total;
    let mut fold = Vec::new();
    for r in candidates {
        if remaining <= budget / 2 {
            break;
        }
        remaining -= entry_tokens(r);
        fold.push(r);
    }
    fold
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompressionReport {
    pub worker_id: String,
    /// Whether anything was folded.
    pub compressed: bool,
    /// Keys moved to the archive (readable through their history).
    pub folded: Vec<String>,
    pub summary_key: Option<String>,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub budget: u64,
    pub last_compression: Option<String>,
    pub message: String,
}

/// On demand, by an admin.
pub async fn compress(
    store: &Store,
    llm: &Llm,
    admin: AdminProof<'_>,
    worker_id: &str,
) -> Result<CompressionReport, MemoryError> {
    let report = compress_worker(store, llm, worker_id).await?;
    crate::audit::record(store, admin, "memory.compress", worker_id, &[]).await;
    Ok(report)
}

fn clip_bytes(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

pub async fn compress_worker(store: &Store, llm: &Llm, worker_id: &str) -> Result<CompressionReport, MemoryError> {
    let (scope, records) = known_worker(store, worker_id).await?;
    let before: u64 = records.iter().map(entry_tokens).sum();
    let fold = plan_fold(&records, DEFAULT_BUDGET_TOKENS);
    let last = || async { Ok::<_, MemoryError>(store.last_compression(worker_id).await?.map(|c| iso_ms(c.at))) };
    let mut report = CompressionReport {
        worker_id: worker_id.to_owned(),
        compressed: false,
        folded: Vec::new(),
        summary_key: None,
        tokens_before: before,
        tokens_after: before,
        budget: DEFAULT_BUDGET_TOKENS,
        last_compression: None,
        message: String::new(),
    };
    if fold.is_empty() {
        report.message = if before <= DEFAULT_BUDGET_TOKENS {
            format!("{scope} is within its budget ({before} of {DEFAULT_BUDGET_TOKENS} tokens); nothing to fold")
        } else {
            format!("{scope} is over its budget but every entry is pinned; nothing to fold")
        };
        report.last_compression = last().await?;
        return Ok(report);
    }
    let listing: String = fold.iter().map(|r| format!("{}: {}\n", r.key, r.value.replace('\n', " "))).collect();
    let system = format!(
        "You compress the working memory of the AI worker {worker_id}. Summarise the entries below into short \
         factual bullet points. Keep names, numbers, dates and decisions; drop repetition."
    );
    let turns = vec![Turn { speaker: Speaker::User, text: listing }];
    let reply = llm.call(store, worker_id, TaskType::Fast, system, turns, (DEFAULT_BUDGET_TOKENS / 4) as u32).await?;
    let now = store.clock().utc();
    let now_ms = now.timestamp_millis();
    let summary_key = format!("summary-{}", now.format("%Y%m%dT%H%M%S%3f"));
    let plan = FoldPlan {
        worker: worker_id.to_owned(),
        scope: scope.to_string(),
        fold: fold.iter().map(|r| (r.key.clone(), r.version)).collect(),
        summary_key: summary_key.clone(),
        summary_value: clip_bytes(reply.text, MAX_VALUE_BYTES),
        author: COMPRESSION_AUTHOR.into(),
        now_ms,
    };
    let MemoryOutcome::Folded { summary, folded, .. } = store.fold_memory(plan).await? else {
        return Err(MemoryError::Changed(scope.to_string()));
    };
    let folded: Vec<String> = folded.into_iter().map(|r| r.key).collect();
    let after: u64 = store.memory_scope(&scope.to_string()).await?.iter().map(entry_tokens).sum();
    store.events().publish(
        MEMORY_COMPRESSED,
        json!({ "workerId": worker_id, "folded": folded, "summaryKey": summary.key, "version": summary.version }),
    );
    report.message = format!("folded {} entries of {scope} into {summary_key}", folded.len());
    Ok(CompressionReport {
        compressed: true,
        folded,
        summary_key: Some(summary_key),
        tokens_after: after,
        last_compression: Some(iso_ms(now_ms)),
        ..report
    })
}

/// The scheduled job: every worker scope with memory, each over its budget compressed.
pub async fn compress_all(store: &Store, llm: &Llm) -> Result<Vec<CompressionReport>, MemoryError> {
    let counts = super::worker_entry_counts(store);
    let mut reports = Vec::new();
    for worker in counts.keys() {
        if MemoryScope::worker(worker).is_ok() {
            reports.push(compress_worker(store, llm, worker).await?);
        }
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str, chars: usize, pinned: bool, updated_at: i64) -> MemoryRecord {
        MemoryRecord {
            scope: "worker:w".into(),
            key: key.into(),
            value: "x".repeat(chars),
            pinned,
            tags: vec![],
            version: 1,
            created_at: 0,
            updated_at,
            author: "t".into(),
        }
    }

    #[test]
    fn nothing_folds_within_budget_and_the_oldest_unpinned_fold_first() {
        let small = [record("a", 400, false, 1)];
        assert!(plan_fold(&small, 4000).is_empty());
        let big = [
            record("pinned", 8000, true, 0),
            record("new", 4000, false, 3),
            record("old", 4000, false, 1),
            record("mid", 4000, false, 2),
        ];
        let keys: Vec<&str> = plan_fold(&big, 4000).iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, vec!["old", "mid", "new"], "pinned entries never fold");
        let only_pinned = [record("p", 40000, true, 0)];
        assert!(plan_fold(&only_pinned, 4000).is_empty());
    }
}
