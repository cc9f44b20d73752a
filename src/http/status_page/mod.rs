//! `GET /status`: the server-rendered dashboard (DESIGN.md, Health). One embedded template with
//! no external assets (it works air-gapped); the sections (`sections`) are rendered from one
//! `Snapshot` read per request — workers and workflows from the workflow service (status
//! derived live), pipeline from the deals, token spend from the latest rollup, outcomes from the
//! run ledger, notifications from the outbox — with inline SVG charts (`charts`) and figures for
//! people (`format`). A signed-in browser (the session cookie) gets the page marked live: its
//! script listens on `/ws` and re-fetches the sections on workflow, approval, deal and metric
//! events; otherwise it polls `/api/health`.

pub(in crate::http) mod charts;
pub(in crate::http) mod format;
mod sections;

use std::collections::BTreeMap;

use warp::http::HeaderMap;
use warp::{Filter, Rejection, Reply};

pub use format::escape;

use super::session::principal_of;
use crate::deals::{self, PipelineSummary};
use crate::domain::WorkflowType;
use crate::jobs::{self, JobStatus};
use crate::metrics::{self, PipelineView, TokenView};
use crate::state::AppState;
use crate::store::{OutboxRecord, RunRecord, RunStatus, Tally};
use crate::workflows::listing::PageQuery;
use crate::workflows::service::WorkflowFilter;
use crate::workflows::views::{PendingApproval, WorkerView, WorkflowSummary};
use charts::Outcomes;

const TEMPLATE: &str = include_str!("../../../assets/status/status.html");

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("status").and(warp::get().or(warp::head()).unify()).and(warp::header::headers_cloned()).then(
        move |headers: HeaderMap| {
            let state = state.clone();
            async move {
                let signed_in = principal_of(&state, &headers).is_ok();
                let mut res = warp::reply::html(render(&state, signed_in).await).into_response();
                res.headers_mut().insert("cache-control", warp::http::HeaderValue::from_static("no-store"));
                res
            }
        },
    )
}

/// What the workflow service answered.
pub struct EngineSnapshot {
    pub workers: Vec<WorkerView>,
    /// Newest first.
    pub workflows: Vec<WorkflowSummary>,
    pub approvals: Vec<PendingApproval>,
}

/// Everything the sections show, read once per request.
pub struct Snapshot {
    /// The workflow service's views, or why they are missing.
    pub engine: Result<EngineSnapshot, String>,
    pub webhook: bool,
    pub jobs: Vec<JobStatus>,
    pub deals: Option<PipelineSummary>,
    pub pipeline: Option<PipelineView>,
    pub tokens: Option<TokenView>,
    /// One entry per registered type, in registration order.
    pub outcomes: Vec<Outcomes>,
    /// Newest first.
    pub outbox: Vec<OutboxRecord>,
}

/// A section's data, or `None` with the reason logged (the page still renders).
fn logged<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) -> Option<T> {
    result.map_err(|e| tracing::warn!(error = %e, "the status page could not read {what}")).ok()
}

async fn engine_snapshot(state: &AppState) -> Result<EngineSnapshot, String> {
    let unreadable = |e: crate::workflows::WorkflowError| {
        tracing::warn!(error = %e, "the status page could not read the workflows");
        "The workflows could not be read; see the server log.".to_owned()
    };
    let workflows = state.workflows().map_err(|_| "No workflow engine runs in this process.".to_owned())?;
    Ok(EngineSnapshot {
        workers: workflows.workers().await.map_err(unreadable)?,
        workflows: workflows.list(&WorkflowFilter::default()).await.map_err(unreadable)?.workflows,
        approvals: workflows.approvals(&PageQuery::default()).await.map_err(unreadable)?.approvals,
    })
}

/// The run ledger folded into outcomes per workflow type (`Store::fold_runs`).
#[derive(Default)]
pub struct RunOutcomes(BTreeMap<String, Outcomes>);

impl Tally<RunRecord> for RunOutcomes {
    fn add(&mut self, r: RunRecord) {
        let o = self.0.entry(r.workflow_type).or_default();
        match r.status {
            RunStatus::Completed => o.completed += 1,
            RunStatus::Failed => o.failed += 1,
            RunStatus::Cancelled => o.cancelled += 1,
            RunStatus::Running | RunStatus::Waiting => o.live += 1,
        }
    }
}

/// Outcomes per registered type, in registration order (types no longer registered are left out).
pub fn outcomes(ledger: &RunOutcomes) -> Vec<Outcomes> {
    WorkflowType::ALL
        .into_iter()
        .map(|t| Outcomes { kind: t.as_str().to_owned(), ..ledger.0.get(t.as_str()).cloned().unwrap_or_default() })
        .collect()
}

pub async fn snapshot(state: &AppState) -> Snapshot {
    let store = state.store();
    let mut outbox = logged("the outbox", store.outbox().await).unwrap_or_default();
    outbox.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then_with(|| b.id.cmp(&a.id)));
    let runs = logged("the run ledger", store.fold_runs(RunOutcomes::default()).await).unwrap_or_default();
    Snapshot {
        engine: engine_snapshot(state).await,
        webhook: state.workflows().is_ok_and(|w| w.notifications().has_webhook()),
        jobs: logged("the scheduler's jobs", jobs::status(state).await).unwrap_or_default(),
        deals: Some(deals::summary(store)).filter(|d| d.deal_count > 0),
        pipeline: metrics::latest::<PipelineView>(store).await.ok().map(|l| l.view),
        tokens: metrics::latest::<TokenView>(store).await.ok().map(|l| l.view),
        outcomes: outcomes(&runs),
        outbox,
    }
}

pub async fn render(state: &AppState, signed_in: bool) -> String {
    let health = state.health();
    let dir = state.directory();
    let sections = sections::all(&snapshot(state).await);
    TEMPLATE
        .replace("{{live}}", if signed_in { "ws" } else { "poll" })
        .replace("{{status}}", &escape(&health.status))
        .replace("{{version}}", &escape(&health.version))
        .replace("{{mode}}", &escape(&health.mode))
        .replace("{{engine}}", &escape(&health.temporal))
        .replace("{{uptime}}", &format!("{}s", health.uptime))
        .replace("{{tracked}}", &format::count(dir.tracked() as u64))
        .replace("{{with_page}}", &format::count(dir.with_page() as u64))
        .replace("{{generated_at}}", &escape(dir.generated_at()))
        .replace("{{sections}}", &sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(kind: &str, status: RunStatus) -> RunRecord {
        RunRecord {
            id: "r".into(),
            worker: "w".into(),
            workflow_type: kind.into(),
            started_at: 0,
            ended_at: None,
            status,
        }
    }

    #[test]
    fn outcomes_cover_every_registered_type_in_order() {
        let mut ledger = RunOutcomes::default();
        for r in [
            run("lead-qualification", RunStatus::Completed),
            run("lead-qualification", RunStatus::Failed),
            run("client-onboarding", RunStatus::Waiting),
            run("retired-type", RunStatus::Completed),
        ] {
            ledger.add(r);
        }
        let o = outcomes(&ledger);
        assert_eq!(o.iter().map(|x| x.kind.as_str()).collect::<Vec<_>>(), WorkflowType::ALL.map(|t| t.as_str()));
        assert_eq!((o[1].completed, o[1].failed, o[0].live), (1, 1, 1));
        assert_eq!(o[4].total(), 0);
    }
}
