//! content-generation (5 steps): build a brief from the account and its company's receipted
//! facts, draft with the content model, park for a human's approval, publish (write to memory),
//! notify. A rejection ends the work unpublished: the workflow is `cancelled`.

use serde_json::json;

use crate::workflows::params::ContentParams;
use crate::workflows::script::{ActivityKind, Command, History, memory_key, run};

pub const STEPS: &[&str] = &["brief", "draft", "approval", "publish", "notify"];

pub fn next(h: &History, p: &ContentParams) -> Command {
    let Some(brief) = h.last("brief") else {
        let input = json!({"accountId": p.account_id, "contentType": p.content_type});
        return run("brief", ActivityKind::ContentBrief, input);
    };
    let Some(draft) = h.last("draft") else {
        return run("draft", ActivityKind::DraftContent, json!({"contentType": p.content_type, "brief": brief}));
    };
    match h.decision("approval") {
        None => {
            let summary = format!(
                "{} draft for {}: approve to publish",
                p.content_type,
                brief["accountName"].as_str().unwrap_or_default()
            );
            return Command::Await { step: "approval", summary, deadline_secs: None };
        }
        Some("approve") => {}
        Some(_) => {
            let comment = h.last("approval").and_then(|v| v.get("comment")).cloned();
            return Command::Cancel(json!({"published": false, "decision": "reject", "comment": comment}));
        }
    }
    let key = memory_key("content", &format!("{}.{}", p.account_id, h.id));
    if h.last("publish").is_none() {
        let text = draft["text"].as_str().unwrap_or_default();
        let entries = json!([
            {"scope": format!("worker:{}", h.worker), "key": key, "value": text, "tags": ["content", p.content_type]},
            {"scope": "org", "key": key, "value": text, "tags": ["content", "published"]},
        ]);
        return run("publish", ActivityKind::Record, json!({"entries": entries}));
    }
    if h.last("notify").is_none() {
        let text = format!(
            "Published {} for {} ({})",
            p.content_type,
            brief["accountName"].as_str().unwrap_or_default(),
            h.id
        );
        return run("notify", ActivityKind::Record, json!({"notify": {"event": "workflow.completed", "text": text}}));
    }
    Command::Complete(
        json!({"published": true, "memoryKey": format!("org/{key}"), "draft": draft["text"], "receipts": brief["facts"]}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowType;

    /// The definition as the engines call it (the type is the history's parameters' type).
    fn next(h: &History) -> Command {
        crate::workflows::definitions::next(h, &crate::workflows::script::SlaTimers::default())
    }

    #[test]
    fn a_rejected_draft_is_never_published() {
        let params = json!({"accountId": "acct-001", "contentType": "email"});
        let steps = vec![
            ("brief", json!({"accountName": "Acme"})),
            ("draft", json!({"text": "hello"})),
            ("approval", json!({"decision": "reject", "comment": "tone"})),
        ];
        let h = History::from_parts(
            "wf",
            "content-writer",
            WorkflowType::ContentGeneration,
            params.clone(),
            steps[..2].to_vec(),
        );
        assert!(matches!(next(&h), Command::Await { step: "approval", .. }));
        let h = History::from_parts("wf", "content-writer", WorkflowType::ContentGeneration, params, steps);
        let Command::Cancel(result) = next(&h) else { panic!("a rejection cancels") };
        assert_eq!(result["published"], false);
    }
}
