//! `/api/workers`: the worker list (`{"workers": [...]}`), one worker with its memory
//! object, and `POST /api/workers/:id/start` (202; the workflow service refuses viewers).

use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::session::require;
use crate::auth::Principal;
use crate::domain::Role;
use crate::state::AppState;
use crate::workflows::StartRequest;
use crate::workflows::views::WorkerList;

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list =
        warp::path!("api" / "workers").and(warp::get()).and(require(state.clone(), Role::Viewer)).and_then(move |_| {
            let state = s.clone();
            async move {
                let workers = state.workflows().map_err(ApiError::from)?.workers().await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&WorkerList { workers }))
            }
        });
    let s = state.clone();
    let detail = warp::path!("api" / "workers" / String)
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |id: String, _| {
            let state = s.clone();
            async move {
                let worker = state.workflows().map_err(ApiError::from)?.worker(&id).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&worker))
            }
        });
    let s = state.clone();
    let start = warp::path!("api" / "workers" / String / "start")
        .and(warp::post())
        .and(require(state, Role::Viewer))
        .and(json_body::<StartRequest>())
        .and_then(move |id: String, caller: Principal, request: StartRequest| {
            let state = s.clone();
            async move {
                let workflows = state.workflows().map_err(ApiError::from)?;
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let started = workflows.start(admin, &id, request).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::with_status(warp::reply::json(&started), StatusCode::ACCEPTED))
            }
        });
    list.or(detail).or(start)
}
