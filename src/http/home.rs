//! `GET /`: a small open home page — what the appliance is, where to look next (status,
//! MCP guide, agent index, OpenAPI, health) and how to sign in. One embedded template with no
//! external assets; the few values are filled in here, HTML-escaped.

use warp::http::HeaderValue;
use warp::{Filter, Rejection, Reply};

use super::status_page::escape;
use crate::state::AppState;

const TEMPLATE: &str = include_str!("../../assets/web/home.html");

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path::end().and(warp::get().or(warp::head()).unify()).and(warp::header::optional::<String>("host")).map(
        move |host: Option<String>| {
            let mut res = warp::reply::html(render(&state, host.as_deref())).into_response();
            res.headers_mut().insert("cache-control", HeaderValue::from_static("no-cache"));
            res
        },
    )
}

fn render(state: &AppState, host: Option<&str>) -> String {
    let dir = state.directory();
    let scheme = if state.config().tls.is_some() { "https" } else { "http" };
    let origin = match host {
        Some(h) => format!("{scheme}://{h}"),
        None => format!("{scheme}://{}", state.config().listen),
    };
    TEMPLATE
        .replace("{{version}}", crate::state::VERSION)
        .replace("{{mode}}", state.config().mode.as_str())
        .replace("{{tracked}}", &dir.tracked().to_string())
        .replace("{{with_page}}", &dir.with_page().to_string())
        .replace("{{origin}}", &escape(&origin))
}
