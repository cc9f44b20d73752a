//! content-generation (5 steps): build a brief from the account and its company's receipted
//! facts, draft with the content model, park for a human's approval, publish (write to memory),
//! notify. A rejection ends the work unpublished: the workflow is `cancelled`. An approval
//! nobody decides within its lifetime (`Deadlines::approval_secs`) expires: the team is told
//! (`approval.expired`) and the work ends as a rejection does.

use serde_json::json;

use crate::domain::WorkflowType;
use crate::workflows::params::ContentParams;
use crate::workflows::script::{ActivityKind, Command, Deadlines, EXPIRED, History, memory_key, run};

pub const STEPS: &[&str] = &["brief", "draft", "approval", "publish", "notify"];

pub fn next(h: &History, p: &ContentParams, deadlines: &Deadlines) -> Command {
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
            let deadline_secs = deadlines.approval_secs(WorkflowType::ContentGeneration);
            return Command::Await { step: "approval", summary, deadline_secs };
        }
        Some("approve") => {}
        Some(EXPIRED) => {
            let account = brief["accountName"].as_str().unwrap_or_default();
            let text = format!(
                "The approval of the {} draft for {account} expired unanswered ({}); nothing was published",
                p.content_type, h.id
            );
            if let Some(notice) = h.expiry_notice("approval", "approval-expired", text) {
                return notice;
            }
            return Command::Cancel(json!({"published": false, "decision": "expired"}));
        }
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

    /// The definition as the engines call it (the type is the history's parameters' type).
    fn next(h: &History) -> Command {
        crate::workflows::definitions::next(h, &crate::workflows::script::Deadlines::default())
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

    /// The gate carries the configured lifetime; an expired one tells the team once, then ends
    /// the work unpublished as a rejection does.
    #[test]
    fn an_expired_approval_is_announced_then_ends_the_work_unpublished() {
        let params = json!({"accountId": "acct-001", "contentType": "email"});
        let history = |steps: Vec<(&str, serde_json::Value)>| {
            History::from_parts("wf", "content-writer", WorkflowType::ContentGeneration, params.clone(), steps)
        };
        let drafted = vec![("brief", json!({"accountName": "Acme"})), ("draft", json!({"text": "hello"}))];
        let deadlines = Deadlines { approval_content_generation: Some(60), ..Deadlines::default() };
        let asked = crate::workflows::definitions::next(&history(drafted.clone()), &deadlines);
        assert!(matches!(asked, Command::Await { deadline_secs: Some(60), .. }), "{asked:?}");
        let never = Deadlines { approval: 0, ..Deadlines::default() };
        let asked = crate::workflows::definitions::next(&history(drafted.clone()), &never);
        assert!(matches!(asked, Command::Await { deadline_secs: None, .. }), "0 means never: {asked:?}");

        let mut steps = drafted;
        steps.push(("approval", json!({"decision": "timeout"})));
        let notice = next(&history(steps.clone()));
        let Command::Run { step: "approval-expired", activity } = notice else {
            panic!("expected the notice: {notice:?}")
        };
        assert_eq!(activity.input["notify"]["event"], "approval.expired");
        steps.push(("approval-expired", json!({})));
        let Command::Cancel(result) = next(&history(steps)) else { panic!("an expiry cancels") };
        assert_eq!((result["published"].as_bool(), result["decision"].as_str()), (Some(false), Some("expired")));
    }
}
