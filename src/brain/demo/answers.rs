//! The demo model's answers, one writer per intent: readable Markdown made only of what the
//! context holds, each fact on a line that ends with its citation (`[deal:<id>]`,
//! `[pipeline]`, `[approval:<id>]`, `[worker:<id>]`, `[workflow:<id>]`, `[scope/key@version]`,
//! or a company fact's filing as a link).

use std::collections::HashSet;

use super::intents::Intent;
use super::read::{Context, Line};
use crate::brain::context::section;
use crate::domain::search_words;

/// A signal older than this (by its filing) is not offered as a reason to call now.
const FRESH_DAYS: u64 = 365;
/// Deals listed by "which accounts should I call".
const ACCOUNTS_SHOWN: usize = 5;
/// Memory lines quoted for a decision or memory question.
const MEMORY_SHOWN: usize = 5;
/// Words of a question that say what kind of question it is, not what it is about.
const QUESTION_WORDS: &[&str] = &[
    "what",
    "did",
    "does",
    "the",
    "our",
    "about",
    "decide",
    "decided",
    "decision",
    "decisions",
    "agree",
    "agreed",
    "policy",
    "how",
    "who",
    "which",
    "when",
    "where",
    "why",
    "tell",
    "know",
    "have",
    "has",
    "are",
    "was",
    "were",
    "for",
    "and",
    "with",
    "you",
    "can",
    "anything",
    "there",
    "any",
    "that",
    "this",
    "please",
    "give",
    "show",
];

/// The one sentence for a question nothing in the workspace answers, with two it can.
pub const CANNOT_GROUND: &str = "I can't answer that from this workspace: it holds the pipeline and its deals, \
                                 approvals, the workers and their workflows, team memory and the filings of the \
                                 companies it tracks, and none of them speaks to this question.";
const SUGGESTIONS: [&str; 2] = ["Which accounts should I call this week and why?", "What is waiting for my approval?"];

pub fn write(intent: &Intent, question: &str, c: &Context) -> String {
    match intent {
        Intent::SinceYesterday => since_yesterday(c),
        Intent::Decision | Intent::Memory => memory(question, c, matches!(intent, Intent::Decision)),
        Intent::Approvals => approvals(c),
        Intent::Workers => workers(c, None),
        Intent::Worker(id) => workers(c, Some(id)),
        Intent::Company => company(c),
        Intent::Deal => deals(c),
        Intent::Accounts => accounts(c),
        Intent::Stage(stage) => stage_answer(c, stage),
        Intent::WinRate => win_rate(c),
        Intent::Forecast => forecast(c),
        Intent::Pipeline => pipeline(c),
    }
}

fn cannot_ground() -> String {
    format!("{CANNOT_GROUND} Try asking:\n- \"{}\"\n- \"{}\"", SUGGESTIONS[0], SUGGESTIONS[1])
}

/// `- text [cite]`.
fn item(text: &str, cite: &str) -> String {
    format!("- {text} [{cite}]\n")
}

fn field<'a>(fields: &[&'a str], i: usize) -> &'a str {
    fields.get(i).copied().unwrap_or("")
}

/// The fields from `i` on, as written (the last field of a line may hold ` · ` itself).
fn rest(fields: &[&str], i: usize) -> String {
    fields.get(i..).unwrap_or_default().join(" · ")
}

/// The `[pipeline]` line's fields: Pipeline, deals, total, open, weighted, won, lost, win rate.
fn pipeline_figures<'a>(c: &Context<'a>) -> Option<Vec<&'a str>> {
    c.line("pipeline").map(Line::fields)
}

/// One `- <deal sentence> [deal:<id>]` item per line.
fn deal_items(out: &mut String, deals: &[&Line]) {
    for l in deals {
        out.push_str(&item(&deal_sentence(l), l.cite));
    }
}

fn pipeline(c: &Context) -> String {
    let Some(f) = pipeline_figures(c) else { return cannot_ground() };
    let mut out = format!(
        "**Pipeline:** {} worth {} — {} open, {} weighted by each deal's probability [pipeline]\n\nBy stage:\n",
        field(&f, 1),
        field(&f, 2).trim_end_matches(" in total"),
        field(&f, 3).trim_end_matches(" open"),
        field(&f, 4).trim_end_matches(" weighted"),
    );
    for l in c.cited("pipeline:") {
        let s = l.fields();
        out.push_str(&item(
            &format!("{}: {}, {}", field(&s, 0).trim_start_matches("Stage "), field(&s, 1), field(&s, 2)),
            l.cite,
        ));
    }
    out
}

