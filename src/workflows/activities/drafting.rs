//! Activities that ask a language model (by task type): the kickoff plan and the coordinator's
//! plan and synthesis (research), content drafts and ticket replies (content), ticket
//! classification (fast). Context goes in as `- ` lines, so the offline demo model answers from
//! it; every fact line carries its receipt.

use serde_json::{Value, json};

use super::{ActivityError, Compute, StepCall, text};
use crate::brain::TaskType;

fn fact_lines(system: &mut String, facts: &Value) {
    for f in facts.as_array().into_iter().flatten() {
        system.push_str(&format!(
            "- {} (\"{}\" — {} {}, {})\n",
            f["claim"].as_str().unwrap_or_default(),
            f["quote"].as_str().unwrap_or_default(),
            f["form"].as_str().unwrap_or_default(),
            f["filed"].as_str().unwrap_or_default(),
            f["url"].as_str().unwrap_or_default()
        ));
    }
}

pub async fn plan_kickoff(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let name = text(input, "accountName")?;
    let tier = text(input, "tier")?;
    let mut system = format!("You write a five-point onboarding kickoff plan for {name} ({tier} tier).\n");
    system.push_str(&format!("- kickoff plan for {name}: week 1 kickoff call, success criteria and owners\n"));
    system
        .push_str(&format!("- kickoff plan for {name}: weeks 2-3 integration and data import, {tier} tier support\n"));
    system.push_str(&format!("- kickoff plan for {name}: week 4 training; day 30 review of adoption\n"));
    fact_lines(&mut system, &input["review"]["signals"]);
    if let Some(comment) = input["comment"].as_str() {
        system.push_str(&format!("- revision requested for the kickoff plan: {comment}\n"));
    }
    let question = format!("Write the kickoff plan for {name}.");
    let (plan, tokens) = a.ask(call, TaskType::Research, system, question).await?;
    Ok(json!({"plan": plan, "revision": input["revisionOf"].is_string(), "tokens": tokens}))
}

pub async fn content(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let kind = text(input, "contentType")?;
    let brief = &input["brief"];
    let name = brief["accountName"].as_str().unwrap_or_default();
    let mut system = format!("You draft a {kind} for {name}. Cite every company fact with its filing.\n");
    system.push_str(&format!("- {kind} for {name}: open with what the company said in its own filings\n"));
    fact_lines(&mut system, &brief["facts"]);
    let (draft, tokens) =
        a.ask(call, TaskType::Content, system, format!("Draft the {kind} for {name} from the company facts.")).await?;
    Ok(json!({"text": draft, "tokens": tokens}))
}

/// Ticket categories, by the first cue word found in the subject.
const CATEGORIES: &[(&str, &[&str])] = &[
    ("outage", &["down", "outage", "unavailable", "500", "error"]),
    ("billing", &["invoice", "billing", "charge", "refund", "price"]),
    ("access", &["login", "password", "access", "sso", "locked"]),
    ("bug", &["bug", "broken", "crash", "wrong", "fails"]),
    ("feature-request", &["feature", "request", "add", "support for"]),
];

pub async fn classify(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let subject = text(input, "subject")?;
    let lower = subject.to_lowercase();
    let category =
        CATEGORIES.iter().find(|(_, cues)| cues.iter().any(|c| lower.contains(c))).map_or("question", |(c, _)| c);
    let system = "You summarise support tickets in one line.".to_owned();
    let (summary, tokens) =
        a.ask(call, TaskType::Fast, system, format!("ticket {}: {subject}", text(input, "ticketId")?)).await?;
    Ok(json!({"category": category, "priority": input["priority"], "summary": summary, "tokens": tokens}))
}

pub async fn reply(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let subject = text(input, "subject")?;
    let category = input["classification"]["category"].as_str().unwrap_or("question");
    let mut system = format!("You draft a support reply for a {category} ticket.\n");
    system.push_str(&format!("- reply about {subject}: acknowledge, give the next step and a time\n"));
    let (reply, tokens) = a.ask(call, TaskType::Content, system, format!("Draft a reply about {subject}")).await?;
    Ok(json!({"text": reply, "tokens": tokens}))
}

pub async fn coordinator_plan(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let goal = text(input, "goal")?;
    let mut system = String::from("You plan go-to-market work for a team of AI workers.\n");
    system.push_str(&format!("- goal to plan: {goal}\n"));
    for acc in input["research"]["accounts"].as_array().into_iter().flatten() {
        fact_lines(&mut system, &acc["signals"]);
    }
    for line in input["context"]["highlights"].as_array().into_iter().flatten() {
        system.push_str(&format!("- memory: {}\n", line.as_str().unwrap_or_default()));
    }
    let (plan, tokens) = a.ask(call, TaskType::Research, system, format!("Plan the goal: {goal}")).await?;
    Ok(json!({"text": plan, "tokens": tokens}))
}

pub async fn synthesize(a: &Compute, call: StepCall<'_>, input: &Value) -> Result<Value, ActivityError> {
    let goal = text(input, "goal")?;
    let mut system = String::from("You report what the team did toward a goal.\n");
    system.push_str(&format!("- results toward the goal {goal}:\n"));
    for child in input["results"]["children"].as_array().into_iter().flatten() {
        system.push_str(&format!(
            "- results: {} {} by {} ended {}\n",
            child["workflowId"].as_str().unwrap_or_default(),
            child["type"].as_str().unwrap_or_default(),
            child["worker"].as_str().unwrap_or_default(),
            child["status"].as_str().unwrap_or_default()
        ));
    }
    let (text, tokens) =
        a.ask(call, TaskType::Research, system, format!("Summarise the results toward the goal {goal}")).await?;
    Ok(json!({"text": text, "tokens": tokens}))
}
