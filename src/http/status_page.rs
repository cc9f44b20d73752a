//! `GET /status`: the server-rendered dashboard. One embedded HTML template with no external
//! assets (it works air-gapped); values are filled in here, HTML-escaped. The workspace
//! sections come from the latest metric rollups and the scheduler's record, and say plainly
//! when there is nothing to show yet.

use warp::{Filter, Rejection, Reply};

use crate::metrics::{Latest, PipelineView, TokenView, WorkerMetrics, WorkersView};
use crate::state::AppState;
use crate::{jobs, metrics};

const TEMPLATE: &str = include_str!("../../assets/status/status.html");

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("status").and(warp::get().or(warp::head()).unify()).then(move || {
        let state = state.clone();
        async move {
            let mut res = warp::reply::html(render(&state).await).into_response();
            res.headers_mut().insert("cache-control", warp::http::HeaderValue::from_static("no-store"));
            res
        }
    })
}

fn section(id: &str, title: &str, body: String) -> String {
    format!("  <section id=\"{id}\">\n    <h2>{title}</h2>\n{body}  </section>\n")
}

fn empty(text: &str) -> String {
    format!("    <p class=\"empty\">{}</p>\n", escape(text))
}

fn rows(pairs: &[(String, String)]) -> String {
    let items: String =
        pairs.iter().map(|(k, v)| format!("      <dt>{}</dt><dd>{}</dd>\n", escape(k), escape(v))).collect();
    format!("    <dl>\n{items}    </dl>\n")
}

/// The workspace sections, from the latest rollups and the scheduler's record.
async fn workspace_sections(state: &AppState) -> String {
    let store = state.store();
    let workers = metrics::latest::<WorkersView>(store).await.map(|l| l.view.workers).unwrap_or_default();
    let total = |f: fn(&WorkerMetrics) -> u64| -> u64 { workers.iter().map(f).sum() };
    let worker_rows: Vec<(String, String)> =
        workers.iter().map(|w| (w.name.clone(), format!("{} runs, {} failed", w.started, w.failed))).collect();
    let mut out = String::new();
    out += &section(
        "workers",
        "Workers",
        if worker_rows.is_empty() { empty("No AI workers are registered.") } else { rows(&worker_rows) },
    );
    let runs =
        [("Started", total(|w| w.started)), ("Completed", total(|w| w.completed)), ("Failed", total(|w| w.failed))];
    out += &section("workflows", "Workflows", rows(&runs.map(|(k, v)| (k.to_owned(), v.to_string()))));
    let pending = total(|w| w.pending_approvals);
    let approvals = if pending == 0 {
        empty("No approvals are waiting.")
    } else {
        rows(&[("Waiting".into(), pending.to_string())])
    };
    out += &section("approvals", "Approvals", approvals);
    let jobs: Vec<(String, String)> = jobs::status(state)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|j| {
            let last = j
                .last_run
                .map(|r| format!("last {} ({})", r.started_at, r.outcome))
                .unwrap_or_else(|| "not run yet".into());
            (j.name, format!("{} · {last} · next {}", j.schedule, j.next_run.unwrap_or_default()))
        })
        .collect();
    out += &section("jobs", "Scheduler jobs", rows(&jobs));
    let pipeline = match metrics::latest::<PipelineView>(store).await {
        Ok(Latest { view: p, .. }) => rows(&[
            ("Deals".into(), p.deal_count.to_string()),
            ("Open value (USD)".into(), p.open_value.to_string()),
            ("Weighted value (USD)".into(), p.weighted_value.to_string()),
            ("Win rate".into(), p.win_rate.map_or_else(|| "-".into(), |r| r.to_string())),
        ]),
        Err(_) => empty("No deals in the pipeline."),
    };
    out += &section("pipeline", "Pipeline", pipeline);
    let tokens = match metrics::latest::<TokenView>(store).await {
        Ok(Latest { view: t, .. }) => rows(&[
            ("Input tokens".into(), t.input_tokens.to_string()),
            ("Output tokens".into(), t.output_tokens.to_string()),
            ("Cost (USD)".into(), t.cost_usd.to_string()),
        ]),
        Err(_) => empty("No language-model tokens have been used."),
    };
    out += &section("tokens", "Token spend", tokens);
    out
}

pub async fn render(state: &AppState) -> String {
    let health = state.health();
    let dir = state.directory();
    let sections = workspace_sections(state).await;
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
