//! lead-qualification (5 steps, no approval): research the company in the receipted data set,
//! analyse the seeded call transcript when one exists, score the lead, route it, and record the
//! result in memory (the worker's scope; org scope when qualified).

use serde_json::json;

use crate::workflows::params::LeadParams;
use crate::workflows::script::{ActivityKind, Command, History, memory_key, run};

pub const STEPS: &[&str] = &["research", "call-analysis", "score", "route", "record"];

pub fn next(h: &History, p: &LeadParams) -> Command {
    let Some(research) = h.last("research") else {
        return run("research", ActivityKind::ResearchCompany, json!({"company": p.company}));
    };
    let Some(call) = h.last("call-analysis") else {
        let slug = research.get("company").and_then(|c| c.get("slug")).cloned();
        return run("call-analysis", ActivityKind::AnalyzeCall, json!({"leadId": p.lead_id, "slug": slug}));
    };
    let Some(score) = h.last("score") else {
        let input = json!({"company": p.company, "research": research, "call": call});
        return run("score", ActivityKind::ScoreLead, input);
    };
    let Some(route) = h.last("route") else {
        return run("route", ActivityKind::RouteLead, json!({"score": score, "leadId": p.lead_id}));
    };
    if h.last("record").is_none() {
        let line = format!(
            "Lead {} ({}): score {} ({}), routed to {}",
            p.lead_id,
            p.company,
            score["score"],
            score["grade"].as_str().unwrap_or_default(),
            route["route"].as_str().unwrap_or_default()
        );
        let key = memory_key("leads", &p.lead_id);
        let mut entries =
            vec![json!({"scope": format!("worker:{}", h.worker), "key": key, "value": line, "tags": ["lead"]})];
        if route["qualified"].as_bool() == Some(true) {
            entries.push(json!({"scope": "org", "key": key, "value": line, "tags": ["lead", "qualified"]}));
        }
        return run("record", ActivityKind::Record, json!({"entries": entries}));
    }
    Command::Complete(json!({
        "leadId": p.lead_id, "company": research.get("company"), "score": score["score"],
        "grade": score["grade"], "reasons": score["reasons"], "route": route["route"],
        "qualified": route["qualified"], "receipts": research.get("signals"), "call": call,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowType;

    /// The definition as the engines call it (the type is the history's parameters' type).
    fn next(h: &History) -> Command {
        crate::workflows::definitions::next(h, &crate::workflows::script::Deadlines::default())
    }

    const KIND: WorkflowType = WorkflowType::LeadQualification;

    #[test]
    fn five_steps_in_order_then_a_result_with_receipts() {
        let params = json!({"leadId": "l1", "company": "Apple", "contact": "buyer"});
        let outputs = [
            ("research", json!({"company": {"slug": "apple"}, "signals": [{"quote": "q", "url": "u"}]})),
            ("call-analysis", json!({"found": false})),
            ("score", json!({"score": 72, "grade": "A", "reasons": []})),
            ("route", json!({"route": "deal-desk", "qualified": true})),
            ("record", json!({})),
        ];
        for n in 0..outputs.len() {
            let h = History::from_parts("wf", "sdr", KIND, params.clone(), outputs[..n].to_vec());
            let Command::Run { step, .. } = next(&h) else { panic!("step {n} should run an activity") };
            assert_eq!(step, STEPS[n]);
        }
        let h = History::from_parts("wf", "sdr", KIND, params, outputs.to_vec());
        let Command::Complete(result) = next(&h) else { panic!("should complete") };
        assert_eq!((result["score"].as_i64(), result["receipts"][0]["url"].as_str()), (Some(72), Some("u")));
    }
}