fn forecast(c: &Context) -> String {
    let Some(f) = pipeline_figures(c) else { return cannot_ground() };
    let mut out = format!(
        "**Forecast:** {} is open; weighted by each deal's probability, {} is expected to close [pipeline]\n\n\
         Closed so far: {} and {} ({}) [pipeline]\n",
        field(&f, 3).trim_end_matches(" open"),
        field(&f, 4).trim_end_matches(" weighted"),
        field(&f, 5),
        field(&f, 6),
        field(&f, 7),
    );
    let next: Vec<&Line> = c.lines(section::OPEN_DEALS).iter().take(3).collect();
    if !next.is_empty() {
        out.push_str("\nThe open deals furthest along:\n");
        deal_items(&mut out, &next);
    }
    out
}

fn win_rate(c: &Context) -> String {
    let Some(f) = pipeline_figures(c) else { return cannot_ground() };
    format!(
        "**Win rate:** {} — {} and {} by count [pipeline]\n",
        field(&f, 7).trim_start_matches("win rate "),
        field(&f, 5),
        field(&f, 6)
    )
}

fn stage_answer(c: &Context, stage: &str) -> String {
    let cite = format!("pipeline:{stage}");
    let Some(line) = c.line(&cite) else { return cannot_ground() };
    let f = line.fields();
    let mut out = format!(
        "**{}:** {} worth {} [{cite}]\n",
        field(&f, 0).trim_start_matches("Stage "),
        field(&f, 1),
        field(&f, 2)
    );
    let in_stage: Vec<&Line> = c.lines(section::OPEN_DEALS).iter().filter(|l| field(&l.fields(), 1) == stage).collect();
    if !in_stage.is_empty() {
        out.push_str("\nThe ones to work first:\n");
        deal_items(&mut out, &in_stage);
    }
    out
}

/// `**ACCOUNT** — stage, $value, closes <date> (<p>% likely); next: <step> (rep <rep>)`.
fn deal_sentence(l: &Line) -> String {
    let f = l.fields();
    format!(
        "**{}** — {}, {}, closes {} ({} likely); next: {} (rep {})",
        field(&f, 0),
        field(&f, 1),
        field(&f, 2),
        l.field("close").unwrap_or("?"),
        field(&f, 4),
        l.field("next").unwrap_or("-"),
        l.field("rep").unwrap_or("-"),
    )
}

/// The signals of `deal`'s company, one `  - Why now: …` line each.
fn signals_of(c: &Context, deal: &str) -> String {
    let mut out = String::new();
    for l in c.lines(section::SIGNALS) {
        let f = l.fields();
        if field(&f, 0).strip_prefix("deal:") != Some(deal) {
            continue;
        }
        let link = l.filing_link().unwrap_or_else(|| l.cite.to_owned());
        let days = field(&f, 1).split(' ').next().and_then(|n| n.parse::<u64>().ok());
        let label = if days.is_some_and(|d| d <= FRESH_DAYS) { "Why now" } else { "From an older filing" };
        out.push_str(&format!("  - {label}: {} — {link}, {}\n", rest(&f, 2), field(&f, 1)));
    }
    out
}

fn accounts(c: &Context) -> String {
    let ranked = c.lines(section::OPEN_DEALS);
    if ranked.is_empty() {
        return "There are no open deals in the pipeline, so there is no account to call.\n".into();
    }
    let mut out = String::from(
        "**Accounts to call first** — open deals ranked by stage (furthest along first), then the nearest close \
         date, then value:\n\n",
    );
    for (i, l) in ranked.iter().take(ACCOUNTS_SHOWN).enumerate() {
        out.push_str(&format!("{}. {} [{}]\n", i + 1, deal_sentence(l), l.cite));
        out.push_str(&signals_of(c, l.cite.trim_start_matches("deal:")));
    }
    out
}

fn deals(c: &Context) -> String {
    let mut out = String::new();
    for l in c.lines(section::NAMED_DEALS) {
        out.push_str(&format!("{} [{}]\n", deal_sentence(l), l.cite));
        let signals = signals_of(c, l.cite.trim_start_matches("deal:"));
        if signals.is_empty() {
            out.push_str("  - No receipted company signal for this account.\n");
        }
        out.push_str(&signals);
    }
    out
}

fn company(c: &Context) -> String {
    let Some(facts) = c.section(section::COMPANY) else { return cannot_ground() };
    let name = facts.title.trim_start_matches(section::COMPANY).trim_start();
    let mut out = format!("**What is new at {name}**, from its own filings (each with its filing and age):\n\n");
    let (mut signals, mut executives) = (String::new(), String::new());
    for l in &facts.lines {
        let f = l.fields();
        let link = l.filing_link().unwrap_or_else(|| l.cite.to_owned());
        if field(&f, 0) == "executive" {
            executives.push_str(&format!("- {}, {} — {link}\n", field(&f, 1), rest(&f, 2)));
        } else {
            signals.push_str(&format!("- **{}**: {} — {link}, {}\n", field(&f, 0), rest(&f, 2), field(&f, 1)));
        }
    }
    if signals.is_empty() {
        out.push_str("Its card holds no receipted signal.\n");
    }
    out.push_str(&signals);
    if !executives.is_empty() {
        out.push_str("\nExecutives named in its filings:\n");
        out.push_str(&executives);
    }
    out
}

