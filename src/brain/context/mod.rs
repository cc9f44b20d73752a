//! Context assembly: one pure function from everything the Brain may know to what the model
//! sees — instructions, citable context lines, and the conversation turns. Every context line
//! is a `- ` bullet that starts with its citation: memory as `[scope/key@version]`, company
//! facts as `[<legal name>, <form> filed <date>: <EDGAR URL>]`, the workspace as
//! `[pipeline]`, `[pipeline:<stage>]`, `[deal:<id>]`, `[worker:<id>]`, `[workflow:<id>]` and
//! `[approval:<workflow id>]` (`workspace`, `deals`). Each section keeps to a fixed number of
//! lines whatever the workspace's size. History is the newest that fits its token budget (the
//! thread's summary message, when there is one, always first).

mod deals;
pub mod section;
mod workspace;

pub use deals::{RANKED_DEALS, named, normalize};
pub use workspace::{Approval, Pipeline, RecentWorkflow, WorkerLine, WorkflowStatus, Workspace};

use crate::brain::model::{Speaker, Turn, estimate_tokens};
use crate::companies::card::Card;
use crate::domain::clip;
use crate::store::{ChatRecord, MemoryRecord, SUMMARY_ROLE};

/// How every Brain context starts (the demo model knows a Brain question by it).
pub const PREAMBLE: &str = "You are the Brain of a go-to-market team's workspace.";
const VALUE_CHARS: usize = 400;
const COMPANY_FACTS: usize = 5;

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
    /// Memory written in the last day, newest first.
    pub recent_memory: &'a [MemoryRecord],
    /// The company the question names, when it has a receipted card.
    pub company: Option<&'a Card>,
    /// A deal's company card by slug (for the signals beside the deals shown).
    pub card_of: &'a (dyn Fn(&str) -> Option<&'a Card> + Sync),
    /// The app clock's now (Unix milliseconds): the age of a filing is counted to it.
    pub now_ms: i64,
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

