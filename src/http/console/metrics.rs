//! `/app/metrics`: the four metric views of `/api/metrics/*` — pipeline, tokens, consumption,
//! workers — as server-rendered SVG charts drawn by the status page's chart code, each with an
//! accessible name, a `<title>` per bar with the exact figure and a table of the figures. The
//! views are the latest rollups (never computed on the request path); the pipeline's value and
//! count by stage are the deals' live summary, as on `/app/deals`. A view not computed yet says
//! so in its own section; the page still renders.

use maud::{Markup, PreEscaped, html};
use warp::Filter;
use warp::http::HeaderMap;

use super::layout::page;
use super::{Answer, Page, get_page, pending, signed_in};
use crate::auth::Principal;
use crate::deals::{self, PipelineSummary};
use crate::http::error::ApiError;
use crate::http::status_page::charts::{self, Column, Outcomes};
use crate::http::status_page::format::{compact, count, percent, usd, usd_cents, when};
use crate::metrics::{self, ConsumptionView, Latest, PipelineView, TokenUse, TokenView, WorkersView};
use crate::state::AppState;

/// Days of token use charted (the most recent).
const TOKEN_DAYS: usize = 30;

pub fn routes(state: AppState) -> Vec<Page> {
    let metrics = warp::path!("app" / "metrics")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = state.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => render(&state, &who).await,
                    Err(login) => login,
                }
            }
        })
        .boxed();
    vec![metrics]
}

async fn render(state: &AppState, who: &Principal) -> Answer {
    let store = state.store();
    let pipeline = metrics::latest::<PipelineView>(store).await.map_err(ApiError::from);
    let summary = deals::summary(store);
    let tokens = metrics::latest::<TokenView>(store).await.map_err(ApiError::from);
    let consumption = metrics::latest::<ConsumptionView>(store).await.map_err(ApiError::from);
    let workers = metrics::latest::<WorkersView>(store).await.map_err(ApiError::from);
    let main = html! {
        h1 { "Metrics" }
        p.hint { "The latest rollups, recomputed by the scheduler; each chart's figures are in the table below it." }
        (pipeline_section(pipeline, summary))
        (tokens_section(tokens))
        (consumption_section(consumption))
        (workers_section(workers))
    };
    Answer::ok(page("Metrics", Some(who), pending(state).await, "/app/metrics", main))
}

/// A view's section: its heading, when it was computed, and `body`, or why it cannot be shown.
fn section<V>(id: &str, title: &str, view: Result<Latest<V>, ApiError>, body: impl FnOnce(&V) -> Markup) -> Markup {
    html! {
        section.metric id=(id) aria-labelledby={ (id) "-heading" } {
            h2 id={ (id) "-heading" } { (title) }
            @match &view {
                Ok(latest) => {
                    p.meta { "Computed " time datetime=(latest.computed_at) { (when(&latest.computed_at)) } }
                    (body(&latest.view))
                }
                Err(e) => p.empty { (e.public().2) }
            }
        }
    }
}

/// A chart (already escaped SVG from `charts`) in its figure.
fn chart(svg: String) -> Markup {
    html! { figure.chart-box { (PreEscaped(svg)) } }
}

fn money(amount: f64) -> String {
    if amount < 0.0 { format!("−{}", usd_cents(-amount)) } else { usd_cents(amount) }
}

fn stage_buckets(s: &PipelineSummary) -> [(&'static str, &'static str, u64, u64); 6] {
    let b = &s.by_stage;
    [
        ("prospecting", "Prospect", b.prospecting.value, b.prospecting.count),
        ("qualification", "Qualify", b.qualification.value, b.qualification.count),
        ("proposal", "Proposal", b.proposal.value, b.proposal.count),
        ("negotiation", "Negotiate", b.negotiation.value, b.negotiation.count),
        ("closed-won", "Won", b.closed_won.value, b.closed_won.count),
        ("closed-lost", "Lost", b.closed_lost.value, b.closed_lost.count),
    ]
}

