//! `gtms status`, `gtms keys ...` and `gtms invites ...`: requests to the running server over
//! the admin channel, or — when no server runs and the command allows it — the same request
//! executed in this process on the data file.

use super::{AuditAction, CliError, DataArgs, InvitesAction, KeysAction, load_config, runtime};
use crate::admin::{self, AdminReply, AdminRequest, AuditFormat};
use crate::config::Config;
use crate::state::AppState;
use crate::store::Store;

pub(super) fn status(args: &DataArgs) -> Result<(), CliError> {
    let config = load_config(args.config.as_ref(), args.layer()).map_err(CliError::runtime)?;
    let reply = runtime()?.block_on(admin_command(&config, AdminRequest::Status, false))?;
    print_reply(reply)
}

pub(super) fn keys(data: &DataArgs, action: KeysAction) -> Result<(), CliError> {
    let (request, json) = match action {
        KeysAction::Create { tenant, name } => (AdminRequest::KeysCreate { tenant, name }, false),
        KeysAction::List { json } => (AdminRequest::KeysList, json),
        KeysAction::Revoke { id } => (AdminRequest::KeysRevoke { id }, false),
    };
    data_command(data, request, json)
}

pub(super) fn invites(data: &DataArgs, action: InvitesAction) -> Result<(), CliError> {
    let (request, json) = match action {
        InvitesAction::Create { role, name, team } => (AdminRequest::InvitesCreate { role, name, team }, false),
        InvitesAction::List { json } => (AdminRequest::InvitesList, json),
        InvitesAction::Revoke { id } => (AdminRequest::InvitesRevoke { id }, false),
    };
    data_command(data, request, json)
}

/// `gtms audit [--format jsonl|csv]` and `gtms audit verify`.
pub(super) fn audit(data: &DataArgs, format: AuditFormat, action: Option<AuditAction>) -> Result<(), CliError> {
    match action {
        None => data_command(data, AdminRequest::AuditExport { format }, false),
        Some(AuditAction::Verify { data }) => data_command(&data, AdminRequest::AuditVerify, false),
    }
}

/// `gtms demo-reset`: on the data file, with the server stopped (a running server refuses).
pub(super) fn demo_reset(data: &DataArgs) -> Result<(), CliError> {
    data_command(data, AdminRequest::DemoReset, false)
}

/// Sends `request` to the running server, or, when none runs and `offline` allows it,
/// opens the data file directly and runs the same command in this process.
async fn admin_command(config: &Config, request: AdminRequest, offline: bool) -> Result<AdminReply, CliError> {
    let socket = admin::socket_path(&config.data);
    match admin::client::send(&socket, &request).await {
        Ok(reply) => Ok(reply),
        Err(admin::client::ClientError::NotRunning) if offline => {
            let store = Store::open(&config.data).map_err(CliError::runtime)?;
            let state = AppState::new(config.clone(), store).await.map_err(CliError::runtime)?;
            Ok(admin::execute(&state, request).await)
        }
        Err(e) => Err(CliError::runtime(e)),
    }
}

/// Runs a data command (server running or not) and prints its reply, as JSON when asked.
fn data_command(data: &DataArgs, request: AdminRequest, json: bool) -> Result<(), CliError> {
    let config = load_config(data.config.as_ref(), data.layer()).map_err(CliError::runtime)?;
    let reply = runtime()?.block_on(admin_command(&config, request, true))?;
    if json && reply.ok {
        return super::say(&reply.data);
    }
    print_reply(reply)
}

pub(super) fn print_reply(reply: AdminReply) -> Result<(), CliError> {
    if reply.ok { super::say(&reply.message) } else { Err(CliError::Runtime(reply.message)) }
}
