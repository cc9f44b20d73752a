//! The admin channel. redb lets one process hold the data file, so CLI commands that read or
//! change data run in whichever process holds it: a running server answers them over a Unix
//! socket beside the data file (mode 0600, JSON lines); with the server stopped the CLI opens
//! the file itself. Both paths call the same `execute`, so a command behaves the same either way.

mod audit;
mod backup;
pub mod client;
mod invites;
mod keys;
pub mod server;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::domain::Role;
use crate::state::AppState;
pub use audit::AuditFormat;

/// A command sent over the admin socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum AdminRequest {
    /// Health, version, uptime and boot count of the running server.
    Status,
    /// Issue an API key for a tenant; the reply carries the key, shown once.
    KeysCreate {
        tenant: crate::domain::Tenant,
        name: String,
    },
    /// Every API key with its usage (never the hash).
    KeysList,
    /// Revoke an API key by its public id.
    KeysRevoke {
        id: String,
    },
    /// Issue an invite code (one user) with a role; the reply carries the code, shown once.
    InvitesCreate {
        role: Role,
        name: String,
        /// The user's team (`team:<id>` memory reaches their Brain chats).
        #[serde(default)]
        team: Option<crate::domain::TeamId>,
    },
    InvitesList,
    /// Revoke an invite and end its sessions.
    InvitesRevoke {
        id: String,
    },
    /// Copy the live database to `out` (absolute, must not exist) and verify the copy.
    Backup {
        out: PathBuf,
    },
    /// Remove what the demo's simulated team created (server stopped).
    DemoReset,
    /// Every audit record, oldest first, as JSON lines or CSV.
    AuditExport {
        #[serde(default)]
        format: AuditFormat,
    },
    /// Walk the audit log's hash chain and name the first broken link.
    AuditVerify,
}

/// The answer: `ok`, a human line, and structured data for `--json` output and tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminReply {
    pub ok: bool,
    pub message: String,
    #[serde(default)]
    pub data: serde_json::Value,
}

impl AdminReply {
    pub fn ok(message: impl Into<String>, data: serde_json::Value) -> Self {
        Self { ok: true, message: message.into(), data }
    }
    pub fn error(message: impl Into<String>) -> Self {
        Self { ok: false, message: message.into(), data: serde_json::Value::Null }
    }
}

/// The socket path for a data file: `<data>.sock` in the same directory.
pub fn socket_path(data: &Path) -> PathBuf {
    let mut name = data.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "gtms.redb".into());
    name.push(".sock");
    data.with_file_name(name)
}

/// Runs one admin command against an open state (live server or offline CLI).
pub async fn execute(state: &AppState, request: AdminRequest) -> AdminReply {
    match request {
        AdminRequest::Status => status(state).await,
        AdminRequest::KeysCreate { tenant, name } => keys::create(state, &tenant, &name).await,
        AdminRequest::KeysList => keys::list(state).await,
        AdminRequest::KeysRevoke { id } => keys::revoke(state, &id).await,
        AdminRequest::InvitesCreate { role, name, team } => invites::create(state, role, &name, team).await,
        AdminRequest::InvitesList => invites::list(state).await,
        AdminRequest::InvitesRevoke { id } => invites::revoke(state, &id).await,
        AdminRequest::Backup { out } => backup::create(state, &out).await,
        AdminRequest::DemoReset => demo_reset(state).await,
        AdminRequest::AuditExport { format } => audit::export(state, format).await,
        AdminRequest::AuditVerify => audit::verify(state).await,
    }
}

/// Removes the simulated team's workflows and what they wrote (`store::Store::remove_marked`).
/// Refused by a running server: its engine holds those workflows live.
async fn demo_reset(state: &AppState) -> AdminReply {
    if state.workflows().is_ok() {
        return AdminReply::error(
            "demo-reset runs with the server stopped (its engine holds the simulated workflows): stop gtms serve, \
             run gtms demo-reset, start it again (with GTMS_DEMO_SIMULATE=false to keep the team off)",
        );
    }
    match state.store().remove_marked(crate::workflows::service::SIMULATED_MARK).await {
        Ok(r) => AdminReply::ok(
            format!(
                "removed the simulated team's {} workflows, {} run-ledger rows, {} notifications, {} memory entries \
                 and {} deals; nothing a person entered was touched",
                r.workflows, r.runs, r.notifications, r.memory, r.deals
            ),
            serde_json::json!({
                "workflows": r.workflows, "runs": r.runs, "notifications": r.notifications, "memory": r.memory,
                "deals": r.deals
            }),
        ),
        Err(e) => AdminReply::error(format!("could not remove the simulated records: {e}")),
    }
}

async fn status(state: &AppState) -> AdminReply {
    let health = state.health();
    let boots = match state.store().boot_record().await {
        Ok(record) => record.map(|r| r.boots).unwrap_or(0),
        Err(e) => return AdminReply::error(format!("cannot read the boot record: {e}")),
    };
    let message = format!(
        "gtms {} {} (mode {}, temporal {}), up {}s, data {} (started {} times)",
        health.version,
        health.status,
        health.mode,
        health.temporal,
        health.uptime,
        state.store().path().display(),
        boots
    );
    let mut data = serde_json::to_value(&health).unwrap_or_default();
    data["boots"] = boots.into();
    data["listen"] = state.config().listen.to_string().into();
    AdminReply::ok(message, data)
}
