//! The live sections of `/status`, rendered from one `Snapshot`: workers with role and derived
//! status, workflows (counts, the most recent, outcomes by type), pending approvals, scheduler
//! jobs, the pipeline, token spend and the notification outbox. Pure functions of the snapshot;
//! every value is escaped. Each section carries `data-live`, so the page script can swap it for
//! a fresh copy.

use std::fmt::Write;

use super::Snapshot;
use super::charts::{self, Column};
use super::format::{count, escape, percent, usd, usd_cents, when};
use crate::store::OutboxRecord;

/// Most recent workflows listed; notifications listed; days of token spend charted.
pub const RECENT_WORKFLOWS: usize = 10;
pub const RECENT_NOTIFICATIONS: usize = 20;
pub const TOKEN_DAYS: usize = 30;

pub fn all(s: &Snapshot) -> String {
    [workers(s), workflows(s), approvals(s), jobs(s), pipeline(s), tokens(s), outbox(s)].concat()
}

fn section(id: &str, title: &str, wide: bool, body: &str) -> String {
    let class = if wide { " class=\"wide\"" } else { "" };
    format!("  <section id=\"{id}\"{class} data-live>\n    <h2>{title}</h2>\n{body}  </section>\n")
}

fn empty(text: &str) -> String {
    format!("    <p class=\"empty\">{}</p>\n", escape(text))
}

