//! What a question asks, by keyword rules over its words and the context it came with (a
//! deal or company the question names shows as a context section). Checked in this order;
//! the first rule that matches decides. Pure and deterministic.

use super::read::Context;
use crate::brain::context::normalize;
use crate::brain::context::section;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// Memory written and workflows run in the last day.
    SinceYesterday,
    /// What did we decide about X: memory search.
    Decision,
    Approvals,
    /// Every worker's status and task.
    Workers,
    /// One worker, by its id.
    Worker(String),
    /// What is new at the company the question names (its card's signals).
    Company,
    /// The deals the question names.
    Deal,
    /// Which accounts to call: open deals ranked, with their companies' signals.
    Accounts,
    /// One stage of the pipeline (its `as_str`).
    Stage(&'static str),
    WinRate,
    Forecast,
    Pipeline,
    /// No rule matched: memory lines sharing words with the question, or, when none does, a
    /// sentence saying the workspace does not hold the answer.
    Memory,
}

const SINCE: &[&str] = &[
    "yesterday",
    "last 24 hours",
    "past 24 hours",
    "last day",
    "past day",
    "today",
    "what changed",
    "whats changed",
    "what has changed",
    "what happened",
    "recent changes",
    "overnight",
];
const DECISION: &[&str] =
    &["decide", "decided", "decision", "decisions", "agree", "agreed", "policy", "we settle", "settled on"];
const APPROVALS: &[&str] = &[
    "approve",
    "approval",
    "approvals",
    "approved",
    "pending",
    "blocked on me",
    "waiting for me",
    "waiting on me",
    "waiting for my",
    "need my",
    "needs my",
    "sign off",
    "my inbox",
    "review",
];
const WORKERS: &[&str] = &["worker", "workers", "agents", "team doing", "everyone doing", "working on", "busy"];
const COMPANY_NEWS: &[&str] = &[
    "news",
    "new at",
    "new with",
    "filing",
    "filings",
    "filed",
    "announced",
    "announcement",
    "latest",
    "recent",
    "signals",
    "going on at",
    "happening at",
];
const ACCOUNTS: &[&str] = &[
    "call",
    "reach out",
    "focus",
    "prioritize",
    "prioritise",
    "priority",
    "priorities",
    "who should",
    "which accounts",
    "work first",
    "this week",
    "follow up",
    "top deals",
    "best deals",
    "hottest",
];
const WIN_RATE: &[&str] = &["win rate", "win ratio", "close rate", "won and lost", "deals won", "won deals"];
const FORECAST: &[&str] =
    &["forecast", "weighted", "expect", "expected", "commit", "projected", "revenue", "quarter", "likely to close"];
const PIPELINE: &[&str] =
    &["pipeline", "funnel", "by stage", "stages", "how many deals", "deal count", "total value", "open deals"];
const STAGES: [(&str, &str); 6] = [
    ("prospecting", "prospecting"),
    ("qualification", "qualification"),
    ("proposal", "proposal"),
    ("negotiation", "negotiation"),
    ("closed won", "closed-won"),
    ("closed lost", "closed-lost"),
];

/// Whether the normalized question holds any of `phrases` as whole words.
fn any(asked: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| asked.contains(&format!(" {p} ")))
}

/// The worker the question names: by name, id or role (before any parenthesis).
fn named_worker(asked: &str, context: &Context) -> Option<String> {
    context.lines(section::WORKERS).iter().find_map(|l| {
        let id = l.cite.strip_prefix("worker:")?;
        let fields = l.fields();
        let (name, role) = (fields.first()?, fields.get(1)?);
        let role = role.split(" (").next().unwrap_or(role);
        [normalize(name), normalize(id), normalize(role)]
            .iter()
            .any(|n| n.trim().len() >= 3 && asked.contains(n.as_str()))
            .then(|| id.to_owned())
    })
}

pub fn classify(question: &str, context: &Context) -> Intent {
    let asked = normalize(question);
    let has = |phrases: &[&str]| any(&asked, phrases);
    let company = context.section(section::COMPANY).is_some();
    if has(SINCE) {
        return Intent::SinceYesterday;
    }
    if has(DECISION) {
        return Intent::Decision;
    }
    if has(APPROVALS) {
        return Intent::Approvals;
    }
    if let Some(id) = named_worker(&asked, context) {
        return Intent::Worker(id);
    }
    if has(WORKERS) {
        return Intent::Workers;
    }
    if company && has(COMPANY_NEWS) {
        return Intent::Company;
    }
    if context.section(section::NAMED_DEALS).is_some() {
        return Intent::Deal;
    }
    if has(ACCOUNTS) {
        return Intent::Accounts;
    }
    if let Some((_, stage)) = STAGES.iter().find(|(words, _)| any(&asked, &[words])) {
        return Intent::Stage(stage);
    }
    if has(WIN_RATE) {
        return Intent::WinRate;
    }
    if has(FORECAST) {
        return Intent::Forecast;
    }
    if has(PIPELINE) {
        return Intent::Pipeline;
    }
    if company {
        return Intent::Company;
    }
    Intent::Memory
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTEXT: &str = "## Workers\n- [worker:support-resolver] Sol · Support resolver · waiting · t\n\
                           - [worker:deal-desk] Dax · Deal desk (pipeline hygiene) · stopped · idle\n";

    fn intent(question: &str) -> Intent {
        classify(question, &Context::parse(CONTEXT))
    }

    #[test]
    fn the_rules_read_the_question_and_the_sections_it_brought() {
        assert_eq!(intent("What is the pipeline status?"), Intent::Pipeline);
        assert_eq!(intent("What's our forecast?"), Intent::Forecast);
        assert_eq!(intent("How many deals are in negotiation?"), Intent::Stage("negotiation"));
        assert_eq!(intent("What needs my approval?"), Intent::Approvals);
        assert_eq!(intent("What did we decide about approvals?"), Intent::Decision, "a decision before approvals");
        assert_eq!(intent("What is Sol doing?"), Intent::Worker("support-resolver".into()));
        assert_eq!(intent("What is the deal desk doing?"), Intent::Worker("deal-desk".into()));
        assert_eq!(intent("Which accounts should I call?"), Intent::Accounts);
        assert_eq!(intent("What changed since yesterday?"), Intent::SinceYesterday);
        assert_eq!(intent("Tell me a joke"), Intent::Memory);
        let named = format!("{CONTEXT}## Deals the question names\n- [deal:d-1] ACME · proposal\n");
        assert_eq!(classify("Where are we with Acme?", &Context::parse(&named)), Intent::Deal);
        let company = format!("{named}## Company: ACME CORP (ACME, acme)\n");
        assert_eq!(classify("What is new at Acme?", &Context::parse(&company)), Intent::Company);
        assert_eq!(classify("Where are we with Acme?", &Context::parse(&company)), Intent::Deal);
    }
}
