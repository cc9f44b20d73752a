//! The controls of a worker's page (docs/controls.md): the worker's pause — who, when and why —
//! with, for admins, a pause form (a reason) or a resume button; its token budget with what was
//! spent today and this month, and for admins the form that sets it; and a cancel form per live
//! workflow and one for all of them (a reason each). Posted to `/app/workers/{id}/pause`,
//! `/resume`, `/budget` and `/cancel`, carried out by the services `/api/controls` calls, then
//! back to the worker's page with a notice; a refusal is the console's error page.

use maud::{Markup, html};
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;

use super::super::{Answer, Page, Posted, form_fields, form_post, writer};
use crate::budgets::{BudgetScope, BudgetView, SetBudget};
use crate::http::error::ApiError;
use crate::state::AppState;
use crate::workflows::controls::{BulkCancelRequest, CancelBody, PauseRequest, ResumeRequest};
use crate::workflows::views::{WorkerDetail, WorkflowSummary};

/// What a control's form asks.
#[derive(Clone, Copy)]
enum Control {
    Pause,
    Resume,
    Budget,
    Cancel,
}

pub(super) fn routes(state: AppState) -> Vec<Page> {
    vec![
        route(
            state.clone(),
            warp::path!("app" / "workers" / String / "pause").and(warp::post()).boxed(),
            Control::Pause,
        ),
        route(
            state.clone(),
            warp::path!("app" / "workers" / String / "resume").and(warp::post()).boxed(),
            Control::Resume,
        ),
        route(
            state.clone(),
            warp::path!("app" / "workers" / String / "budget").and(warp::post()).boxed(),
            Control::Budget,
        ),
        route(state, warp::path!("app" / "workers" / String / "cancel").and(warp::post()).boxed(), Control::Cancel),
    ]
}

