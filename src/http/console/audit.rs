//! `/app/audit` (admins): the audit log, newest first, a page at a time, filtered by action,
//! actor or target with a plain GET form (works with JavaScript off). Read through the same
//! service as `GET /api/audit`; a viewer gets the 403 page.

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::{Answer, Page, get_page, pending, query_of, signed_in};
use crate::audit::{self, AuditList, AuditListQuery};
use crate::http::error::ApiError;
use crate::state::AppState;

/// Records per console page.
const ROWS: usize = 50;

/// The actions an admin can pick from (what docs/controls.md lists); any other is typed.
const ACTIONS: [&str; 14] = [
    "deal.create",
    "deal.update",
    "deal.import",
    "memory.write",
    "memory.compress",
    "workflow.start",
    "coordinator.run",
    "approval.decide",
    "key.create",
    "key.revoke",
    "invite.create",
    "invite.revoke",
    "backup.create",
    "restore",
];

pub fn routes(state: AppState) -> [Page; 1] {
    let list = warp::path!("app" / "audit")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = state.clone();
            async move { render(&state, &headers, &here).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    [list]
}

/// The page's filters from its address; empty fields filter nothing.
fn asked(here: &str) -> AuditListQuery {
    let query = query_of(here);
    let field = |name: &str| query.get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    AuditListQuery {
        limit: Some(ROWS),
        cursor: field("cursor"),
        action: field("action"),
        actor: field("actor"),
        target: field("target"),
    }
}

/// The address of the next (older) page: the same filters, the list's cursor.
fn older(query: &AuditListQuery, cursor: &str) -> String {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (name, value) in [("action", &query.action), ("actor", &query.actor), ("target", &query.target)] {
        if let Some(v) = value {
            pairs.push((name, v));
        }
    }
    pairs.push(("cursor", cursor));
    format!("/app/audit?{}", serde_urlencoded::to_string(pairs).unwrap_or_default())
}

async fn render(state: &AppState, headers: &HeaderMap, here: &str) -> Result<Answer, Answer> {
    let who = signed_in(state, headers, here)?;
    let admin = who.require_admin().map_err(|e| {
        Answer::refused(Some(&who), StatusCode::FORBIDDEN, &format!("{e}: the audit log is for admins"))
    })?;
    let query = asked(here);
    let list = audit::list(state.store(), admin, query.clone())
        .await
        .map_err(|e| Answer::error(Some(&who), &ApiError::from(e)))?;
    let main = html! {
        h1 { "Audit log" }
        p.hint { "Every admin action, newest first. Each record holds the SHA-256 of the one before; "
            code { "gtms audit verify" } " checks the chain." }
        (filters(&query))
        (table(&list, &query))
    };
    Ok(Answer::ok(page("Audit log", Some(&who), pending(state).await, "/app/audit", main)))
}

fn filters(query: &AuditListQuery) -> Markup {
    let value = |v: &Option<String>| v.clone().unwrap_or_default();
    html! {
        form.filters method="get" action="/app/audit" role="search" aria-label="Filter the audit log" {
            label for="audit-action" { "Action" }
            select #audit-action name="action" {
                option value="" { "Any" }
                @for action in ACTIONS {
                    option value=(action) selected[query.action.as_deref() == Some(action)] { (action) }
                }
            }
            label for="audit-actor" { "Actor" }
            input #audit-actor type="text" name="actor" value=(value(&query.actor)) maxlength="200";
            label for="audit-target" { "Target" }
            input #audit-target type="text" name="target" value=(value(&query.target)) maxlength="400";
            button type="submit" { "Filter" }
        }
    }
}

fn table(list: &AuditList, query: &AuditListQuery) -> Markup {
    html! {
        section #audit data-count=(list.entries.len()) {
            @if list.entries.is_empty() {
                p.empty { "No record matches." }
            } @else {
                table.figures {
                    caption { "Audit records, newest first" }
                    thead { tr {
                        th scope="col" { "#" } th scope="col" { "When" } th scope="col" { "Who" }
                        th scope="col" { "Action" } th scope="col" { "Target" } th scope="col" { "From" }
                        th scope="col" { "Detail" }
                    } }
                    tbody {
                        @for r in &list.entries {
                            tr data-seq=(r.seq) {
                                td { (r.seq) }
                                td { time datetime=(r.at) { (r.at) } }
                                td { (r.actor) }
                                td { code { (r.action) } }
                                td { (r.target) }
                                td { (r.from) }
                                td { @for (k, v) in &r.detail { span.detail { (k) "=" (v) } " " } }
                            }
                        }
                    }
                }
            }
            @if let Some(cursor) = &list.next_cursor {
                p { a #older href=(older(query, cursor)) rel="next" { "Older records" } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_come_from_the_address_and_carry_to_the_older_page() {
        let q = asked("/app/audit?action=deal.update&actor=&target=d%2017&cursor=40");
        assert_eq!(
            (q.action.as_deref(), q.actor.as_deref(), q.target.as_deref()),
            (Some("deal.update"), None, Some("d 17"))
        );
        assert_eq!((q.limit, q.cursor.as_deref()), (Some(ROWS), Some("40")));
        assert_eq!(older(&q, "12"), "/app/audit?action=deal.update&target=d+17&cursor=12");
    }
}
