//! Prometheus series of the process, kept in one registry (`registry.rs`) and rendered by
//! `GET /metrics`. One function per kind of event, each called from exactly one place: HTTP
//! requests from the accept loop (labelled by route-table pattern, never the raw path),
//! `/v1/enrich` answers, MCP tool calls, scheduler job runs and model calls; the gauges (data
//! file size, RSS, uptime) are set when a scrape renders. Labels only ever carry bounded values:
//! patterns, methods, statuses, tenants, tool and job names, models. This module imports nothing
//! of ours.

mod registry;
mod workflows;

pub use workflows::{set_budget, set_workflows};

use registry::{Family, Kind, Registry};

use std::path::Path;
use std::time::Duration;

pub const HTTP_REQUESTS: &str = "gtms_http_requests_total";
pub const HTTP_DURATION: &str = "gtms_http_request_duration_seconds";
pub const ENRICH_CALLS: &str = "gtms_enrich_calls_total";
pub const TOOL_CALLS: &str = "gtms_mcp_tool_calls_total";
pub const JOB_RUNS: &str = "gtms_job_runs_total";
pub const MODEL_TOKENS: &str = "gtms_model_tokens_total";
pub const MODEL_COST: &str = "gtms_model_cost_usd_micros_total";
pub const DATA_FILE_BYTES: &str = "gtms_data_file_bytes";
pub const RESIDENT_BYTES: &str = "gtms_process_resident_memory_bytes";
pub const UPTIME: &str = "gtms_uptime_seconds";
pub const WORKFLOWS: &str = "gtms_workflows";
pub const BUDGET_LIMIT: &str = "gtms_budget_limit_tokens";
pub const BUDGET_SPENT: &str = "gtms_budget_spent_tokens";

/// Latency buckets in seconds: sub-millisecond file hits up to slow model calls.
const LATENCY_BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Every family the process exports, in the order a scrape lists them.
static FAMILIES: [Family; 13] = [
    Family { name: HTTP_REQUESTS, kind: Kind::Counter, help: "HTTP requests by route pattern, method and status" },
    Family {
        name: HTTP_DURATION,
        kind: Kind::Histogram(&LATENCY_BUCKETS),
        help: "HTTP request latency by route pattern",
    },
    Family { name: ENRICH_CALLS, kind: Kind::Counter, help: "/v1/enrich answers to valid keys, by tenant and outcome" },
    Family { name: TOOL_CALLS, kind: Kind::Counter, help: "MCP tool calls by tool and outcome" },
    Family { name: JOB_RUNS, kind: Kind::Counter, help: "Scheduler job runs by job and outcome" },
    Family {
        name: MODEL_TOKENS,
        kind: Kind::Counter,
        help: "Language-model tokens by model, caller kind and direction",
    },
    Family {
        name: MODEL_COST,
        kind: Kind::Counter,
        help: "Language-model cost in millionths of a USD by model and caller kind",
    },
    Family { name: DATA_FILE_BYTES, kind: Kind::Gauge, help: "Size of the redb data file" },
    Family { name: RESIDENT_BYTES, kind: Kind::Gauge, help: "Resident set size of the process" },
    Family { name: UPTIME, kind: Kind::Gauge, help: "Seconds since the server started" },
    Family { name: WORKFLOWS, kind: Kind::Gauge, help: "Workflows by type and status" },
    Family {
        name: BUDGET_LIMIT,
        kind: Kind::Gauge,
        help: "Token budget by scope, worker and period (day, month); +Inf when there is no limit",
    },
    Family { name: BUDGET_SPENT, kind: Kind::Gauge, help: "Tokens spent by scope, worker and period (day, month)" },
];

/// The process's series.
static REGISTRY: Registry = Registry::new(&FAMILIES);

/// A method label from a bounded set (a client may send any token as a method).
fn method_label(method: &str) -> &'static str {
    match method {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        _ => "other",
    }
}

/// One answered HTTP request; `route` is its route-table pattern (or the unmatched label).
pub fn http_request(route: &'static str, method: &str, status: u16, elapsed: Duration) {
    let method = method_label(method);
    let labels = vec![("route", route.to_owned()), ("method", method.to_owned()), ("status", status.to_string())];
    REGISTRY.add(HTTP_REQUESTS, labels, 1);
    REGISTRY.observe(HTTP_DURATION, vec![("route", route.to_owned())], elapsed.as_secs_f64());
}

/// One `/v1/enrich` answer to a valid key: `outcome` is `ok` or the envelope's error code.
pub fn enrich_call(tenant: &str, outcome: &'static str) {
    REGISTRY.add(ENRICH_CALLS, vec![("tenant", tenant.to_owned()), ("outcome", outcome.to_owned())], 1);
}

/// One call of a registered MCP tool: `ok`, `error` (an `isError` result) or `rate_limited`.
pub fn tool_call(tool: &str, outcome: &'static str) {
    REGISTRY.add(TOOL_CALLS, vec![("tool", tool.to_owned()), ("outcome", outcome.to_owned())], 1);
}

/// One run of a scheduler job.
pub fn job_run(job: &str, ok: bool) {
    let outcome = if ok { "ok" } else { "failed" };
    REGISTRY.add(JOB_RUNS, vec![("job", job.to_owned()), ("outcome", outcome.to_owned())], 1);
}

/// One model call on behalf of `who` (`user:<sub>` for the Brain, a worker id otherwise):
/// labelled by model and by kind (`user` or `worker`), never by the user.
pub fn model_call(model: &str, who: &str, input_tokens: u64, output_tokens: u64, cost_micros: u64) {
    let kind = if who.starts_with("user:") { "user" } else { "worker" };
    let labels = |direction: Option<&str>| {
        let mut labels = vec![("model", model.to_owned()), ("kind", kind.to_owned())];
        labels.extend(direction.map(|d| ("direction", d.to_owned())));
        labels
    };
    REGISTRY.add(MODEL_TOKENS, labels(Some("input")), input_tokens);
    REGISTRY.add(MODEL_TOKENS, labels(Some("output")), output_tokens);
    REGISTRY.add(MODEL_COST, labels(None), cost_micros);
}

/// The resident set size, from `/proc/self/status` (`VmRSS`, in kB).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The exposition text of a scrape: the scrape-time gauges are set first.
pub fn render(data_file: &Path, uptime_secs: u64) -> String {
    if let Ok(meta) = std::fs::metadata(data_file) {
        REGISTRY.set(DATA_FILE_BYTES, Vec::new(), meta.len() as f64);
    }
    if let Some(rss) = resident_bytes() {
        REGISTRY.set(RESIDENT_BYTES, Vec::new(), rss as f64);
    }
    REGISTRY.set(UPTIME, Vec::new(), uptime_secs as f64);
    REGISTRY.render()
}
