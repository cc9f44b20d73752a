//! The HTTP face: composes every route into one warp filter with a single `.recover`.
//! Routes call services; they never open the store's tables themselves.

pub mod assets;
mod enrich;
pub mod error;
pub mod filters;
mod health;

use warp::{Filter, Reply};

use crate::state::AppState;

/// Every warp route of the appliance, with the error envelope applied.
pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = std::convert::Infallible> + Clone {
    health::routes(state.clone()).or(enrich::routes(state)).recover(error::recover)
}
