//! `gtms audit` (every record, oldest first, as JSON lines or CSV) and `gtms audit verify`
//! (walk the hash chain) over the admin channel.

use serde::{Deserialize, Serialize};

use super::AdminReply;
use crate::deals::csv;
use crate::state::AppState;

/// How `gtms audit` prints the log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum AuditFormat {
    /// One JSON object per line: what `verify` and outside scripts recompute hashes from.
    #[default]
    Jsonl,
    /// A header and one row per record (`detail` as JSON), for spreadsheets.
    Csv,
}

const CSV_HEADER: [&str; 9] = ["seq", "at", "actor", "action", "target", "from", "detail", "prev", "hash"];

pub async fn export(state: &AppState, format: AuditFormat) -> AdminReply {
    let mut head = String::new();
    if format == AuditFormat::Csv {
        csv::write_record(&mut head, &CSV_HEADER);
    }
    let written = state
        .store()
        .audit_fold(head, move |out, r| match format {
            AuditFormat::Jsonl => {
                out.push_str(&serde_json::to_string(&r).unwrap_or_default());
                out.push('\n');
            }
            AuditFormat::Csv => {
                let (seq, detail) = (r.seq.to_string(), serde_json::to_string(&r.detail).unwrap_or_default());
                let fields = [&seq, &r.at, &r.actor, &r.action, &r.target, &r.from, &detail, &r.prev, &r.hash];
                csv::write_record(out, &fields);
            }
        })
        .await;
    match written {
        Ok(text) => AdminReply::ok(text.trim_end_matches(['\r', '\n']).to_owned(), serde_json::Value::Null),
        Err(e) => AdminReply::error(format!("cannot read the audit log: {e}")),
    }
}

pub async fn verify(state: &AppState) -> AdminReply {
    match state.store().verify_audit().await {
        Ok(v) => match v.broken {
            None => AdminReply::ok(
                format!("audit log: {} records, chain intact", v.records),
                serde_json::json!({ "records": v.records, "intact": true }),
            ),
            Some(b) => AdminReply::error(format!(
                "audit log broken at record {}: {} ({} records before it verified)",
                b.seq, b.reason, v.records
            )),
        },
        Err(e) => AdminReply::error(format!("cannot read the audit log: {e}")),
    }
}
