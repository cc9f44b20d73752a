//! `/app/workers` and `/app/workers/{id}`: the eight workers with their derived status (running,
//! waiting, stopped) and current task, and each worker's page — status, memory health, its live
//! workflows and, for admins, a start form per workflow type it runs (`start`) and the pause,
//! resume and cancel forms (`controls`). Everything is read from and written through the
//! workflow service, as `/api/workers` and `/api/controls` do; the elements
//! `#workers`, `#worker-status` and `#worker-workflows` are what the console script refreshes in
//! place when a workflow or approval event arrives.

mod controls;
mod start;

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::{Answer, Page, get_page, pending, query_of, signed_in};
use crate::auth::Principal;
use crate::domain::WorkflowStatus;
use crate::domain::paging::MAX_PAGE;
use crate::http::error::ApiError;
use crate::memory::HealthReport;
use crate::state::AppState;
use crate::workflows::service::WorkflowFilter;
use crate::workflows::views::{WorkerDetail, WorkerView, WorkflowSummary};
use start::StartForm;

pub fn routes(state: AppState) -> Vec<Page> {
    let s = state.clone();
    let list = warp::path!("app" / "workers")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => list_page(&state, &who).await,
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let s = state.clone();
    let detail = warp::path!("app" / "workers" / String)
        .and(get_page())
        .then(move |id: String, headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => {
                        let notice = started(&here)
                            .map(|id| format!("Started {id}."))
                            .or_else(|| controls::notice(&query_of(&here)));
                        render(&state, &who, &id, StartForm::default(), notice, StatusCode::OK).await
                    }
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let mut pages = vec![list, detail, start::route(state.clone())];
    pages.extend(controls::routes(state));
    pages
}

/// The workflow id a start redirected with (`?started=<id>`), when it looks like one.
fn started(here: &str) -> Option<String> {
    let id = query_of(here).remove("started")?;
    let plain = !id.is_empty() && id.len() <= 80 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    plain.then_some(id)
}

async fn list_page(state: &AppState, who: &Principal) -> Answer {
    let workers = match state.workflows() {
        Ok(workflows) => workflows.workers().await.map_err(ApiError::from),
        Err(e) => Err(ApiError::from(e)),
    };
    let workers = match workers {
        Ok(workers) => workers,
        Err(e) => return Answer::error(Some(who), &e),
    };
    let main = html! {
        h1 { "Workers" }
        p.hint { "Status is derived from each worker's live workflows: running, waiting for an approval, or stopped (idle)." }
        ul #workers.workers data-count=(workers.len()) {
            @for w in &workers { (worker_card(w)) }
        }
    };
    Answer::ok(page("Workers", Some(who), pending(state).await, "/app/workers", main))
}

fn worker_card(w: &WorkerView) -> Markup {
    html! {
        li.worker data-worker=(w.id) data-status=(w.status) {
            h2 { a href={ "/app/workers/" (w.id) } { (w.name) } " " small.meta { (w.id) } }
            p.meta { (w.role) }
            p { (status_pill(&w.status)) }
            p.task { span.meta { "Current task: " } (w.current_task) }
            p.meta { (w.active_workflows.len()) " live workflow(s) · " (w.memory_entries) " memory entries" }
        }
    }
}

fn status_pill(status: &str) -> Markup {
    let text = match status {
        "running" => "Running",
        "waiting" => "Waiting for approval",
        "stopped" => "Stopped",
        other => other,
    };
    html! { span class={ "status s-" (status) } data-status=(status) { (text) } }
}

