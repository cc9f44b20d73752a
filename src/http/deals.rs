//! `/api/deals`: list (filters `stage`, `type`, `rep`), `summary/pipeline`, detail, and the
//! admin-only PATCH. Viewers read; only admins write.

use std::collections::HashMap;

use serde_json::json;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::session::require;
use crate::deals::{self, DealFilter, DealUpdate};
use crate::domain::Role;
use crate::state::AppState;

const LIST_PARAMS: [&str; 3] = ["stage", "type", "rep"];

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "deals")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(super::filters::query_once())
        .and_then(move |_, query: HashMap<String, String>| {
            let state = s.clone();
            async move {
                let filter = parse_filter(query)?;
                let deals = deals::list(state.store(), &filter).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&json!({ "deals": deals, "total": deals.len() })))
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
        .and(require(state, Role::Admin))
        .and(json_body::<DealUpdate>())
        .and_then(move |id: String, _, update: DealUpdate| {
            let state = s.clone();
            async move {
                let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
                let deal = deals::update(state.store(), &id, update, today).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&deal))
            }
        });
    summary.or(list).or(detail).or(patch)
}

fn parse_filter(mut query: HashMap<String, String>) -> Result<DealFilter, Rejection> {
    let mut unknown: Vec<&String> = query.keys().filter(|k| !LIST_PARAMS.contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        unknown.sort();
        let names: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
        return Err(warp::reject::custom(ApiError::BadRequest(format!("unknown filter(s): {}", names.join(", ")))));
    }
    Ok(DealFilter { stage: query.remove("stage"), deal_type: query.remove("type"), rep: query.remove("rep") })
}