/// A column per stage: its value, or (`by_count`) its number of deals.
fn stage_columns(buckets: &[(&str, &str, u64, u64)], by_count: bool) -> Vec<Column> {
    buckets
        .iter()
        .map(|(key, label, value, n)| Column {
            key: (*key).to_owned(),
            label: (*label).to_owned(),
            value: if by_count { *n as f64 } else { *value as f64 },
            exact: format!("{} in {n} deals", usd(*value)),
        })
        .collect()
}

fn pipeline_section(view: Result<Latest<PipelineView>, ApiError>, summary: PipelineSummary) -> Markup {
    section("metric-pipeline", "Pipeline by stage", view, |p| {
        let buckets = stage_buckets(&summary);
        html! {
            dl.facts {
                dt { "Total" } dd { (usd(p.total_value)) " in " (count(p.deal_count)) " deals" }
                dt { "Open" } dd { (usd(p.open_value)) " (weighted " (usd(p.weighted_value)) ")" }
                dt { "Win rate" } dd { (p.win_rate.map_or_else(|| "none closed yet".to_owned(), percent)) " (" (p.won) " won, " (p.lost) " lost)" }
            }
            div.charts {
                (chart(charts::columns("chart-pipeline-value", "Pipeline value by stage (USD)", &stage_columns(&buckets, false))))
                (chart(charts::columns("chart-pipeline-count", "Deals by stage (count)", &stage_columns(&buckets, true))))
            }
            div.scroll role="region" tabindex="0" aria-label="Pipeline by stage" {
                table.figures {
                    caption { "Pipeline by stage" }
                    thead { tr { th scope="col" { "Stage" } th scope="col" { "Deals" } th scope="col" { "Value" } } }
                    tbody {
                        @for (key, _, value, n) in buckets { tr { th scope="row" { (key) } td { (n) } td { (usd(value)) } } }
                    }
                }
            }
        }
    })
}

fn usage(u: &TokenUse) -> String {
    format!("{} in, {} out, {}", count(u.input_tokens), count(u.output_tokens), usd_cents(u.cost_usd))
}

fn token_total(u: &TokenUse) -> f64 {
    (u.input_tokens + u.output_tokens) as f64
}

fn tokens_section(view: Result<Latest<TokenView>, ApiError>) -> Markup {
    section("metric-tokens", "Token use and cost", view, |t| {
        let days = &t.by_day[t.by_day.len().saturating_sub(TOKEN_DAYS)..];
        let by_day: Vec<Column> = days
            .iter()
            .map(|d| Column {
                key: d.date.clone(),
                label: d.date.clone(),
                value: d.usage.cost_usd,
                exact: usage(&d.usage),
            })
            .collect();
        let by_worker: Vec<Column> = t
            .by_worker
            .iter()
            .map(|w| Column {
                key: w.worker.clone(),
                label: w.worker.clone(),
                value: token_total(&w.usage),
                exact: usage(&w.usage),
            })
            .collect();
        let by_model: Vec<Column> = t
            .by_model
            .iter()
            .map(|m| Column {
                key: m.model.clone(),
                label: m.model.clone(),
                value: token_total(&m.usage),
                exact: usage(&m.usage),
            })
            .collect();
        html! {
            p { "In total " (count(t.input_tokens)) " tokens in, " (count(t.output_tokens)) " out, costing " (usd_cents(t.cost_usd)) "." }
            @if t.by_day.is_empty() {
                p.empty { "No model call has been recorded yet." }
            } @else {
                div.charts {
                    (chart(charts::columns("chart-tokens-day", &format!("Model cost by day (USD), last {} days", days.len()), &by_day)))
                    (chart(charts::rows("chart-tokens-worker", "Tokens by worker", &by_worker)))
                    (chart(charts::rows("chart-tokens-model", "Tokens by model", &by_model)))
                }
                div.scroll role="region" tabindex="0" aria-label="Token use by worker and by model" {
                    table.figures {
                        caption { "Token use by worker and by model" }
                        thead { tr { th scope="col" { "Worker or model" } th scope="col" { "Input" } th scope="col" { "Output" } th scope="col" { "Cost" } } }
                        tbody {
                            @for w in &t.by_worker { (usage_row(&format!("worker {}", w.worker), &w.usage)) }
                            @for m in &t.by_model { (usage_row(&format!("model {}", m.model), &m.usage)) }
                        }
                    }
                }
            }
        }
    })
}