/// A control's route: its `POST` path, then the form.
fn route(state: AppState, path: BoxedFilter<(String,)>, control: Control) -> Page {
    path.and(form_post())
        .then(move |id: String, posted: Posted| {
            let state = state.clone();
            async move { carry_out(&state, control, &id, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed()
}

async fn carry_out(state: &AppState, control: Control, id: &str, posted: &Posted) -> Result<Answer, Answer> {
    let back = format!("/app/workers/{id}");
    let who = writer(state, posted, &back)?;
    let admin = who.require_admin().map_err(|e| {
        Answer::refused(Some(&who), StatusCode::FORBIDDEN, &format!("{e}: viewers can look, not pause or cancel"))
    })?;
    let workflows = state.workflows().map_err(|e| Answer::error(Some(&who), &ApiError::from(e)))?;
    let fields = form_fields(&posted.body)?;
    let reason = fields.get("reason").cloned().unwrap_or_default();
    let refused = |e: crate::workflows::WorkflowError| Answer::error(Some(&who), &ApiError::from(e));
    let notice = match control {
        Control::Pause => {
            let request = PauseRequest { worker: Some(id.to_owned()), kind: None, reason };
            workflows.pause(admin, request).await.map_err(refused)?;
            "paused=1".to_owned()
        }
        Control::Resume => {
            let request = ResumeRequest { worker: Some(id.to_owned()), kind: None };
            let reply = workflows.resume(admin, request).await.map_err(refused)?;
            format!("resumed={}", reply.released)
        }
        Control::Budget => {
            let bad = |e: String| Answer::refused(Some(&who), StatusCode::BAD_REQUEST, &e);
            let request = SetBudget {
                scope: BudgetScope::Worker,
                worker: Some(id.to_owned()),
                daily_tokens: tokens(&fields, "dailyTokens").map_err(bad)?,
                monthly_tokens: tokens(&fields, "monthlyTokens").map_err(bad)?,
            };
            let set = crate::budgets::set(state.store(), admin, request).await;
            set.map_err(|e| Answer::error(Some(&who), &ApiError::from(e)))?;
            "budget=1".to_owned()
        }
        Control::Cancel => match fields.get("workflow").filter(|w| !w.is_empty()) {
            Some(workflow) => {
                workflows.cancel(admin, workflow, CancelBody { reason }).await.map_err(refused)?;
                "cancelled=1".to_owned()
            }
            None => {
                let filter = BulkCancelRequest { worker: Some(id.to_owned()), reason, ..BulkCancelRequest::default() };
                let reply = workflows.cancel_matching(admin, filter).await.map_err(refused)?;
                format!("cancelled={}", reply.cancelled)
            }
        },
    };
    Ok(Answer::SeeOther(format!("{back}?{notice}")))
}

/// A token limit as typed: empty is no limit, else a whole number.
fn tokens(fields: &std::collections::BTreeMap<String, String>, name: &str) -> Result<Option<u64>, String> {
    match fields.get(name).map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(text) => text
            .replace(',', "")
            .parse()
            .map(Some)
            .map_err(|_| format!("{name}: {text:?} is not a whole number of tokens")),
    }
}

/// The notice a control redirected with (`?paused=1`, `?resumed=<n>`, `?cancelled=<n>`).
pub(super) fn notice(query: &std::collections::BTreeMap<String, String>) -> Option<String> {
    let count = |key: &str| query.get(key).filter(|n| n.len() <= 6 && n.chars().all(|c| c.is_ascii_digit()));
    if query.contains_key("budget") {
        return Some("Budget saved.".into());
    }
    if query.contains_key("paused") {
        return Some("Paused. New starts are refused; its running workflows hold before their next step.".into());
    }
    if let Some(n) = count("resumed") {
        return Some(format!("Resumed. {n} held workflow(s) go on."));
    }
    count("cancelled").map(|n| format!("Cancelled {n} workflow(s)."))
}

/// The worker's pause (or that it runs) and its budget, and for an admin the forms that change them.
pub(super) fn panel(worker: &WorkerDetail, budget: Option<&BudgetView>, admin: bool) -> Markup {
    let action = |verb: &str| format!("/app/workers/{}/{verb}", worker.worker.id);
    html! {
        section #worker-controls aria-labelledby="controls-heading" {
            h2 #controls-heading { "Controls" }
            @if let Some(p) = &worker.pause {
                p #worker-paused.paused role="status" data-paused="true" {
                    "Paused by " (p.paused_by) " at " time datetime=(p.paused_at) { (p.paused_at) } ": " (p.reason)
                    ". New starts are refused; its running workflows hold before their next step."
                }
                @if admin {
                    form #resume-worker method="post" action=(action("resume")) {
                        button type="submit" { "Resume worker" }
                    }
                }
            } @else {
                p.meta data-paused="false" { "Running normally: not paused." }
                @if admin {
                    form #pause-worker.inline method="post" action=(action("pause")) {
                        label for="pause-reason" { "Reason" }
                        input #pause-reason name="reason" required maxlength="1000" autocomplete="off";
                        button type="submit" { "Pause worker" }
                    }
                }
            }
            @if let Some(b) = budget {
                p #worker-budget data-state=(b.state) {
                    "Budget: " (spent_of(b.spent_today, b.daily_tokens)) " tokens today, "
                    (spent_of(b.spent_this_month, b.monthly_tokens)) " this month"
                    " (" (format!("${:.2}", b.cost_this_month_usd)) ") · " (b.state)
                    @if b.source == "admin" { " · set by " (b.set_by.as_deref().unwrap_or_default()) }
                }
                @if admin {
                    form #budget-worker.inline method="post" action=(action("budget")) {
                        label for="budget-daily" { "Tokens per day" }
                        input #budget-daily name="dailyTokens" inputmode="numeric" autocomplete="off" value=(b.daily_tokens.map(|n| n.to_string()).unwrap_or_default());
                        label for="budget-monthly" { "per month" }
                        input #budget-monthly name="monthlyTokens" inputmode="numeric" autocomplete="off" value=(b.monthly_tokens.map(|n| n.to_string()).unwrap_or_default());
                        button.secondary type="submit" { "Set budget" }
                    }
                }
            }
        }
    }
}

/// `1200 of 50000`, or `1200 (no limit)`.
fn spent_of(spent: u64, limit: Option<u64>) -> String {
    match limit {
        Some(limit) => format!("{spent} of {limit}"),
        None => format!("{spent} (no limit)"),
    }
}

/// An admin's cancel form for one live workflow (inside its row).
pub(super) fn cancel_one(worker: &str, w: &WorkflowSummary) -> Markup {
    let input = format!("cancel-{}", w.workflow_id);
    html! {
        details.cancel {
            summary { "Cancel…" }
            form.cancel-workflow method="post" action={ "/app/workers/" (worker) "/cancel" } {
                input type="hidden" name="workflow" value=(w.workflow_id);
                label for=(input) { "Reason" }
                input id=(input) name="reason" required maxlength="1000" autocomplete="off";
                button.danger type="submit" { "Cancel workflow" }
            }
        }
    }
}

/// An admin's form that cancels every live workflow of the worker.
pub(super) fn cancel_all(worker: &str) -> Markup {
    html! {
        form #cancel-all.inline method="post" action={ "/app/workers/" (worker) "/cancel" } {
            label for="cancel-all-reason" { "Cancel every live workflow — reason" }
            input #cancel-all-reason name="reason" required maxlength="1000" autocomplete="off";
            button.danger type="submit" { "Cancel all" }
        }
    }
}
