//! The workspace beyond memory as the Brain sees it, and its context lines: the pipeline,
//! the workers, live workflows, what waits for approval, and what changed in the last day.
//! Every line is a `- [citation] …` bullet; fields after the citation are separated by ` · `
//! where a reader (the demo model) needs them one by one.

use super::section;
use crate::domain::{Stage, clip, grouped, usd};
use crate::metrics::PipelineView;
use crate::store::{DealRecord, MemoryRecord};

const SUMMARY_CHARS: usize = 400;
const TASK_CHARS: usize = 160;
/// Workflows of the last day shown (newest first).
const RECENT_WORKFLOWS: usize = 12;

/// A running workflow as the Brain sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowStatus {
    pub workflow_id: String,
    pub workflow_type: String,
    pub worker: String,
    pub status: String,
    pub current_step: Option<String>,
}

/// The pipeline as the Brain sees it: the rollup's figures (`metrics::PipelineView`, from the
/// deal index's tallies) and (stage, value, count) in pipeline order.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    pub view: PipelineView,
    pub stages: Vec<(Stage, u64, u64)>,
}

/// A decision a person is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    pub workflow_id: String,
    pub kind: String,
    pub worker: String,
    pub requested_at: String,
    pub summary: String,
}

/// A worker with the spec's status (`running`, `waiting`, `stopped`) and its current task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerLine {
    pub id: String,
    pub name: String,
    pub role: String,
    pub status: String,
    pub current_task: String,
}

/// A workflow started or updated in the last day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentWorkflow {
    pub workflow_id: String,
    pub workflow_type: String,
    pub worker: String,
    pub status: String,
    pub started_at: String,
    pub updated_at: String,
}

/// The workspace beyond memory, read for each question (`AppState::brain_workspace`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Workspace {
    pub workflows: Vec<WorkflowStatus>,
    pub approvals: Vec<Approval>,
    pub pipeline: Option<Pipeline>,
    /// The deals the question names (`deals::named`), any stage.
    pub named_deals: Vec<DealRecord>,
    /// The best open deals (`RANKED_DEALS` of them, best first).
    pub ranked_deals: Vec<DealRecord>,
    pub workers: Vec<WorkerLine>,
    /// Workflows started or updated in the last day, newest first.
    pub recent_workflows: Vec<RecentWorkflow>,
}

/// Appends a `- [cite] text` bullet and records the citation.
pub(super) fn bullet(out: &mut String, citations: &mut Vec<String>, cite: String, text: &str) {
    out.push_str(&format!("- [{cite}] {text}\n"));
    citations.push(cite);
}

fn one_line(text: &str, max: usize) -> String {
    clip(&text.replace('\n', " "), max)
}

pub(super) fn pipeline_lines(out: &mut String, citations: &mut Vec<String>, p: &Pipeline) {
    out.push_str(&format!("\n## {}\n", section::PIPELINE));
    let v = &p.view;
    let win_rate = v.win_rate.map_or_else(|| "none closed yet".to_owned(), |r| format!("{:.1}%", r * 100.0));
    let text = format!(
        "Pipeline · {} deals · {} in total · {} open · {} weighted · {} won · {} lost · win rate {win_rate}",
        grouped(v.deal_count),
        usd(v.total_value),
        usd(v.open_value),
        usd(v.weighted_value),
        grouped(v.won),
        grouped(v.lost),
    );
    bullet(out, citations, "pipeline".into(), &text);
    for (stage, value, count) in &p.stages {
        let text = format!("Stage {} · {} deals · {}", stage.label(), grouped(*count), usd(*value));
        bullet(out, citations, format!("pipeline:{}", stage.as_str()), &text);
    }
}

pub(super) fn worker_lines(out: &mut String, citations: &mut Vec<String>, workers: &[WorkerLine]) {
    out.push_str(&format!("\n## {}\n", section::WORKERS));
    for w in workers {
        let text = format!("{} · {} · {} · {}", w.name, w.role, w.status, one_line(&w.current_task, TASK_CHARS));
        bullet(out, citations, format!("worker:{}", w.id), &text);
    }
}

pub(super) fn workflow_lines(out: &mut String, citations: &mut Vec<String>, w: &Workspace) {
    out.push_str(&format!("\n## {}\n", section::ACTIVE));
    if w.workflows.is_empty() {
        out.push_str("(none running)\n");
    }
    for f in &w.workflows {
        let step = f.current_step.as_deref().unwrap_or("-");
        let text = format!("{} workflow of worker {} is {} at step {step}", f.workflow_type, f.worker, f.status);
        bullet(out, citations, format!("workflow:{}", f.workflow_id), &text);
    }
    out.push_str(&format!("\n## {}\n", section::WAITING));
    if w.approvals.is_empty() {
        out.push_str("(nothing is waiting for approval)\n");
    }
    for a in &w.approvals {
        let text = format!(
            "{} · worker {} · since {} · {}",
            a.kind,
            a.worker,
            a.requested_at,
            one_line(&a.summary, SUMMARY_CHARS)
        );
        bullet(out, citations, format!("approval:{}", a.workflow_id), &text);
    }
}

/// Memory written and workflows started or updated in the last day.
pub(super) fn recent_lines(
    out: &mut String,
    citations: &mut Vec<String>,
    memory: &[MemoryRecord],
    workflows: &[RecentWorkflow],
) {
    out.push_str(&format!("\n## {} (the last 24 hours)\n", section::SINCE_YESTERDAY));
    if memory.is_empty() && workflows.is_empty() {
        out.push_str("(nothing was written or run)\n");
    }
    for r in memory {
        let text = format!(
            "memory · {} · written {} by {} · {}",
            r.key,
            crate::domain::rfc3339_ms(r.updated_at),
            r.author,
            one_line(&r.value, SUMMARY_CHARS / 2)
        );
        bullet(out, citations, super::memory_citation(r), &text);
    }
    for w in workflows.iter().take(RECENT_WORKFLOWS) {
        let text = format!(
            "workflow · {} · worker {} · {} · started {} · last change {}",
            w.workflow_type, w.worker, w.status, w.started_at, w.updated_at
        );
        bullet(out, citations, format!("workflow:{}", w.workflow_id), &text);
    }
}
