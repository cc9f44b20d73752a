//! `GET /api/health`: open, never rate limited (load balancers and the status page poll it).

use warp::{Filter, Rejection, Reply};

use crate::state::AppState;

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("api" / "health")
        .and(warp::get().or(warp::head()).unify())
        .map(move || warp::reply::json(&state.health()))
}
