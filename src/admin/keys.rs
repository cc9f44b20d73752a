//! `gtms keys create|list|revoke` over the admin channel.

use super::AdminReply;
use crate::audit;
use crate::state::AppState;

fn now(state: &AppState) -> i64 {
    state.clock().now_secs()
}

fn when(ts: Option<i64>) -> String {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| "-".into())
}

pub async fn create(state: &AppState, tenant: &crate::domain::Tenant, name: &str) -> AdminReply {
    match state.api_keys().create(tenant, name, now(state)).await {
        Ok((key, summary)) => {
            let detail = [("tenant", summary.tenant.to_string()), ("name", summary.name.clone())];
            audit::record_cli(state.store(), "key.create", &summary.id, &detail).await;
            let message = format!(
                "{key}\n\nkey id {} for tenant {:?}. This is the only time the key is shown; store it now.",
                summary.id, summary.tenant
            );
            let mut data = serde_json::to_value(&summary).unwrap_or_default();
            data["key"] = key.into();
            AdminReply::ok(message, data)
        }
        Err(e) => AdminReply::error(e.to_string()),
    }
}

pub async fn list(state: &AppState) -> AdminReply {
    let keys = match state.api_keys().list().await {
        Ok(keys) => keys,
        Err(e) => return AdminReply::error(e.to_string()),
    };
    let mut lines = vec![format!(
        "{:<12}  {:<16}  {:<20}  {:<20}  {:<20}  {:>9}  {}",
        "ID", "TENANT", "NAME", "CREATED", "LAST USED", "REQUESTS", "REVOKED"
    )];
    for k in &keys {
        lines.push(format!(
            "{:<12}  {:<16}  {:<20}  {:<20}  {:<20}  {:>9}  {}",
            k.id,
            k.tenant,
            k.name,
            when(Some(k.created_at)),
            when(k.last_used_at),
            k.requests,
            if k.revoked { "yes" } else { "no" }
        ));
    }
    AdminReply::ok(lines.join("\n"), serde_json::to_value(&keys).unwrap_or_default())
}

pub async fn revoke(state: &AppState, id: &str) -> AdminReply {
    match state.api_keys().revoke(id, now(state)).await {
        Ok(summary) => {
            audit::record_cli(state.store(), "key.revoke", &summary.id, &[("tenant", summary.tenant.to_string())])
                .await;
            AdminReply::ok(format!("revoked key {}", summary.id), serde_json::to_value(&summary).unwrap_or_default())
        }
        Err(e) => AdminReply::error(e.to_string()),
    }
}
