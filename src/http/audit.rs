//! `GET /api/audit`: the audit log, newest first, a page at a time (admins only).

use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::query::typed_query;
use super::session::require;
use crate::audit::{self, AuditListQuery};
use crate::auth::Principal;
use crate::domain::Role;
use crate::state::AppState;

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("api" / "audit")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<AuditListQuery>())
        .and_then(move |caller: Principal, query: AuditListQuery| {
            let state = state.clone();
            async move {
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let page = audit::list(state.store(), admin, query).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&page))
            }
        })
}
