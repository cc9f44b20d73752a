//! Context assembly: one pure function from everything the Brain may know to what the model
//! sees — instructions, citable context lines, and the conversation turns. Every context line
//! is a `- ` bullet that starts with its citation: memory as `[scope/key@version]`, company
//! facts as `[<legal name>, <form> filed <date>: <EDGAR URL>]`, the workspace as
//! `[workflow:<id>]`, `[approval:<workflow id>]`, `[pipeline]` and `[pipeline:<stage>]`. History is the newest that
//! fits its token budget (the thread's summary message, when there is one, always first).

use crate::brain::demo::clip;
use crate::brain::model::{Speaker, Turn, estimate_tokens};
use crate::companies::card::Card;
use crate::store::{ChatRecord, MemoryRecord, SUMMARY_ROLE};

const VALUE_CHARS: usize = 400;
const COMPANY_FACTS: usize = 5;

/// A running workflow as the Brain sees it (the workflow engine fills this when it lands).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowStatus {
    pub workflow_id: String,
    pub workflow_type: String,
    pub worker: String,
    pub status: String,
    pub current_step: Option<String>,
}

/// The pipeline as the Brain sees it: the total, then (stage, value, count) in pipeline order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub total: u64,
    pub deal_count: u64,
    pub stages: Vec<(&'static str, u64, u64)>,
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

/// The workspace beyond memory, read for each question (`AppState::brain_workspace`): live
/// workflows, what waits for approval, and the pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Workspace {
    pub workflows: Vec<WorkflowStatus>,
    pub approvals: Vec<Approval>,
    pub pipeline: Option<Pipeline>,
}

pub struct ContextInput<'a> {
    pub question: &'a str,
    /// The user's thread, oldest first (before this question).
    pub history: &'a [ChatRecord],
    pub history_budget_tokens: u64,
    pub org: &'a [MemoryRecord],
    /// The user's team id and its memory.
    pub team: Option<(&'a str, &'a [MemoryRecord])>,
    /// Worker memories relevant to the question (search hits), best first.
    pub workers: &'a [MemoryRecord],
    pub workspace: &'a Workspace,
    /// The company the question names, when it has a receipted card.
    pub company: Option<&'a Card>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    pub system: String,
    pub turns: Vec<Turn>,
    /// Every citation the context offers, in order.
    pub citations: Vec<String>,
}

pub fn memory_citation(r: &MemoryRecord) -> String {
    format!("{}/{}@{}", r.scope, r.key, r.version)
}

fn memory_lines(out: &mut String, citations: &mut Vec<String>, title: &str, records: &[MemoryRecord]) {
    out.push_str(&format!("\n## {title}\n"));
    if records.is_empty() {
        out.push_str("(none)\n");
    }
    for r in records {
        let cite = memory_citation(r);
        out.push_str(&format!("- [{cite}] {}: {}\n", r.key, clip(&r.value.replace('\n', " "), VALUE_CHARS)));
        citations.push(cite);
    }
}

fn workspace_lines(out: &mut String, citations: &mut Vec<String>, w: &Workspace) {
    let mut line = |out: &mut String, cite: String, text: String| {
        out.push_str(&format!("- [{cite}] {text}\n"));
        citations.push(cite);
    };
    out.push_str("\n## Active workflows\n");
    if w.workflows.is_empty() {
        out.push_str("(none running)\n");
    }
    for f in &w.workflows {
        let step = f.current_step.as_deref().unwrap_or("-");
        let text = format!("{} workflow of worker {} is {} at step {step}", f.workflow_type, f.worker, f.status);
        line(out, format!("workflow:{}", f.workflow_id), text);
    }
    out.push_str("\n## Waiting for approval\n");
    if w.approvals.is_empty() {
        out.push_str("(nothing is waiting for approval)\n");
    }
    for a in &w.approvals {
        let summary = clip(&a.summary.replace('\n', " "), VALUE_CHARS);
        let text =
            format!("{} of worker {} waiting for approval since {}: {summary}", a.kind, a.worker, a.requested_at);
        line(out, format!("approval:{}", a.workflow_id), text);
    }
    if let Some(p) = &w.pipeline {
        out.push_str("\n## Pipeline\n");
        line(out, "pipeline".into(), format!("Pipeline status: {} deals worth ${} in total", p.deal_count, p.total));
        for (stage, value, count) in &p.stages {
            line(out, format!("pipeline:{stage}"), format!("Pipeline stage {stage}: {count} deals worth ${value}"));
        }
    }
}

fn company_lines(out: &mut String, citations: &mut Vec<String>, card: &Card) {
    out.push_str(&format!("\n## Company: {} ({}, {})\n", card.legal_name, card.ticker, card.slug));
    for claim in card.why_now.iter().take(COMPANY_FACTS) {
        let r = claim.receipt();
        let cite = format!("{}, {} filed {}: {}", card.legal_name, r.form(), r.filed(), r.url());
        out.push_str(&format!("- [{cite}] {} {}\n", card.legal_name, clip(&claim.value().text, VALUE_CHARS)));
        citations.push(cite);
    }
    for claim in card.executives.iter().take(COMPANY_FACTS) {
        let r = claim.receipt();
        let e = claim.value();
        let cite = format!("{}, {} filed {}: {}", card.legal_name, r.form(), r.filed(), r.url());
        out.push_str(&format!("- [{cite}] {} executive: {}, {}\n", card.legal_name, e.name, e.title));
        citations.push(cite);
    }
}

