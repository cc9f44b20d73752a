//! `/api/metrics/{pipeline,tokens,consumption,workers}` (the latest rollup with its
//! `computedAt`; the tokens view also with every budget and its spend as of now) and
//! `/api/tasks/status` (the scheduler's jobs).

use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::session::require;
use crate::domain::Role;
use crate::metrics::{ConsumptionView, Latest, PipelineView, TokenView, TokensReply, View, WorkersView};
use crate::state::AppState;
use crate::store::Store;
use crate::{jobs, metrics};

/// The answer of `GET /api/tasks/status`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub(crate) struct JobsReply {
    jobs: Vec<jobs::JobStatus>,
}

async fn latest_view(state: &AppState, view: &str) -> Result<Response, ApiError> {
    fn reply<V: View>(latest: Latest<V>) -> Response {
        warp::reply::json(&latest).into_response()
    }
    let store: &Store = state.store();
    Ok(match view {
        PipelineView::NAME => reply(metrics::latest::<PipelineView>(store).await?),
        TokenView::NAME => {
            let latest = metrics::latest::<TokenView>(store).await?;
            let budgets = crate::budgets::list_all(store, &state.config().budgets).await?.budgets;
            warp::reply::json(&TokensReply { latest, budgets }).into_response()
        }
        ConsumptionView::NAME => reply(metrics::latest::<ConsumptionView>(store).await?),
        WorkersView::NAME => reply(metrics::latest::<WorkersView>(store).await?),
        _ => {
            let views = metrics::VIEWS.join(", ");
            return Err(ApiError::NotFound(format!("no metric view {view:?}; views are {views}")));
        }
    })
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let views = warp::path!("api" / "metrics" / String)
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |view: String, _| {
            let state = s.clone();
            async move { latest_view(&state, &view).await.map_err(warp::reject::custom) }
        });
    let s = state.clone();
    let tasks = warp::path!("api" / "tasks" / "status").and(warp::get()).and(require(state, Role::Viewer)).and_then(
        move |_| {
            let state = s.clone();
            async move {
                let jobs = jobs::status(&state).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&JobsReply { jobs }))
            }
        },
    );
    views.or(tasks)
}