fn usage_row(name: &str, u: &TokenUse) -> Markup {
    html! {
        tr { th scope="row" { (name) } td { (count(u.input_tokens)) } td { (count(u.output_tokens)) } td { (usd_cents(u.cost_usd)) } }
    }
}

fn consumption_section(view: Result<Latest<ConsumptionView>, ApiError>) -> Markup {
    section("metric-consumption", "Consumption forecast", view, |c| {
        let ebam: Vec<Column> = c
            .accounts
            .iter()
            .map(|a| Column {
                key: a.account_id.clone(),
                label: a.name.clone(),
                value: a.ebam.max(0.0),
                exact: format!(
                    "expected at month end {}, annual run-rate {}, headroom {}",
                    money(a.ebam),
                    money(a.ear),
                    money(a.headroom)
                ),
            })
            .collect();
        html! {
            @match &c.as_of {
                None => p.empty { "No usage has been recorded yet." },
                Some(as_of) => {
                    p { "As of " (as_of) ": expected billing at month end (EBAM), expected annual revenue (EAR) and headroom against each commit." }
                    (chart(charts::rows("chart-consumption", &format!("Expected billing at month end by account (USD), as of {as_of}"), &ebam)))
                    div.scroll role="region" tabindex="0" aria-label="Consumption by account" {
                        table.figures {
                            caption { "Consumption by account" }
                            thead {
                                tr {
                                    th scope="col" { "Account" } th scope="col" { "Month to date" } th scope="col" { "Daily run-rate" }
                                    th scope="col" { "EBAM" } th scope="col" { "EAR" } th scope="col" { "Commit" } th scope="col" { "Headroom" }
                                }
                            }
                            tbody {
                                @for a in &c.accounts {
                                    tr data-account=(a.account_id) {
                                        th scope="row" { (a.name) } td { (money(a.month_to_date)) } td { (money(a.daily_run_rate)) }
                                        td { (money(a.ebam)) } td { (money(a.ear)) } td { (money(a.annual_commit)) }
                                        td class=[(a.headroom < 0.0).then_some("over")] { (money(a.headroom)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

fn workers_section(view: Result<Latest<WorkersView>, ApiError>) -> Markup {
    section("metric-workers", "Worker performance", view, |w| {
        let outcomes: Vec<Outcomes> = w
            .workers
            .iter()
            .map(|m| Outcomes {
                kind: m.name.clone(),
                completed: m.completed,
                failed: m.failed,
                cancelled: 0,
                live: m.pending_approvals,
            })
            .collect();
        html! {
            (chart(charts::outcome_rows("chart-workers", "Runs by worker: completed, failed and waiting for approval", &outcomes)))
            div.scroll role="region" tabindex="0" aria-label="Worker performance" {
                table.figures {
                    caption { "Worker performance" }
                    thead {
                        tr {
                            th scope="col" { "Worker" } th scope="col" { "Started" } th scope="col" { "Completed" } th scope="col" { "Failed" }
                            th scope="col" { "Success" } th scope="col" { "Mean time" } th scope="col" { "Waiting" } th scope="col" { "Tokens" } th scope="col" { "Cost" }
                        }
                    }
                    tbody {
                        @for m in &w.workers {
                            tr data-worker=(m.worker) {
                                th scope="row" { a href={ "/app/workers/" (m.worker) } { (m.name) } }
                                td { (m.started) } td { (m.completed) } td { (m.failed) }
                                td { (m.success_rate.map_or_else(|| "—".to_owned(), percent)) }
                                td { (m.mean_duration_secs.map_or_else(|| "—".to_owned(), |s| format!("{} s", compact(s)))) }
                                td { (m.pending_approvals) } td { (count(m.tokens)) } td { (usd_cents(m.cost_usd)) }
                            }
                        }
                    }
                }
            }
        }
    })
}
