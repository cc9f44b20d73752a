//! Hierarchical memory: entries addressed by scope (`org`, `team:<id>`, `worker:<id>`) and
//! key, every overwrite kept as a version, compression that folds a worker's oldest unpinned
//! entries into one summary (originals archived, never lost), search, the tree and health.
//! The HTTP routes, the MCP tools, the Brain and the worker views all call these functions.
//! Writes need an admin (`principal.require`) or come from the appliance itself (workflows,
//! compression); each is durable before it returns and is announced as `memory.written`.

mod budget;
mod compress;
mod entry;
mod query;

pub use budget::{DEFAULT_BUDGET_TOKENS, entry_tokens};
pub use compress::{CompressionReport, compress, compress_all, compress_worker};
pub use entry::{HistoryVersion, KeyHistory, MemoryEntry, WriteRequest, iso_ms};
pub use query::{
    HealthReport, ScopeTree, SearchHit, SearchResults, Tree, TreeKey, TreePage, WorkerMemory, health, project, search,
    tree, worker_entry_counts, worker_memory,
};

use serde_json::json;

use crate::auth::{AdminProof, Principal, SystemProof};
use crate::domain::{MemoryAddressError, MemoryKey, MemoryScope};
use crate::error::{ErrorKind, ServiceError};
use crate::events::MEMORY_WRITTEN;
use crate::store::{MemoryOutcome, MemoryWrite, Store, StoreError};

/// Largest value of one entry, in bytes.
pub const MAX_VALUE_BYTES: usize = 16 * 1024;
const MAX_TAGS: usize = 20;
const MAX_TAG_CHARS: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error(transparent)]
    Address(#[from] MemoryAddressError),
    #[error("{0}")]
    BadInput(String),
    #[error("the value is {0} bytes; a memory value may be at most 16384 bytes (16 KiB)")]
    TooLarge(usize),
    #[error("{0}")]
    NotFound(String),
    #[error("{scope}/{key} is at version {current}, not {expected}; read it again and retry")]
    Stale { scope: String, key: String, expected: u64, current: u64 },
    #[error("memory changed while compressing {0}; nothing was folded, try again")]
    Changed(String),
    #[error("compression needs the language model: {0}")]
    Model(#[from] crate::brain::ModelError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError for MemoryError {
    fn kind(&self) -> ErrorKind {
        match self {
            MemoryError::Address(_) | MemoryError::BadInput(_) => ErrorKind::BadInput,
            MemoryError::TooLarge(_) => ErrorKind::TooLarge,
            MemoryError::NotFound(_) => ErrorKind::NotFound,
            MemoryError::Stale { .. } | MemoryError::Changed(_) => ErrorKind::Conflict,
            MemoryError::Model(e) => e.kind(),
            MemoryError::Store(e) => e.kind(),
        }
    }
}

/// The author recorded for a user's writes.
fn user_author(principal: &Principal) -> String {
    format!("user:{}", principal.sub)
}

fn check_tags(tags: &[String]) -> Result<(), MemoryError> {
    let bad = |t: &String| t.trim().is_empty() || t.chars().count() > MAX_TAG_CHARS || t.chars().any(char::is_control);
    if tags.len() > MAX_TAGS || tags.iter().any(bad) {
        return Err(MemoryError::BadInput(format!(
            "tags: at most {MAX_TAGS}, each 1-{MAX_TAG_CHARS} printable characters"
        )));
    }
    Ok(())
}

/// `POST /api/memory` by a user: admins only. Returns the entry and whether it is new.
#[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub, scope = %request.scope, key = %request.key))]
pub async fn write(
    store: &Store,
    admin: AdminProof<'_>,
    request: WriteRequest,
) -> Result<(MemoryEntry, bool), MemoryError> {
    let (entry, created) = write_entry(store, &user_author(admin.principal()), request).await?;
    let target = format!("{}/{}", entry.scope, entry.key);
    let detail = [("version", entry.version.to_string()), ("created", created.to_string())];
    crate::audit::record(store, admin, "memory.write", &target, &detail).await;
    Ok((entry, created))
}

/// A write by the appliance itself (a workflow step), recorded under its author.
pub async fn write_for_system(
    store: &Store,
    system: &SystemProof,
    request: WriteRequest,
) -> Result<(MemoryEntry, bool), MemoryError> {
    write_entry(store, system.author(), request).await
}

async fn write_entry(store: &Store, author: &str, request: WriteRequest) -> Result<(MemoryEntry, bool), MemoryError> {
    let scope = MemoryScope::parse(&request.scope)?;
    let key = MemoryKey::parse(&request.key)?;
    if request.value.len() > MAX_VALUE_BYTES {
        return Err(MemoryError::TooLarge(request.value.len()));
    }
    if let Some(tags) = &request.tags {
        check_tags(tags)?;
    }
    let write = MemoryWrite {
        scope: scope.to_string(),
        key: key.to_string(),
        value: request.value,
        pinned: request.pinned,
        tags: request.tags,
        if_version: request.if_version,
        author: author.to_owned(),
        now_ms: store.now_ms(),
    };
    match store.write_memory(write).await? {
        MemoryOutcome::Written { record, replaced } => {
            let created = replaced.is_none();
            let data = json!({
                "scope": record.scope, "key": record.key, "version": record.version,
                "author": record.author, "created": created, "pinned": record.pinned,
            });
            store.events().publish(MEMORY_WRITTEN, data);
            Ok((MemoryEntry::from(&record), created))
        }
        MemoryOutcome::Stale { current } => Err(MemoryError::Stale {
            scope: scope.to_string(),
            key: key.to_string(),
            expected: request.if_version.unwrap_or_default(),
            current,
        }),
        MemoryOutcome::Folded { .. } | MemoryOutcome::Changed => Err(MemoryError::Changed(scope.to_string())),
    }
}

/// One entry; 404 for an unknown key.
pub async fn get(store: &Store, scope: &str, key: &str) -> Result<MemoryEntry, MemoryError> {
    let (scope, key) = (MemoryScope::parse(scope)?, MemoryKey::parse(key)?);
    let record = store.memory_entry(&scope.to_string(), key.as_str()).await?;
    record
        .as_ref()
        .map(MemoryEntry::from)
        .ok_or_else(|| MemoryError::NotFound(format!("no memory entry {scope}/{key}")))
}

/// Every version of one key, oldest first, archived ones included; 404 when it never existed.
pub async fn history(store: &Store, scope: &str, key: &str) -> Result<KeyHistory, MemoryError> {
    let (scope, key) = (MemoryScope::parse(scope)?, MemoryKey::parse(key)?);
    let versions = store.memory_history(&scope.to_string(), key.as_str()).await?;
    if versions.is_empty() {
        return Err(MemoryError::NotFound(format!("no memory entry {scope}/{key}")));
    }
    let versions: Vec<HistoryVersion> = versions.iter().map(|(r, s)| HistoryVersion::new(r, *s)).collect();
    Ok(KeyHistory { scope: scope.to_string(), key: key.to_string(), total: versions.len(), versions })
}
