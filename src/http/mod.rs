//! The HTTP face: composes every route into one warp filter with a single `.recover`.
//! Routes call services; they never open the store's tables themselves.

pub mod api_doc;
pub mod assets;
mod brain;
mod client_config;
mod coordinator;
mod deals;
mod enrich;
pub mod error;
pub mod filters;
mod health;
mod home;
mod login;
mod memory;
mod metrics;
mod prometheus;
mod query;
pub mod rate_limit;
pub mod session;
mod status_page;
mod workers;
mod ws;

use warp::{Filter, Reply};

use crate::state::AppState;

/// Every warp route of the appliance, with the error envelope applied.
pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = std::convert::Infallible> + Clone {
    health::routes(state.clone())
        .or(enrich::routes(state.clone()))
        .or(login::routes(state.clone()))
        .or(client_config::routes(state.clone()))
        .or(deals::routes(state.clone()))
        .or(metrics::routes(state.clone()))
        .or(memory::routes(state.clone()))
        .or(brain::routes(state.clone()))
        .or(workers::routes(state.clone()))
        .or(coordinator::routes(state.clone()))
        .or(ws::routes(state.clone()))
        .or(status_page::routes(state.clone()))
        .or(home::routes(state.clone()))
        .or(api_doc::routes())
        .or(prometheus::routes(state))
        .recover(error::recover)
}
