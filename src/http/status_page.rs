//! `GET /status`: the server-rendered dashboard. One embedded HTML template with no external
//! assets (it works air-gapped); values are filled in here, HTML-escaped. The workspace
//! sections say plainly when there is nothing to show yet.

use warp::{Filter, Rejection, Reply};

use crate::state::AppState;

const TEMPLATE: &str = include_str!("../../assets/status/status.html");

/// Workspace sections in page order: (id, title, what the section shows when empty).
const SECTIONS: &[(&str, &str, &str)] = &[
    ("workers", "Workers", "No AI workers are registered on this server yet."),
    ("workflows", "Workflows", "No workflows have run."),
    ("approvals", "Approvals", "No approvals are waiting."),
    ("jobs", "Scheduler jobs", "No scheduled jobs are configured."),
    ("pipeline", "Pipeline", "No deals in the pipeline."),
    ("tokens", "Token spend", "No language-model tokens have been used."),
];

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("status").and(warp::get().or(warp::head()).unify()).map(move || {
        let mut res = warp::reply::html(render(&state)).into_response();
        res.headers_mut().insert("cache-control", warp::http::HeaderValue::from_static("no-store"));
        res
    })
}

pub fn render(state: &AppState) -> String {
    let health = state.health();
    let dir = state.directory();
    let sections: String = SECTIONS
        .iter()
        .map(|(id, title, empty)| {
            format!("  <section id=\"{id}\">\n    <h2>{title}</h2>\n    <p class=\"empty\">{empty}</p>\n  </section>\n")
        })
        .collect();
    TEMPLATE
        .replace("{{status}}", &escape(&health.status))
        .replace("{{version}}", &escape(&health.version))
        .replace("{{mode}}", &escape(&health.mode))
        .replace("{{engine}}", &escape(&health.temporal))
        .replace("{{uptime}}", &format!("{}s", health.uptime))
        .replace("{{tracked}}", &dir.tracked().to_string())
        .replace("{{with_page}}", &dir.with_page().to_string())
        .replace("{{generated_at}}", &escape(dir.generated_at()))
        .replace("{{sections}}", &sections)
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}
