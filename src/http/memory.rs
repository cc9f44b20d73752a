//! `/api/memory` and `/api/project/memory`: thin routes over the `memory` service. Route
//! precedence: `tree`, `search`, `health/:workerId` and `compress/:workerId` are matched before
//! the `:scope/:key` patterns. Every caller may read; the service refuses viewers' writes.

use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::query::typed_query;
use super::session::require;
use crate::auth::Principal;
use crate::domain::Role;
use crate::memory::{self, MemoryEntry, WriteRequest};
use crate::state::AppState;

/// A service answer as a response. Errors become the envelope here rather than a rejection,
/// so a route that matched answers itself and no later pattern (`:scope/:key`) can override it.
fn answer<T: serde::Serialize>(result: Result<T, memory::MemoryError>) -> Result<Response, Rejection> {
    Ok(match result {
        Ok(value) => warp::reply::json(&value).into_response(),
        Err(e) => ApiError::from(e).to_response(),
    })
}

/// The query of `GET /api/memory/search`; anything else is refused.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchQuery {
    /// Words to find: 1-200 characters holding at least one word of three or more letters
    /// or digits (400 otherwise).
    #[schemars(length(min = 1, max = 200))]
    q: String,
    /// Only this scope: `org`, `team:<id>` or `worker:<id>` (empty: every scope).
    #[schemars(regex(pattern = crate::domain::SCOPE_OR_EMPTY_PATTERN))]
    scope: Option<String>,
}

/// The answer of `GET /api/project/memory`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct ProjectMemory {
    scope: &'static str,
    total: usize,
    entries: Vec<MemoryEntry>,
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let viewer = require(state.clone(), Role::Viewer);
    let with_state = {
        let s = state.clone();
        warp::any().map(move || s.clone())
    };
    let tree = warp::path!("api" / "memory" / "tree")
        .and(warp::get())
        .and(viewer.clone())
        .and(typed_query::<memory::TreePage>())
        .and(with_state.clone())
        .and_then(|_: Principal, page: memory::TreePage, state: AppState| async move {
            answer(memory::tree(state.store(), &page))
        });
    let search = warp::path!("api" / "memory" / "search")
        .and(warp::get())
        .and(viewer.clone())
        .and(typed_query::<SearchQuery>())
        .and(with_state.clone())
        .and_then(|_: Principal, query: SearchQuery, state: AppState| async move {
            answer(memory::search(state.store(), &query.q, query.scope.as_deref()).await)
        });
    let health = warp::path!("api" / "memory" / "health" / String)
        .and(warp::get())
        .and(viewer.clone())
        .and(with_state.clone())
        .and_then(|worker: String, _: Principal, state: AppState| async move {
            answer(memory::health(state.store(), &worker).await)
        });
    let compress = warp::path!("api" / "memory" / "compress" / String)
        .and(warp::post())
        .and(viewer.clone())
        .and(with_state.clone())
        .and_then(|worker: String, principal: Principal, state: AppState| async move {
            let admin = principal.require_admin().map_err(|e| warp::reject::custom(ApiError::from(e)))?;
            answer(memory::compress(state.store(), state.llm(), admin, &worker).await)
        });
    let history = warp::path!("api" / "memory" / String / String / "history")
        .and(warp::get())
        .and(viewer.clone())
        .and(with_state.clone())
        .and_then(|scope: String, key: String, _: Principal, state: AppState| async move {
            answer(memory::history(state.store(), &decode(&scope), &decode(&key)).await)
        });
    let entry = warp::path!("api" / "memory" / String / String)
        .and(warp::get())
        .and(viewer.clone())
        .and(with_state.clone())
        .and_then(|scope: String, key: String, _: Principal, state: AppState| async move {
            answer(memory::get(state.store(), &decode(&scope), &decode(&key)).await)
        });
    let write = warp::path!("api" / "memory")
        .and(warp::post())
        .and(viewer.clone())
        .and(json_body::<WriteRequest>())
        .and(with_state.clone())
        .and_then(|principal: Principal, request: WriteRequest, state: AppState| async move {
            let admin = principal.require_admin().map_err(|e| warp::reject::custom(ApiError::from(e)))?;
            Ok::<_, Rejection>(match memory::write(state.store(), admin, request).await {
                Ok((entry, created)) => {
                    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
                    warp::reply::with_status(warp::reply::json(&entry), status).into_response()
                }
                Err(e) => ApiError::from(e).to_response(),
            })
        });
    let project = warp::path!("api" / "project" / "memory").and(warp::get()).and(viewer).and(with_state).and_then(
        |_: Principal, state: AppState| async move {
            let result = memory::project(state.store()).await;
            answer(result.map(|entries| ProjectMemory { scope: "org", total: entries.len(), entries }))
        },
    );
    tree.or(search).or(health).or(compress).or(history).or(entry).or(write).or(project)
}

/// Path segments arrive percent-encoded (`team%3Asales`).
fn decode(segment: &str) -> String {
    percent_encoding::percent_decode_str(segment).decode_utf8_lossy().into_owned()
}
