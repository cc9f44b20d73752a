//! `/app/approvals`: the inbox of every pending approval, oldest first — what is being approved
//! (the gate's summary: the draft, the score, the context), who asks and since when — with
//! approve or reject and a note per item, and the same for a selection at once. Decisions go
//! through the workflow service, as `POST /api/coordinator/approvals/{id}` does.

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::{Answer, Page, Posted, form_pairs, form_post, get_page, query_of, signed_in, writer};
use crate::auth::Principal;
use crate::domain::Decision;
use crate::domain::paging::MAX_PAGE;
use crate::http::error::ApiError;
use crate::state::AppState;
use crate::workflows::listing::PageQuery;
use crate::workflows::service::DecideRequest;
use crate::workflows::views::PendingApproval;

/// The inbox shows the oldest requests first, as many as one list page holds.
const INBOX: PageQuery = PageQuery { limit: Some(MAX_PAGE), cursor: None };

/// A line above the inbox: what the last post did, or what was wrong with it.
enum Notice {
    Done(String),
    Problem(String),
}

/// "2 approved." from the address a decision redirected to (`?approved=2`).
fn decided(here: &str) -> Option<String> {
    let query = query_of(here);
    ["approved", "rejected"].into_iter().find_map(|verb| {
        let n: usize = query.get(verb)?.parse().ok()?;
        Some(format!("{n} {verb}."))
    })
}

/// What the form asked: the decision and the workflows it is for, with each one's note.
#[derive(Debug, PartialEq)]
struct Asked {
    decision: Decision,
    targets: Vec<(String, Option<String>)>,
}

/// Reads the inbox form. A button `act=approve:<id>` decides one item with its own note
/// (`note:<id>`); `act=approve:selected` decides every checked `id` with the shared `note`.
fn asked(pairs: &[(String, String)]) -> Result<Asked, &'static str> {
    let field = |name: &str| pairs.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.trim());
    let note = |name: &str| field(name).filter(|n| !n.is_empty()).map(str::to_owned);
    let (decision, target) = field("act").and_then(|a| a.split_once(':')).ok_or("Choose approve or reject.")?;
    let decision = match decision {
        "approve" => Decision::Approve,
        "reject" => Decision::Reject,
        _ => return Err("Choose approve or reject."),
    };
    let targets: Vec<(String, Option<String>)> = if target == "selected" {
        pairs.iter().filter(|(k, _)| k == "id").map(|(_, id)| (id.clone(), note("note"))).collect()
    } else {
        vec![(target.to_owned(), note(&format!("note:{target}")))]
    };
    if targets.is_empty() {
        return Err("Select at least one approval first.");
    }
    Ok(Asked { decision, targets })
}

