//! `/api/deals`: list (filters `stage`, `type`, `rep`), `summary/pipeline`, detail, and the
//! PATCH (the deals service refuses it to viewers).

use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::query::typed_query;
use super::session::require;
use crate::auth::Principal;
use crate::deals::{self, DealFilter, DealSummary, DealUpdate};
use crate::domain::{CalendarDate, Role};
use crate::state::AppState;

/// The answer of `GET /api/deals`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct DealList {
    deals: Vec<DealSummary>,
    total: usize,
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "deals")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<DealFilter>())
        .and_then(move |_, filter: DealFilter| {
            let state = s.clone();
            async move {
                let deals = deals::list(state.store(), &filter).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&DealList { total: deals.len(), deals }))
            }
        });
    let s = state.clone();
    let summary = warp::path!("api" / "deals" / "summary" / "pipeline")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |_| {
            let state = s.clone();
            async move {
                let summary = deals::summary(state.store()).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&summary))
            }
        });
    let s = state.clone();
    let detail = warp::path!("api" / "deals" / String)
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |id: String, _| {
            let state = s.clone();
            async move {
                let deal = deals::get(state.store(), &id).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&deal))
            }
        });
    let s = state.clone();
    let patch = warp::path!("api" / "deals" / String)
        .and(warp::patch())
        .and(require(state, Role::Viewer))
        .and(json_body::<DealUpdate>())
        .and_then(move |id: String, caller: Principal, update: DealUpdate| {
            let state = s.clone();
            async move {
                let today = CalendarDate::from_naive(state.clock().utc().date_naive());
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let deal = deals::update(state.store(), admin, &id, update, today).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&deal))
            }
        });
    summary.or(list).or(detail).or(patch)
}