/// A named company's card: its signals (`<kind> · <n> days old · <text>`) and executives.
fn company_lines(out: &mut String, citations: &mut Vec<String>, card: &Card, now_ms: i64) {
    out.push_str(&format!("\n## {} {} ({}, {})\n", section::COMPANY, card.legal_name, card.ticker, card.slug));
    let cite =
        |r: &crate::domain::Receipt| format!("{}, {} filed {}: {}", card.legal_name, r.form(), r.filed(), r.url());
    for claim in card.why_now.iter().take(COMPANY_FACTS) {
        let (r, s) = (claim.receipt(), claim.value());
        let age = deals::age(r.filed(), now_ms);
        let text = format!("{} · {age} · {}", s.kind.as_str(), clip(&s.text, VALUE_CHARS));
        workspace::bullet(out, citations, cite(r), &text);
    }
    for claim in card.executives.iter().take(COMPANY_FACTS) {
        let e = claim.value();
        workspace::bullet(out, citations, cite(claim.receipt()), &format!("executive · {} · {}", e.name, e.title));
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
    let mut system = String::from(PREAMBLE);
    system.push_str(
        " Answer from the context below. Cite what you use: memory entries as scope/key@version, company facts with their EDGAR URL, and the pipeline, \
         deals, workers, workflows and approvals by their bracketed citation. Say so when the context does \
         not hold the answer.\n",
    );
    let mut citations = Vec::new();
    memory_lines(&mut system, &mut citations, "Organisation memory", input.org);
    if let Some((team, records)) = input.team {
        memory_lines(&mut system, &mut citations, &format!("Team memory ({team})"), records);
    }
    memory_lines(&mut system, &mut citations, "Worker memory relevant to the question", input.workers);
    let w = input.workspace;
    if let Some(p) = &w.pipeline {
        workspace::pipeline_lines(&mut system, &mut citations, p);
    }
    deals::deal_lines(&mut system, &mut citations, (&w.named_deals, &w.ranked_deals), input.card_of, input.now_ms);
    workspace::worker_lines(&mut system, &mut citations, &w.workers);
    workspace::workflow_lines(&mut system, &mut citations, w);
    workspace::recent_lines(&mut system, &mut citations, input.recent_memory, &w.recent_workflows);
    if let Some(card) = input.company {
        company_lines(&mut system, &mut citations, card, input.now_ms);
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

    fn no_card<'c>(_: &str) -> Option<&'c Card> {
        None
    }

    fn input<'a>(question: &'a str, history: &'a [ChatRecord], workspace: &'a Workspace) -> ContextInput<'a> {
        ContextInput {
            question,
            history,
            history_budget_tokens: 50,
            org: &[],
            team: None,
            workers: &[],
            workspace,
            recent_memory: &[],
            company: None,
            card_of: &no_card,
            now_ms: 0,
        }
    }

    #[test]
    fn every_source_is_injected_with_its_citation() {
        let org = [memory("org", "icp", "US banks")];
        let team = [memory("team:sales", "playbook", "Lead with ROI")];
        let workers = [memory("worker:sdr", "notes", "Call on Tuesdays")];
        let recent = [memory("org", "decision", "Cap discounts at 15%")];
        let deal: crate::store::DealRecord = serde_json::from_value(serde_json::json!({
            "id": "deal-1", "account_name": "ACME CORP", "company_slug": "acme", "value": 1200, "stage": "proposal",
            "deal_type": "new-business", "rep": "Kim", "champion": "c", "champion_status": "engaged",
            "close_date": "2026-12-01", "probability": 60, "next_step": "Send the quote", "history": []
        }))
        .unwrap();
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
            pipeline: Some(Pipeline {
                view: crate::metrics::PipelineView {
                    total_value: 3_000,
                    open_value: 1_200,
                    weighted_value: 720,
                    deal_count: 3,
                    counts_by_stage: Default::default(),
                    won: 1,
                    lost: 1,
                    win_rate: Some(0.5),
                },
                stages: vec![(crate::domain::Stage::Proposal, 1_200, 1)],
            }),
            named_deals: vec![],
            ranked_deals: vec![deal],
            workers: vec![WorkerLine {
                id: "sdr".into(),
                name: "Sasha".into(),
                role: "SDR".into(),
                status: "running".into(),
                current_task: "lead-qualification wf-1: score".into(),
            }],
            recent_workflows: vec![],
        };
        let input = ContextInput {
            org: &org,
            team: Some(("sales", &team)),
            workers: &workers,
            recent_memory: &recent,
            history_budget_tokens: 1000,
            ..input("Who do we sell to?", &[], &workspace)
        };
        let c = assemble(&input);
        for needle in [
            "- [org/icp@3] icp: US banks",
            "Team memory (sales)",
            "[team:sales/playbook@3]",
            "[worker:sdr/notes@3]",
            "- [pipeline] Pipeline · 3 deals · $3,000 in total · $1,200 open · $720 weighted · 1 won · 1 lost · win \
             rate 50.0%",
            "- [pipeline:proposal] Stage Proposal · 1 deals · $1,200",
            "- [deal:deal-1] ACME CORP · proposal · $1,200 · close 2026-12-01 · 60% · rep Kim · next Send the quote · \
             company acme",
            "- [worker:sdr] Sasha · SDR · running · lead-qualification wf-1: score",
            "- [workflow:wf-1] lead-qualification workflow of worker sdr is running at step score",
            "- [approval:wf-2] content-generation · worker content-writer · since 2026-11-25T10:00:00Z · Draft: a \
             note to Acme",
            "- [org/decision@3] memory · decision · written 1970-01-01T00:00:00.000Z by t · Cap discounts at 15%",
        ] {
            assert!(c.system.contains(needle), "{needle} missing from {}", c.system);
        }
        let expected = [
            "org/icp@3",
            "team:sales/playbook@3",
            "worker:sdr/notes@3",
            "pipeline",
            "pipeline:proposal",
            "deal:deal-1",
            "worker:sdr",
            "workflow:wf-1",
            "approval:wf-2",
            "org/decision@3",
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
        let workspace = Workspace::default();
        let input = input("next?", &history, &workspace);
        let texts: Vec<String> = assemble(&input).turns.into_iter().map(|t| t.text).collect();
        assert_eq!(texts.len(), 4, "{texts:?}");
        assert!(texts[0].contains("we talked about banks"));
        assert_eq!(&texts[1..], ["recent answer", "recent question", "next?"]);
        assert!(assemble(&input).system.contains("(none running)"));
    }
}
