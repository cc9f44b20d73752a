//! `/api/metrics/{pipeline,tokens,consumption,workers}` (the latest rollup with its
//! `computedAt`) and `/api/tasks/status` (the scheduler's jobs).

use serde_json::json;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::session::require;
use crate::domain::Role;
use crate::state::AppState;
use crate::{jobs, metrics};

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let views = warp::path!("api" / "metrics" / String)
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |view: String, _| {
            let state = s.clone();
            async move {
                if !metrics::VIEWS.contains(&view.as_str()) {
                    return Err(warp::reject::custom(ApiError::NotFound(format!(
                        "no metric view {view:?}; views are {}",
                        metrics::VIEWS.join(", ")
                    ))));
                }
                match metrics::latest(state.store(), &view).await.map_err(ApiError::from)? {
                    Some(value) => Ok(warp::reply::json(&value)),
                    None => Err(warp::reject::custom(ApiError::Unavailable("the first rollup has not run yet".into()))),
                }
            }
        });
    let s = state.clone();
    let tasks = warp::path!("api" / "tasks" / "status").and(warp::get()).and(require(state, Role::Viewer)).and_then(
        move |_| {
            let state = s.clone();
            async move {
                let jobs = jobs::status(&state).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&json!({ "jobs": jobs })))
            }
        },
    );
    views.or(tasks)
}
