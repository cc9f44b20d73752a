//! `/api/coordinator`: coordinator runs (start 202, list, detail with the nine steps),
//! workflows (list with `worker`, `type`, `status` filters; detail), and approvals (pending
//! list; decide — the workflow service refuses viewers, answers 409 when nothing is pending or
//! when what the approval acts on changed since the request; several decisions at once, answered
//! per decision).
//! The three lists page by `limit` and `cursor` → `nextCursor` (`workflows::listing`).

use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::query::typed_query;
use super::session::require;
use crate::auth::Principal;
use crate::domain::Role;
use crate::state::AppState;
use crate::workflows::controls::BulkDecideRequest;
use crate::workflows::listing::PageQuery;
use crate::workflows::service::{DecideRequest, RunRequest, WorkflowFilter};

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    runs(state.clone()).or(workflows(state.clone())).or(approvals(state))
}

fn runs(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let start = warp::path!("api" / "coordinator" / "runs")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<RunRequest>())
        .and_then(move |caller: Principal, request: RunRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let started = workflows.run_coordinator(admin, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::with_status(warp::reply::json(&started), StatusCode::ACCEPTED))
            }
        });
    let s = state.clone();
    let list = warp::path!("api" / "coordinator" / "runs")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<PageQuery>())
        .and_then(move |_, query: PageQuery| {
            let state = s.clone();
            async move {
                let runs = state.workflows().map_err(ApiError::from)?.runs(&query).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&runs))
            }
        });
    let s = state.clone();
    let detail = warp::path!("api" / "coordinator" / "runs" / String)
        .and(warp::get())
        .and(require(state, Role::Viewer))
        .and_then(move |id: String, _| {
            let state = s.clone();
            async move {
                let run = state.workflows().map_err(ApiError::from)?.run(&id).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&run))
            }
        });
    start.or(list).or(detail)
}

fn workflows(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "coordinator" / "workflows")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<WorkflowFilter>())
        .and_then(move |_, filter: WorkflowFilter| {
            let state = s.clone();
            async move {
                let list = state.workflows().map_err(ApiError::from)?.list(&filter).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&list))
            }
        });
    let s = state.clone();
    let detail = warp::path!("api" / "coordinator" / "workflows" / String)
        .and(warp::get())
        .and(require(state, Role::Viewer))
        .and_then(move |id: String, _| {
            let state = s.clone();
            async move {
                let detail = state.workflows().map_err(ApiError::from)?.get(&id).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&detail))
            }
        });
    list.or(detail)
}

fn approvals(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "coordinator" / "approvals")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<PageQuery>())
        .and_then(move |_, query: PageQuery| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let list = workflows.approvals(&query).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&list))
            }
        });
    let s = state.clone();
    let decide = warp::path!("api" / "coordinator" / "approvals" / String)
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<DecideRequest>())
        .and_then(move |id: String, caller: Principal, request: DecideRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let reply = workflows.decide(admin, &id, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&reply))
            }
        });
    let s = state.clone();
    let bulk = warp::path!("api" / "coordinator" / "approvals")
        .and(warp::post())
        .and(require(state, Role::Viewer))
        .and(json_body::<BulkDecideRequest>())
        .and_then(move |caller: Principal, request: BulkDecideRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let reply = workflows.decide_all(admin, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&reply))
            }
        });
    list.or(decide).or(bulk)
}