fn pairs(items: &[(&str, String)]) -> String {
    let mut out = String::from("    <dl>\n");
    for (k, v) in items {
        let _ = writeln!(out, "      <dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    out + "    </dl>\n"
}

/// A table of already-escaped row markup (`<tr>…</tr>`), scrolling sideways on narrow screens.
fn table(headers: &[&str], rows: &[String]) -> String {
    let head: String = headers.iter().map(|h| format!("<th>{}</th>", escape(h))).collect();
    format!("    <div class=\"scroll\"><table>\n      <tr>{head}</tr>\n{}    </table></div>\n", rows.concat())
}

fn cell(text: &str) -> String {
    format!("<td>{}</td>", escape(text))
}

fn pill(status: &str) -> String {
    format!("<td><span class=\"pill s-{0}\">{0}</span></td>", escape(status))
}

fn workers(s: &Snapshot) -> String {
    let body = match &s.engine {
        Err(message) => empty(message),
        Ok(e) if e.workers.is_empty() => empty("No AI workers are registered."),
        Ok(e) => {
            let rows: Vec<String> = e
                .workers
                .iter()
                .map(|w| {
                    format!(
                        "      <tr data-worker=\"{id}\" data-status=\"{st}\"><td>{name} <small>{id}</small></td>{}{}{}</tr>\n",
                        cell(&w.role),
                        pill(&w.status),
                        cell(&w.current_task),
                        id = escape(&w.id),
                        st = escape(&w.status),
                        name = escape(&w.name),
                    )
                })
                .collect();
            table(&["Worker", "Role", "Status", "Current task"], &rows)
        }
    };
    section("workers", "Workers", true, &body)
}

fn workflows(s: &Snapshot) -> String {
    let mut body = match &s.engine {
        Err(message) => empty(message),
        Ok(e) => {
            let n = |status: &str| e.workflows.iter().filter(|w| w.status.as_str() == status).count() as u64;
            let mut out = pairs(&[
                ("Running", count(n("running"))),
                ("Waiting for approval", count(n("waiting"))),
                ("Completed", count(n("completed"))),
                ("Failed", count(n("failed"))),
            ]);
            let rows: Vec<String> = e
                .workflows
                .iter()
                .take(RECENT_WORKFLOWS)
                .map(|w| {
                    format!(
                        "      <tr data-workflow=\"{}\">{}{}{}{}{}{}</tr>\n",
                        escape(&w.workflow_id),
                        cell(&w.workflow_id),
                        cell(w.kind.as_str()),
                        cell(&w.worker),
                        pill(w.status.as_str()),
                        cell(w.current_step.as_deref().unwrap_or("—")),
                        cell(&when(&w.updated_at)),
                    )
                })
                .collect();
            if rows.is_empty() {
                out += &empty("No workflow has run since this data file was created.");
            } else {
                out += "    <h3>Most recent</h3>\n";
                out += &table(&["Workflow", "Type", "Worker", "Status", "Current step", "Updated"], &rows);
            }
            out
        }
    };
    body += "    <h3>Outcomes by type</h3>\n    ";
    body += &charts::outcome_rows("chart-outcomes", "Workflow outcomes by type", &s.outcomes);
    body += "\n";
    section("workflows", "Workflows", true, &body)
}

fn approvals(s: &Snapshot) -> String {
    let body = match &s.engine {
        Err(message) => empty(message),
        Ok(e) if e.approvals.is_empty() => empty("No approvals are waiting."),
        Ok(e) => {
            let rows: Vec<String> = e
                .approvals
                .iter()
                .map(|a| {
                    format!(
                        "      <tr data-approval=\"{}\">{}{}{}{}{}{}</tr>\n",
                        escape(&a.workflow_id),
                        cell(&a.workflow_id),
                        cell(&a.worker),
                        cell(a.kind.as_str()),
                        cell(&a.step),
                        cell(&a.summary),
                        cell(&when(&a.requested_at)),
                    )
                })
                .collect();
            let mut out = table(&["Workflow", "Worker", "Type", "Step", "To approve", "Requested"], &rows);
            out += "    <p class=\"hint\">Decide with <code>POST /api/coordinator/approvals/:workflowId</code> or \
                    the <code>approval_decide</code> MCP tool (admin).</p>\n";
            out
        }
    };
    section("approvals", "Approvals", true, &body)
}

fn jobs(s: &Snapshot) -> String {
    let rows: Vec<String> = s
        .jobs
        .iter()
        .map(|j| {
            let (last, outcome) = match &j.last_run {
                Some(r) => (when(&r.started_at), r.outcome.to_owned()),
                None => ("not run yet".to_owned(), "—".to_owned()),
            };
            let next = j.next_run.as_deref().map(when).unwrap_or_else(|| "—".into());
            format!(
                "      <tr data-job=\"{}\">{}{}{}{}{}</tr>\n",
                escape(&j.name),
                cell(&j.name),
                cell(&j.schedule),
                cell(&last),
                cell(&outcome),
                cell(&next)
            )
        })
        .collect();
    let body = if rows.is_empty() {
        empty("No scheduler jobs.")
    } else {
        table(&["Job", "Schedule", "Last run", "Outcome", "Next run"], &rows)
    };
    section("jobs", "Scheduler jobs", true, &body)
}

fn pipeline(s: &Snapshot) -> String {
    let Some(deals) = &s.deals else {
        return section("pipeline", "Pipeline", false, &empty("No deals in the pipeline."));
    };
    let rollup = s.pipeline.as_ref();
    let mut body = pairs(&[
        ("Deals", count(deals.deal_count)),
        ("Total value", usd(deals.total)),
        ("Open value", rollup.map_or_else(|| "—".into(), |p| usd(p.open_value))),
        ("Weighted value", rollup.map_or_else(|| "—".into(), |p| usd(p.weighted_value))),
        ("Win rate", rollup.and_then(|p| p.win_rate).map_or_else(|| "—".into(), percent)),
    ]);
    let b = &deals.by_stage;
    let stages = [
        ("prospecting", &b.prospecting),
        ("qualification", &b.qualification),
        ("proposal", &b.proposal),
        ("negotiation", &b.negotiation),
        ("closed-won", &b.closed_won),
        ("closed-lost", &b.closed_lost),
    ];
    let cols: Vec<Column> = stages
        .iter()
        .map(|(stage, bucket)| Column {
            key: (*stage).to_owned(),
            label: (*stage).to_owned(),
            value: bucket.value as f64,
            exact: format!("{} in {} deals", usd(bucket.value), count(bucket.count)),
        })
        .collect();
    body += "    ";
    body += &charts::columns("chart-pipeline", "Pipeline value by stage (USD)", &cols);
    body += "\n";
    section("pipeline", "Pipeline", false, &body)
}

fn tokens(s: &Snapshot) -> String {
    let Some(t) = &s.tokens else {
        return section("tokens", "Token spend", false, &empty("No language-model tokens have been used."));
    };
    let mut body = pairs(&[
        ("Input tokens", count(t.input_tokens)),
        ("Output tokens", count(t.output_tokens)),
        ("Cost", usd_cents(t.cost_usd)),
    ]);
    let days = &t.by_day[t.by_day.len().saturating_sub(TOKEN_DAYS)..];
    if days.is_empty() {
        body += &empty("No token use by day yet.");
    } else {
        let cols: Vec<Column> = days
            .iter()
            .map(|d| Column {
                key: d.date.clone(),
                label: d.date.clone(),
                value: d.usage.cost_usd,
                exact: format!(
                    "{} ({} tokens)",
                    usd_cents(d.usage.cost_usd),
                    count(d.usage.input_tokens + d.usage.output_tokens)
                ),
            })
            .collect();
        let title = format!("Token spend by day (USD, last {} days)", days.len());
        body += "    ";
        body += &charts::columns("chart-tokens", &title, &cols);
        body += "\n";
    }
    section("tokens", "Token spend", false, &body)
}

fn delivery(n: &OutboxRecord, webhook: bool) -> String {
    match (n.delivered_ms, &n.last_error) {
        (Some(ms), _) => format!("delivered {}", when(&crate::domain::rfc3339_ms(ms))),
        (None, Some(e)) => format!("retrying — {e}"),
        (None, None) if webhook => "queued".into(),
        (None, None) => "kept in the outbox".into(),
    }
}

fn outbox(s: &Snapshot) -> String {
    let mut body = if s.webhook {
        "    <p class=\"note\">Delivered to the team-chat webhook; failed deliveries are retried.</p>\n".to_owned()
    } else {
        "    <p class=\"note\" id=\"no-webhook\">No webhook configured — kept in the outbox.</p>\n".to_owned()
    };
    let rows: Vec<String> = s
        .outbox
        .iter()
        .take(RECENT_NOTIFICATIONS)
        .map(|n| {
            let state = if n.delivered_ms.is_some() { "delivered" } else { "pending" };
            format!(
                "      <tr data-event=\"{}\" data-delivery=\"{state}\">{}{}{}{}</tr>\n",
                escape(&n.event),
                cell(&n.event),
                cell(&n.text),
                cell(&delivery(n, s.webhook)),
                cell(&n.attempts.to_string()),
            )
        })
        .collect();
    body += &if rows.is_empty() {
        empty("No notifications yet.")
    } else {
        table(&["Event", "Text", "Delivery", "Attempts"], &rows)
    };
    section("outbox", "Notifications", true, &body)
}
