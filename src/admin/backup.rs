//! `gtms backup OUT` answered by a running server: copy the live database from one read
//! snapshot (writers carry on), verify the copy, reply with its record counts.

use std::path::Path;

use super::AdminReply;
use crate::state::AppState;

pub async fn create(state: &AppState, out: &Path) -> AdminReply {
    if !out.is_absolute() {
        return AdminReply::error(format!("the backup path must be absolute, not {}", out.display()));
    }
    match crate::backup::create_online(state.store(), out).await {
        Ok(report) => {
            let detail = [("records", report.records.to_string())];
            crate::audit::record_cli(state.store(), "backup.create", &report.path.display().to_string(), &detail).await;
            tracing::info!(path = %report.path.display(), records = report.records, ms = report.millis, "backup written");
            AdminReply::ok(report.describe("backup"), serde_json::to_value(&report).unwrap_or_default())
        }
        Err(e) => AdminReply::error(e.to_string()),
    }
}