pub fn routes(state: AppState) -> [Page; 2] {
    let s = state.clone();
    let inbox = warp::path!("app" / "approvals")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => {
                        let done = decided(&here).map(Notice::Done);
                        render(&state, &who, done, StatusCode::OK).await
                    }
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let decide = warp::path!("app" / "approvals")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = state.clone();
            async move { decide(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    [inbox, decide]
}

async fn decide(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let who = writer(state, posted, "/app/approvals")?;
    let admin = who.require_admin().map_err(|e| {
        Answer::refused(Some(&who), StatusCode::FORBIDDEN, &format!("{e}: viewers can look, not decide"))
    })?;
    let workflows = state.workflows().map_err(|e| Answer::error(Some(&who), &ApiError::from(e)))?;
    let asked = match asked(&form_pairs(&posted.body)?) {
        Ok(asked) => asked,
        Err(problem) => {
            return Ok(render(state, &who, Some(Notice::Problem(problem.to_owned())), StatusCode::BAD_REQUEST).await);
        }
    };
    let mut done = 0;
    let mut failed = Vec::new();
    for (id, comment) in asked.targets {
        let request = DecideRequest { decision: asked.decision, comment };
        match workflows.decide(admin, &id, request).await {
            Ok(_) => done += 1,
            Err(e) => failed.push(format!("{id}: {}", ApiError::from(e).public().2)),
        }
    }
    if failed.is_empty() {
        let verb = if asked.decision == Decision::Approve { "approved" } else { "rejected" };
        return Ok(Answer::SeeOther(format!("/app/approvals?{verb}={done}")));
    }
    let message = format!("{done} decided; not decided: {}", failed.join("; "));
    Ok(render(state, &who, Some(Notice::Problem(message)), StatusCode::CONFLICT).await)
}

async fn render(state: &AppState, who: &Principal, notice: Option<Notice>, status: StatusCode) -> Answer {
    let list = match state.workflows() {
        Ok(workflows) => workflows.approvals(&INBOX).await.map_err(ApiError::from),
        Err(e) => Err(ApiError::from(e)),
    };
    let approvals = match list {
        Ok(list) => list.approvals,
        Err(e) => return Answer::error(Some(who), &e),
    };
    let admin = who.require_admin().is_ok();
    let main = html! {
        h1 { "Approvals" }
        @match &notice {
            Some(Notice::Done(text)) => p.done #decided role="status" { (text) },
            Some(Notice::Problem(text)) => p.error role="alert" { (text) },
            None => {}
        }
        (inbox(&approvals, admin, state.clock().now_ms()))
    };
    Answer::Page(status, page("Approvals", Some(who), Some(approvals.len()), "/app/approvals", main))
}

fn inbox(approvals: &[PendingApproval], admin: bool, now_ms: i64) -> Markup {
    html! {
        section #approvals aria-live="polite" data-count=(approvals.len()) {
            @if approvals.is_empty() {
                p.empty { "Nothing is waiting for a decision." }
            } @else {
                form method="post" action="/app/approvals" {
                    @if admin {
                        fieldset.bulk {
                            legend { "Decide the selected" }
                            label for="bulk-note" { "Note (optional)" }
                            input #bulk-note type="text" name="note" maxlength="1000";
                            button type="submit" name="act" value="approve:selected" { "Approve selected" }
                            button.secondary type="submit" name="act" value="reject:selected" { "Reject selected" }
                        }
                    }
                    ol.inbox {
                        @for a in approvals { (item(a, admin, now_ms)) }
                    }
                }
            }
        }
    }
}

/// How long until `at` (RFC 3339) from `now_ms`, in words: "in 2 h 5 min", "in 40 min",
/// "in under a minute", or "now" once it passed.
fn expires_in(at: &str, now_ms: i64) -> String {
    let Ok(at) = chrono::DateTime::parse_from_rfc3339(at) else { return at.to_owned() };
    let minutes = (at.timestamp_millis() - now_ms) / 60_000;
    match minutes {
        m if m < 0 => "now".to_owned(),
        0 => "in under a minute".to_owned(),
        m if m < 60 => format!("in {m} min"),
        m if m % 60 == 0 => format!("in {} h", m / 60),
        m => format!("in {} h {} min", m / 60, m % 60),
    }
}

fn item(a: &PendingApproval, admin: bool, now_ms: i64) -> Markup {
    let id = &a.workflow_id;
    html! {
        li.approval data-approval=(id) {
            @if admin {
                input type="checkbox" name="id" value=(id) id={ "pick-" (id) } aria-label={ "Select " (a.kind.as_str()) " of " (a.worker) };
            }
            div.what {
                h2 { (a.kind.as_str()) " · " (a.step) }
                p.summary { (a.summary) }
                p.meta {
                    "Asked by " (a.worker) " at " time { (a.requested_at) } " · " code { (id) }
                    @if let Some(at) = &a.expires_at {
                        " · " span.expires { "Expires " time datetime=(at) title=(at) { (expires_in(at, now_ms)) } }
                    }
                }
                @if let Some(b) = &a.binding {
                    p.meta.bound title={ "SHA-256 " (b.sha256) } {
                        "Bound to "
                        @if let Some(account) = &b.basis.account { "account " (account) }
                        @if b.basis.deals.is_empty() { " · no deal" }
                        @for d in &b.basis.deals { " · deal " (d.id) " (" (d.stage.as_str()) ")" }
                        @for limit in &b.basis.budgets { " · budget " (limit) }
                        @if b.refreshed > 0 { " · requested again after a change" }
                    }
                }
                @if admin {
                    div.decide {
                        label for={ "note-" (id) } { "Note" }
                        input type="text" id={ "note-" (id) } name={ "note:" (id) } maxlength="1000";
                        button type="submit" name="act" value={ "approve:" (id) } { "Approve" }
                        button.secondary type="submit" name="act" value={ "reject:" (id) } { "Reject" }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn one_item_takes_its_own_note_and_a_selection_the_shared_one() {
        let one = asked(&pairs(&[("id", "w1"), ("note:w2", " fine "), ("note", "all"), ("act", "approve:w2")]));
        assert_eq!(one, Ok(Asked { decision: Decision::Approve, targets: vec![("w2".into(), Some("fine".into()))] }));
        let many = asked(&pairs(&[("id", "w1"), ("id", "w3"), ("note", ""), ("act", "reject:selected")]));
        assert_eq!(
            many,
            Ok(Asked { decision: Decision::Reject, targets: vec![("w1".into(), None), ("w3".into(), None)] })
        );
        assert!(asked(&pairs(&[("act", "approve:selected")])).is_err(), "nothing selected");
        assert!(asked(&pairs(&[("act", "delete:w1")])).is_err());
        assert!(asked(&pairs(&[])).is_err());
    }

    #[test]
    fn an_expiry_reads_as_time_left() {
        let at = "2026-11-26T12:00:00.000Z";
        let noon = chrono::DateTime::parse_from_rfc3339(at).map(|t| t.timestamp_millis()).unwrap_or_default();
        let before = |minutes: i64| expires_in(at, noon - minutes * 60_000);
        assert_eq!(
            [before(4320), before(125), before(40), before(0), before(-1)].map(|s| s),
            [
                "in 72 h".to_owned(),
                "in 2 h 5 min".to_owned(),
                "in 40 min".to_owned(),
                "in under a minute".to_owned(),
                "now".to_owned()
            ]
        );
    }

    #[test]
    fn the_redirect_says_what_was_decided() {
        assert_eq!(decided("/app/approvals?approved=2").as_deref(), Some("2 approved."));
        assert_eq!(decided("/app/approvals?rejected=1").as_deref(), Some("1 rejected."));
        assert_eq!(decided("/app/approvals?approved=<b>"), None);
        assert_eq!(decided("/app/approvals"), None);
    }
}
