//! The audit log inside the appliance: what every admin action records (the store keeps the
//! hash chain, `store::AuditRecord`), and the reads of `GET /api/audit`, the `audit_list`
//! tool and `gtms audit`. An action is recorded after it committed and before it is answered;
//! a record that cannot be written is logged at ERROR with everything it held (the action is
//! not undone: it happened). A record never holds a secret: callers pass ids, names and
//! counts, never a key, a code or a token (docs/controls.md).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::auth::AdminProof;
use crate::domain::paging::page_size;
use crate::error::{ErrorKind, ServiceError};
use crate::store::{AuditEntry, AuditQuery, AuditRecord, Store, StoreError};

/// The actor and origin of what the local CLI asks (over the admin socket or offline).
pub const CLI: &str = "cli";

/// Who did it: `<user id> (<name>)`.
pub fn actor(admin: AdminProof<'_>) -> String {
    let who = admin.principal();
    format!("{} ({})", who.sub, who.name)
}

/// Records what an admin did through the API, the console or MCP.
pub async fn record(store: &Store, admin: AdminProof<'_>, action: &str, target: &str, detail: &[(&str, String)]) {
    let from = admin.principal().origin.to_string();
    append(store, actor(admin), from, action, target, detail).await;
}

/// Records what the local CLI did (keys, invites, backups, restores).
pub async fn record_cli(store: &Store, action: &str, target: &str, detail: &[(&str, String)]) {
    append(store, CLI.to_owned(), CLI.to_owned(), action, target, detail).await;
}

async fn append(store: &Store, actor: String, from: String, action: &str, target: &str, detail: &[(&str, String)]) {
    let detail: BTreeMap<String, String> = detail.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
    let entry = AuditEntry { actor, action: action.to_owned(), target: target.to_owned(), from, detail };
    if let Err(e) = store.append_audit(entry.clone()).await {
        tracing::error!(
            target: "gtms::audit",
            error = %e,
            actor = %entry.actor,
            action = %entry.action,
            target = %entry.target,
            from = %entry.from,
            detail = ?entry.detail,
            "audit record not written; the action itself completed"
        );
    }
}

/// A read of the log was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{0}")]
    BadInput(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError for AuditError {
    fn kind(&self) -> ErrorKind {
        match self {
            AuditError::BadInput(_) => ErrorKind::BadInput,
            AuditError::Store(e) => e.kind(),
        }
    }
}

/// What a reader asks: a page size, the cursor of the page before, exact-match filters.
#[derive(Debug, Clone, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditListQuery {
    /// Records per page: 100 by default, 1,000 at most.
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<usize>,
    /// The `nextCursor` of the page before (opaque).
    #[schemars(regex(pattern = r"^[1-9][0-9]{0,18}$"))]
    pub cursor: Option<String>,
    /// Only this action (`deal.update`, `key.create`, …).
    pub action: Option<String>,
    /// Only this actor, as recorded (`<user id> (<name>)` or `cli`).
    pub actor: Option<String>,
    /// Only this target (a deal id, `scope/key`, a key id, …).
    pub target: Option<String>,
}

/// A page of the log, newest first.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditList {
    pub entries: Vec<AuditRecord>,
    /// The cursor of the next (older) page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One page of the log (admins only: the caller's proof is the way in).
pub async fn list(store: &Store, _admin: AdminProof<'_>, query: AuditListQuery) -> Result<AuditList, AuditError> {
    let limit = page_size(query.limit, "records").map_err(AuditError::BadInput)?;
    let before = match query.cursor.as_deref() {
        None => None,
        Some(c) => Some(
            c.parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| AuditError::BadInput("cursor: not a cursor this list gave".into()))?,
        ),
    };
    let page = store
        .audit_page(AuditQuery { before, limit, action: query.action, actor: query.actor, target: query.target })
        .await?;
    Ok(AuditList { entries: page.records, next_cursor: page.next_before.map(|n| n.to_string()) })
}
