//! Activities over the workspace's own records: memory writes and notifications (the `Record`
//! activity, idempotent per step), the coordinator's memory context, and memory compression.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Activities, ActivityError, StepCall};
use crate::memory::WriteRequest;

#[derive(Deserialize)]
struct Entry {
    scope: String,
    key: String,
    value: String,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    pinned: Option<bool>,
}

#[derive(Deserialize)]
struct Notice {
    event: String,
    text: String,
}

/// Writes `entries` to memory (skipping any this step already wrote) and queues `notify`.
pub async fn record(a: &Activities, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let author = call.tag();
    let system = crate::auth::SystemProof::workflow_step(author.clone());
    let entries: Vec<Entry> = serde_json::from_value(input.get("entries").cloned().unwrap_or(json!([])))
        .map_err(|e| ActivityError::Input(format!("memory entries: {e}")))?;
    let mut written = Vec::new();
    for e in entries {
        let current = a.store.memory_entry(&e.scope, &e.key).await?;
        let version = match current {
            Some(r) if r.author == author => r.version,
            _ => {
                let value = crate::domain::clip(&e.value, 12_000);
                let request = WriteRequest {
                    scope: e.scope.clone(),
                    key: e.key.clone(),
                    value,
                    pinned: e.pinned,
                    tags: e.tags,
                    if_version: None,
                };
                crate::memory::write_for_system(&a.store, &system, request).await?.0.version
            }
        };
        written.push(format!("{}/{}@{version}", e.scope, e.key));
    }
    let mut out = json!({"memory": written});
    if let Some(n) = input.get("notify").filter(|n| !n.is_null()) {
        let n: Notice =
            serde_json::from_value(n.clone()).map_err(|e| ActivityError::Input(format!("notification: {e}")))?;
        let id = format!("{author}/{}", n.event);
        a.notifications.queue(id.clone(), &n.event, n.text, Some(call.workflow_id.to_owned())).await?;
        out["notification"] = json!(id);
    }
    Ok(out)
}

/// What the team already knows: org entries and team entries, newest first (a few lines).
pub async fn load_context(a: &Activities) -> Result<Value, ActivityError> {
    let mut entries = a.store.memory_scope("org").await?;
    entries.sort_by_key(|e| std::cmp::Reverse(e.updated_at));
    let highlights: Vec<String> = entries
        .iter()
        .take(5)
        .map(|e| format!("{}/{}@{}: {}", e.scope, e.key, e.version, crate::domain::clip(&e.value, 160)))
        .collect();
    Ok(json!({"orgEntries": entries.len(), "highlights": highlights}))
}

/// Every worker's memory health.
pub async fn measure(a: &Activities) -> Result<Value, ActivityError> {
    let mut reports = Vec::new();
    let mut over = Vec::new();
    for w in a.store.workers().await? {
        let h = crate::memory::health(&a.store, &w.id).await?;
        if h.tokens > h.budget {
            over.push(w.id.clone());
        }
        reports.push(json!({"workerId": w.id, "tokens": h.tokens, "budget": h.budget, "status": h.status}));
    }
    Ok(json!({"workers": reports, "overBudget": over}))
}

/// Folds every over-budget worker scope (fast model; originals archived).
pub async fn compress(a: &Activities) -> Result<Value, ActivityError> {
    let reports = crate::memory::compress_all(&a.store, &a.compute.llm).await?;
    let folded: Vec<Value> = reports
        .iter()
        .filter(|r| r.compressed)
        .map(|r| json!({"workerId": r.worker_id, "folded": r.folded.len(), "summaryKey": r.summary_key}))
        .collect();
    Ok(json!({"scopes": reports.len(), "compressed": folded}))
}
