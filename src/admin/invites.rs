//! `gtms invites create|list|revoke` over the admin channel.

use super::AdminReply;
use crate::audit;
use crate::domain::{Role, TeamId};
use crate::state::AppState;

fn now(state: &AppState) -> i64 {
    state.clock().now_secs()
}

pub async fn create(state: &AppState, role: Role, name: &str, team: Option<TeamId>) -> AdminReply {
    match state.sessions().create_invite(role, name, team, now(state)).await {
        Ok((code, summary)) => {
            let detail = [
                ("role", summary.role.as_str().to_owned()),
                ("name", summary.name.clone()),
                ("team", summary.team.as_ref().map_or_else(String::new, |t| t.to_string())),
            ];
            audit::record_cli(state.store(), "invite.create", &summary.id, &detail).await;
            let team = summary.team.as_ref().map(|t| format!(", team {t}")).unwrap_or_default();
            let message = format!(
                "{code}\n\ninvite {} ({}{team}) for {:?}. This is the only time the code is shown; hand it over now.",
                summary.id,
                summary.role.as_str(),
                summary.name
            );
            let mut data = serde_json::to_value(&summary).unwrap_or_default();
            data["code"] = code.into();
            AdminReply::ok(message, data)
        }
        Err(e) => AdminReply::error(e.to_string()),
    }
}

pub async fn list(state: &AppState) -> AdminReply {
    let invites = match state.sessions().list_invites().await {
        Ok(i) => i,
        Err(e) => return AdminReply::error(e.to_string()),
    };
    let mut lines =
        vec![format!("{:<12}  {:<6}  {:<24}  {:<12}  {:<20}  {}", "ID", "ROLE", "NAME", "TEAM", "CREATED", "REVOKED")];
    for i in &invites {
        let created = chrono::DateTime::from_timestamp(i.created_at, 0)
            .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
            .unwrap_or_default();
        let revoked = if i.revoked { "yes" } else { "no" };
        let team = i.team.as_ref().map_or("-", TeamId::as_str);
        lines.push(format!(
            "{:<12}  {:<6}  {:<24}  {team:<12}  {created:<20}  {revoked}",
            i.id,
            i.role.as_str(),
            i.name
        ));
    }
    AdminReply::ok(lines.join("\n"), serde_json::to_value(&invites).unwrap_or_default())
}

pub async fn revoke(state: &AppState, id: &str) -> AdminReply {
    match state.sessions().revoke_invite(id, now(state)).await {
        Ok(s) => {
            audit::record_cli(state.store(), "invite.revoke", &s.id, &[]).await;
            AdminReply::ok(
                format!("revoked invite {} and ended its sessions", s.id),
                serde_json::to_value(&s).unwrap_or_default(),
            )
        }
        Err(e) => AdminReply::error(e.to_string()),
    }
}
