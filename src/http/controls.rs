//! `/api/controls` and the workflow cancel route: pauses (list; pause a worker or a workflow
//! type, 201 new or 200 standing; resume, 404 when not paused), a filtered cancel answered per
//! workflow, and `POST /api/coordinator/workflows/:id/cancel` (404 unknown, 409 ended). Every
//! write is admin only (`workflows::controls`). Budgets: the list with spend, and an admin's
//! setting of one (`budgets`).

use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::session::require;
use crate::auth::Principal;
use crate::budgets::{self, SetBudget};
use crate::domain::Role;
use crate::state::AppState;
use crate::workflows::controls::{BulkCancelRequest, CancelBody, PauseRequest, ResumeRequest};

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let pauses = warp::path!("api" / "controls" / "pauses")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |_| {
            let state = s.clone();
            async move {
                let list = state.workflows().map_err(ApiError::from)?.pauses().await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&list))
            }
        });
    let s = state.clone();
    let pause = warp::path!("api" / "controls" / "pause")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<PauseRequest>())
        .and_then(move |caller: Principal, request: PauseRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let (pause, created) = workflows.pause(admin, request).await.map_err(ApiError::from)?;
                let status = if created { StatusCode::CREATED } else { StatusCode::OK };
                Ok::<_, Rejection>(warp::reply::with_status(warp::reply::json(&pause), status))
            }
        });
    let s = state.clone();
    let resume = warp::path!("api" / "controls" / "resume")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<ResumeRequest>())
        .and_then(move |caller: Principal, request: ResumeRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let reply = workflows.resume(admin, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&reply))
            }
        });
    let s = state.clone();
    let bulk = warp::path!("api" / "controls" / "cancel")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<BulkCancelRequest>())
        .and_then(move |caller: Principal, request: BulkCancelRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let reply = workflows.cancel_matching(admin, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&reply))
            }
        });
    let s = state.clone();
    let cancel = warp::path!("api" / "coordinator" / "workflows" / String / "cancel")
        .and(warp::post())
        .and(require(state, Role::Viewer))
        .and(json_body::<CancelBody>())
        .and_then(move |id: String, caller: Principal, body: CancelBody| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let reply = workflows.cancel(admin, &id, body).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&reply))
            }
        });
    pauses.or(pause).or(resume).or(bulk).or(cancel)
}

/// `GET /api/controls/budgets` (any signed-in user) and `POST /api/controls/budgets` (admin).
pub fn budget_routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "controls" / "budgets")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |_| {
            let state = s.clone();
            async move {
                let list = budgets::list_all(state.store(), &state.config().budgets).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&list))
            }
        });
    let s = state.clone();
    let set = warp::path!("api" / "controls" / "budgets")
        .and(warp::post())
        .and(require(state, Role::Viewer))
        .and(json_body::<SetBudget>())
        .and_then(move |caller: Principal, request: SetBudget| {
            let state = s.clone();
            async move {
                let admin = caller.require_admin().map_err(ApiError::from)?;
                budgets::set(state.store(), admin, request).await.map_err(ApiError::from)?;
                let list = budgets::list_all(state.store(), &state.config().budgets).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&list))
            }
        });
    list.or(set)
}
