//! Prometheus series of the process, through the `metrics` facade and its Prometheus recorder
//! (rendered by `GET /metrics`; the exporter's own HTTP listener is not built). One function
//! per kind of event, each called from exactly one place: HTTP requests from the accept loop
//! (labelled by route-table pattern, never the raw path), `/v1/enrich` answers, MCP tool
//! calls, scheduler job runs and model calls; the gauges (data file size, RSS, uptime) are set
//! when a scrape renders. Labels only ever carry bounded values: patterns, methods, statuses,
//! tenants, tool and job names, models. This module imports nothing of ours.

mod workflows;

pub use workflows::set_workflows;

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

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

/// Latency buckets in seconds: sub-millisecond file hits up to slow model calls.
const LATENCY_BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's recorder, installed on first use. When another recorder already holds the
/// global slot (a test harness), a detached one answers, so scrapes still render.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = || {
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), &LATENCY_BUCKETS)
                .unwrap_or_else(|_| PrometheusBuilder::new())
        };
        let handle = builder().install_recorder().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "a metrics recorder was already installed; /metrics shows only its gauges");
            builder().build_recorder().handle()
        });
        describe();
        handle
    })
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(HTTP_REQUESTS, "HTTP requests by route pattern, method and status");
    describe_histogram!(HTTP_DURATION, Unit::Seconds, "HTTP request latency by route pattern");
    describe_counter!(ENRICH_CALLS, "/v1/enrich answers to valid keys, by tenant and outcome");
    describe_counter!(TOOL_CALLS, "MCP tool calls by tool and outcome");
    describe_counter!(JOB_RUNS, "Scheduler job runs by job and outcome");
    describe_counter!(MODEL_TOKENS, "Language-model tokens by model, caller kind and direction");
    describe_counter!(MODEL_COST, "Language-model cost in millionths of a USD by model and caller kind");
    describe_gauge!(DATA_FILE_BYTES, Unit::Bytes, "Size of the redb data file");
    describe_gauge!(RESIDENT_BYTES, Unit::Bytes, "Resident set size of the process");
    describe_gauge!(UPTIME, Unit::Seconds, "Seconds since the server started");
    describe_gauge!(WORKFLOWS, "Workflows by type and status");
}

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
    metrics::counter!(HTTP_REQUESTS, "route" => route, "method" => method, "status" => status.to_string()).increment(1);
    metrics::histogram!(HTTP_DURATION, "route" => route).record(elapsed.as_secs_f64());
}

/// One `/v1/enrich` answer to a valid key: `outcome` is `ok` or the envelope's error code.
pub fn enrich_call(tenant: &str, outcome: &'static str) {
    metrics::counter!(ENRICH_CALLS, "tenant" => tenant.to_owned(), "outcome" => outcome).increment(1);
}

/// One call of a registered MCP tool: `ok`, `error` (an `isError` result) or `rate_limited`.
pub fn tool_call(tool: &str, outcome: &'static str) {
    metrics::counter!(TOOL_CALLS, "tool" => tool.to_owned(), "outcome" => outcome).increment(1);
}

/// One run of a scheduler job.
pub fn job_run(job: &str, ok: bool) {
    let outcome = if ok { "ok" } else { "failed" };
    metrics::counter!(JOB_RUNS, "job" => job.to_owned(), "outcome" => outcome).increment(1);
}

/// One model call on behalf of `who` (`user:<sub>` for the Brain, a worker id otherwise):
/// labelled by model and by kind (`user` or `worker`), never by the user.
pub fn model_call(model: &str, who: &str, input_tokens: u64, output_tokens: u64, cost_micros: u64) {
    let kind = if who.starts_with("user:") { "user" } else { "worker" };
    let model = model.to_owned();
    metrics::counter!(MODEL_TOKENS, "model" => model.clone(), "kind" => kind, "direction" => "input")
        .increment(input_tokens);
    metrics::counter!(MODEL_TOKENS, "model" => model.clone(), "kind" => kind, "direction" => "output")
        .increment(output_tokens);
    metrics::counter!(MODEL_COST, "model" => model, "kind" => kind).increment(cost_micros);
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
    let handle = handle();
    if let Ok(meta) = std::fs::metadata(data_file) {
        metrics::gauge!(DATA_FILE_BYTES).set(meta.len() as f64);
    }
    if let Some(rss) = resident_bytes() {
        metrics::gauge!(RESIDENT_BYTES).set(rss as f64);
    }
    metrics::gauge!(UPTIME).set(uptime_secs as f64);
    handle.render()
}

/// Drains recorded histogram samples into their buckets every few seconds until `stop`, so
/// memory stays bounded between scrapes.
pub async fn upkeep(stop: tokio_util::sync::CancellationToken) {
    let handle = handle();
    let mut tick = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            _ = tick.tick() => handle.run_upkeep(),
            _ = stop.cancelled() => return,
        }
    }
}