/// The worker's page, with `form` as typed (the start that was refused) and `notice` above.
async fn render(
    state: &AppState,
    who: &Principal,
    id: &str,
    form: StartForm,
    notice: Option<String>,
    status: StatusCode,
) -> Answer {
    let workflows = match state.workflows() {
        Ok(workflows) => workflows,
        Err(e) => return Answer::error(Some(who), &ApiError::from(e)),
    };
    let worker = match workflows.worker(id).await {
        Ok(worker) => worker,
        Err(e) => return Answer::error(Some(who), &ApiError::from(e)),
    };
    let mut live: Vec<WorkflowSummary> = Vec::new();
    for status in [WorkflowStatus::Running, WorkflowStatus::Waiting] {
        let filter = WorkflowFilter {
            worker: Some(worker.worker.id.clone()),
            status: Some(status),
            limit: Some(MAX_PAGE),
            ..WorkflowFilter::default()
        };
        match workflows.list(&filter).await {
            Ok(list) => live.extend(list.workflows),
            Err(e) => return Answer::error(Some(who), &ApiError::from(e)),
        }
    }
    let health = crate::memory::health(state.store(), &worker.worker.id).await.ok();
    let ids = [worker.worker.id.clone()];
    let budgets = crate::budgets::list(state.store(), &state.config().budgets, &ids).await.ok();
    let budget = budgets.as_ref().and_then(|l| l.budgets.iter().find(|b| b.worker.as_deref() == Some(id)));
    let admin = who.require_admin().is_ok();
    let main = html! {
        p { a href="/app/workers" { "← Workers" } }
        h1 { (worker.worker.name) }
        @if let Some(text) = &notice { p.done #started role="status" { (text) } }
        (facts(&worker))
        (controls::panel(&worker, budget, admin))
        (memory(health.as_ref()))
        h2 #workflows-heading { "Live workflows" }
        (live_workflows(&worker.worker.id, &live, admin))
        @if admin && !live.is_empty() { (controls::cancel_all(&worker.worker.id)) }
        @if admin { (start::forms(&worker, &form)) }
    };
    Answer::Page(status, page(&worker.worker.name, Some(who), pending(state).await, "/app/workers", main))
}

fn facts(worker: &WorkerDetail) -> Markup {
    let w = &worker.worker;
    html! {
        dl.facts {
            dt { "Id" } dd { code { (w.id) } }
            dt { "Role" } dd { (w.role) " · team " (worker.team) }
            dt { "Status" } dd #worker-status data-status=(w.status) { (status_pill(&w.status)) }
            dt { "Current task" } dd.task { (w.current_task) }
            dt { "Runs" } dd { (worker.workflow_types.join(", ")) }
        }
    }
}

fn memory(health: Option<&HealthReport>) -> Markup {
    html! {
        section #worker-memory aria-labelledby="memory-heading" {
            h2 #memory-heading { "Memory health" }
            @if let Some(h) = health {
                dl.facts {
                    dt { "Health" } dd data-health=(h.status) { (h.status) }
                    dt { "Entries" } dd { (h.total_entries) " (" (h.pinned_facts) " pinned, " (h.stale_entries) " stale)" }
                    dt { "Tokens" } dd { (h.tokens) " of " (h.budget) " (" (format!("{:.0}", h.utilization * 100.0)) "% of the budget)" }
                    dt { "Last compressed" } dd { (h.last_compression.as_deref().unwrap_or("never")) }
                }
            } @else {
                p.empty { "Memory health is not available right now." }
            }
        }
    }
}

fn live_workflows(worker: &str, live: &[WorkflowSummary], admin: bool) -> Markup {
    html! {
        div #worker-workflows.scroll role="region" tabindex="0" aria-label="Live workflows" data-count=(live.len()) {
            @if live.is_empty() {
                p.empty { "No live workflow: this worker is idle." }
            } @else {
                table aria-labelledby="workflows-heading" {
                    thead {
                        tr {
                            th scope="col" { "Workflow" } th scope="col" { "Type" } th scope="col" { "Step" } th scope="col" { "Status" } th scope="col" { "Started" }
                            @if admin { th scope="col" { "Cancel" } }
                        }
                    }
                    tbody {
                        @for w in live {
                            tr data-workflow=(w.workflow_id) data-status=(w.status.as_str()) {
                                td.task { code { (w.workflow_id) } }
                                td { (w.kind.as_str()) }
                                td { (w.current_step.as_deref().unwrap_or("—")) }
                                td {
                                    @if w.status == crate::domain::WorkflowStatus::Waiting {
                                        a href="/app/approvals" { "waiting for approval" }
                                    } @else {
                                        (w.status.as_str())
                                    }
                                }
                                td { time datetime=(w.started_at) { (w.started_at) } }
                                @if admin { td { (controls::cancel_one(worker, w)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_started_notice_takes_only_a_plain_workflow_id() {
        assert_eq!(
            started("/app/workers/sdr?started=lead-qualification-0a1b").as_deref(),
            Some("lead-qualification-0a1b")
        );
        assert_eq!(started("/app/workers/sdr?started=%3Cb%3E"), None);
        assert_eq!(started("/app/workers/sdr?started="), None);
        assert_eq!(started("/app/workers/sdr"), None);
    }
}