fn approvals(c: &Context) -> String {
    let waiting = c.lines(section::WAITING);
    if waiting.is_empty() {
        return "Nothing is waiting for approval right now.\n".into();
    }
    let mut out = format!("**Waiting for a decision ({}):**\n\n", waiting.len());
    for l in waiting {
        let f = l.fields();
        let text = format!("**{}** from {}, {}: {}", field(&f, 0), field(&f, 1), field(&f, 2), rest(&f, 3));
        out.push_str(&item(&text, l.cite));
    }
    out.push_str("\nDecide them in the approvals inbox (`/app/approvals`).\n");
    out
}

fn workers(c: &Context, only: Option<&str>) -> String {
    let shown: Vec<&Line> = c
        .lines(section::WORKERS)
        .iter()
        .filter(|l| only.is_none_or(|id| l.cite.strip_prefix("worker:") == Some(id)))
        .collect();
    if shown.is_empty() {
        return cannot_ground();
    }
    let mut out = String::from(if only.is_some() { "" } else { "**The team right now:**\n\n" });
    for l in &shown {
        let f = l.fields();
        let text = format!("**{}** ({}): {} — {}", field(&f, 0), field(&f, 1), field(&f, 2), rest(&f, 3));
        out.push_str(&item(&text, l.cite));
    }
    if let Some(id) = only {
        for l in c.lines(section::ACTIVE).iter().filter(|l| l.text.contains(&format!(" of worker {id} "))) {
            out.push_str(&item(l.text, l.cite));
        }
    }
    out
}

fn since_yesterday(c: &Context) -> String {
    let recent = c.lines(section::SINCE_YESTERDAY);
    if recent.is_empty() {
        return "Nothing was written to memory and no workflow started or changed in the last 24 hours.\n".into();
    }
    let mut out = String::from("**Since yesterday** (the last 24 hours):\n");
    let (memory, workflows): (Vec<&Line>, Vec<&Line>) = recent.iter().partition(|l| l.is_memory());
    if !memory.is_empty() {
        out.push_str("\nWritten to memory:\n");
        for l in memory {
            let f = l.fields();
            out.push_str(&item(&format!("**{}** ({}): {}", field(&f, 1), field(&f, 2), rest(&f, 3)), l.cite));
        }
    }
    if !workflows.is_empty() {
        out.push_str("\nWorkflows started or changed:\n");
        for l in workflows {
            let f = l.fields();
            let text = format!(
                "**{}** of {}: {} ({}, {})",
                field(&f, 1),
                field(&f, 2).trim_start_matches("worker "),
                field(&f, 3),
                field(&f, 4),
                field(&f, 5)
            );
            out.push_str(&item(&text, l.cite));
        }
    }
    out
}

/// Memory lines sharing the question's topic words, best first (a line once).
fn memory(question: &str, c: &Context, decision: bool) -> String {
    let topic: HashSet<String> =
        search_words(question).into_iter().filter(|w| !QUESTION_WORDS.contains(&w.as_str())).collect();
    let mut seen = HashSet::new();
    let mut hits: Vec<(usize, usize, &Line)> = c
        .sections
        .iter()
        .flat_map(|s| &s.lines)
        .filter(|l| l.is_memory())
        .enumerate()
        .map(|(i, l)| (search_words(l.text).intersection(&topic).count(), i, l))
        .filter(|(score, _, l)| *score > 0 && seen.insert(l.cite))
        .collect();
    hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if hits.is_empty() {
        return if decision {
            let mut about: Vec<&str> = topic.iter().map(String::as_str).collect();
            about.sort_unstable();
            format!("I found no decision about \"{}\" in the workspace memory.\n", about.join(" "))
        } else {
            cannot_ground()
        };
    }
    let mut out = String::from("**What the workspace memory says:**\n\n");
    for (_, _, l) in hits.into_iter().take(MEMORY_SHOWN) {
        let text = match l.text.strip_prefix("memory · ") {
            Some(fields) => {
                let f: Vec<&str> = fields.split(" · ").collect();
                format!("**{}** ({}): {}", field(&f, 0), field(&f, 1), rest(&f, 2))
            }
            None => l.text.to_owned(),
        };
        out.push_str(&item(&text, l.cite));
    }
    out
}
