//! The HTTP face: composes every route into one warp filter with a single `.recover`, except
//! the keyless files (`assets`) and `/v1/enrich`, which the server's router answers directly.
//! Routes call services; they never open the store's tables themselves.

pub mod api_doc;
pub mod assets;
mod audit;
mod brain;
mod client_config;
mod console;
mod controls;
mod coordinator;
mod deals;
pub mod enrich;
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

use warp::filters::BoxedFilter;
use warp::{Filter, Rejection, Reply};

use crate::state::AppState;

/// One route family behind a box: the composed filter's type stays flat, so the compiler
/// does not build (and the test build does not build twice) one giant nested type out of
/// every route. Dispatch through a box costs a pointer call per family; the hottest paths
/// (the keyless files, `/v1/enrich`, `/mcp`) never enter warp.
type Family = BoxedFilter<(Box<dyn Reply>,)>;

fn family<F, R>(filter: F) -> Family
where
    F: Filter<Extract = (R,), Error = Rejection> + Clone + Send + Sync + 'static,
    R: Reply + 'static,
{
    filter.map(|reply: R| Box::new(reply) as Box<dyn Reply>).boxed()
}

/// Every warp route of the appliance, with the error envelope applied.
pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = std::convert::Infallible> + Clone {
    let families = [
        family(health::routes(state.clone())),
        family(login::routes(state.clone())),
        family(client_config::routes(state.clone())),
        family(deals::routes(state.clone())),
        family(audit::routes(state.clone())),
        family(metrics::routes(state.clone())),
        family(memory::routes(state.clone())),
        family(brain::routes(state.clone())),
        family(workers::routes(state.clone())),
        family(coordinator::routes(state.clone())),
        family(controls::routes(state.clone())),
        family(controls::budget_routes(state.clone())),
        family(ws::routes(state.clone())),
        family(status_page::routes(state.clone())),
        family(console::routes(state.clone())),
        family(home::routes(state.clone())),
        family(api_doc::routes()),
        family(prometheus::routes(state)),
    ];
    // Folded from the right: `health.or(login.or(client_config.or(…)))`. A request is tried
    // against the families in this order either way, but it passes one boxed `Or` per family
    // tried before its own, not one per family in the list.
    let [outer @ .., innermost] = families;
    outer.into_iter().rev().fold(innermost, |rest, first| first.or(rest).unify().boxed()).recover(error::recover)
}