/// The newest messages within `budget` tokens, oldest first; a summary message is kept first.
fn history_turns(history: &[ChatRecord], budget: u64) -> Vec<Turn> {
    let mut picked = Vec::new();
    let mut used = 0;
    for m in history.iter().rev().filter(|m| m.role != SUMMARY_ROLE) {
        used += estimate_tokens(&m.content);
        if used > budget {
            break;
        }
        let speaker = if m.role == "assistant" { Speaker::Assistant } else { Speaker::User };
        picked.push(Turn { speaker, text: m.content.clone() });
    }
    picked.reverse();
    if let Some(summary) = history.first().filter(|m| m.role == SUMMARY_ROLE) {
        let text =
            format!("(Summary of our earlier conversation)\n{}", clip(&summary.content, (budget as usize).max(400)));
        picked.insert(0, Turn { speaker: Speaker::User, text });
    }
    picked
}

pub fn assemble(input: &ContextInput) -> Context {
    let mut system = String::from(
        "You are the Brain of a go-to-market team's workspace. Answer from the context below. Cite what you \
         use: memory entries as scope/key@version, company facts with their EDGAR URL, workflows, approvals \
         and the pipeline by their bracketed citation. Say so when the context does not hold the answer.\n",
    );
    let mut citations = Vec::new();
    memory_lines(&mut system, &mut citations, "Organisation memory", input.org);
    if let Some((team, records)) = input.team {
        memory_lines(&mut system, &mut citations, &format!("Team memory ({team})"), records);
    }
    memory_lines(&mut system, &mut citations, "Worker memory relevant to the question", input.workers);
    workspace_lines(&mut system, &mut citations, input.workspace);
    if let Some(card) = input.company {
        company_lines(&mut system, &mut citations, card);
    }
    let mut turns = history_turns(input.history, input.history_budget_tokens);
    turns.push(Turn { speaker: Speaker::User, text: input.question.to_owned() });
    Context { system, turns, citations }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(scope: &str, key: &str, value: &str) -> MemoryRecord {
        MemoryRecord {
            scope: scope.into(),
            key: key.into(),
            value: value.into(),
            pinned: false,
            tags: vec![],
            version: 3,
            created_at: 0,
            updated_at: 0,
            author: "t".into(),
        }
    }

    fn message(role: &str, content: &str) -> ChatRecord {
        ChatRecord { role: role.into(), content: content.into(), at_ms: 0, unanswered: false, tokens_used: 0 }
    }

    #[test]
    fn every_source_is_injected_with_its_citation() {
        let org = [memory("org", "icp", "US banks")];
        let team = [memory("team:sales", "playbook", "Lead with ROI")];
        let workers = [memory("worker:sdr", "notes", "Call on Tuesdays")];
        let workspace = Workspace {
            workflows: vec![WorkflowStatus {
                workflow_id: "wf-1".into(),
                workflow_type: "lead-qualification".into(),
                worker: "sdr".into(),
                status: "running".into(),
                current_step: Some("score".into()),
            }],
            approvals: vec![Approval {
                workflow_id: "wf-2".into(),
                kind: "content-generation".into(),
                worker: "content-writer".into(),
                requested_at: "2026-11-25T10:00:00Z".into(),
                summary: "Draft: a note to\nAcme".into(),
            }],
            pipeline: Some(Pipeline { total: 300, deal_count: 2, stages: vec![("proposal", 300, 2)] }),
        };
        let input = ContextInput {
            question: "Who do we sell to?",
            history: &[],
            history_budget_tokens: 1000,
            org: &org,
            team: Some(("sales", &team)),
            workers: &workers,
            workspace: &workspace,
            company: None,
        };
        let c = assemble(&input);
        for needle in [
            "- [org/icp@3] icp: US banks",
            "Team memory (sales)",
            "[team:sales/playbook@3]",
            "[worker:sdr/notes@3]",
            "- [workflow:wf-1] lead-qualification workflow of worker sdr is running at step score",
            "- [approval:wf-2] content-generation of worker content-writer waiting for approval since \
             2026-11-25T10:00:00Z: Draft: a note to Acme",
            "- [pipeline] Pipeline status: 2 deals worth $300 in total",
            "- [pipeline:proposal] Pipeline stage proposal: 2 deals worth $300",
        ] {
            assert!(c.system.contains(needle), "{needle} missing from {}", c.system);
        }
        let expected = [
            "org/icp@3",
            "team:sales/playbook@3",
            "worker:sdr/notes@3",
            "workflow:wf-1",
            "approval:wf-2",
            "pipeline",
            "pipeline:proposal",
        ];
        assert_eq!(c.citations, expected);
        assert_eq!(c.turns.len(), 1);
        assert_eq!(c, assemble(&input), "pure: same input, same context");
    }

    #[test]
    fn history_is_the_newest_within_budget_after_the_summary() {
        let history = [
            message(SUMMARY_ROLE, "we talked about banks"),
            message("user", &"old ".repeat(400)),
            message("assistant", "recent answer"),
            message("user", "recent question"),
        ];
        let input = ContextInput {
            question: "next?",
            history: &history,
            history_budget_tokens: 50,
            org: &[],
            team: None,
            workers: &[],
            workspace: &Workspace::default(),
            company: None,
        };
        let texts: Vec<String> = assemble(&input).turns.into_iter().map(|t| t.text).collect();
        assert_eq!(texts.len(), 4, "{texts:?}");
        assert!(texts[0].contains("we talked about banks"));
        assert_eq!(&texts[1..], ["recent answer", "recent question", "next?"]);
        assert!(assemble(&input).system.contains("(none running)"));
    }
}
