//! client-onboarding (5 steps): review the account, draft the kickoff plan with the research
//! model, park for a human's approval of the plan, write the approved plan to memory (the
//! worker's scope and org scope), notify the team. A rejected plan is revised once with the
//! reviewer's comment; a second rejection fails the workflow. An approval nobody decides within
//! its lifetime (`Deadlines::approval_secs`) expires: the team is told (`approval.expired`) and
//! it counts as a rejection without a comment.

use serde_json::{Value, json};

use crate::domain::WorkflowType;
use crate::workflows::params::{OnboardingParams, Tier};
use crate::workflows::script::{ActivityKind, Command, Deadlines, EXPIRED, History, memory_key, run};

pub const STEPS: &[&str] = &["account-review", "kickoff-plan", "plan-approval", "write-plan", "notify-team"];

pub fn next(h: &History, p: &OnboardingParams, deadlines: &Deadlines) -> Command {
    // The tier is optional; an onboarding without one is a standard one (DESIGN.md).
    let tier = p.tier.unwrap_or(Tier::Standard).as_str();
    let Some(review) = h.last("account-review") else {
        let input = json!({"accountId": p.account_id, "accountName": p.account_name, "tier": tier});
        return run("account-review", ActivityKind::ReviewAccount, input);
    };
    let (plans, gates) = (h.count("kickoff-plan"), h.count("plan-approval"));
    if plans == gates {
        let text = format!("The approval of the kickoff plan for {} expired unanswered ({})", p.account_name, h.id);
        if let Some(notice) = h.expiry_notice("plan-approval", "approval-expired", text) {
            return notice;
        }
        match h.decision("plan-approval") {
            Some("approve") => {}
            Some(EXPIRED) if plans >= 2 => {
                return Command::Fail("the kickoff plan was not approved twice (its approval expired)".into());
            }
            Some(_) if plans >= 2 => return Command::Fail("the kickoff plan was rejected twice".into()),
            decision => {
                let comment = decision.and(h.last("plan-approval")).and_then(|v| v.get("comment")).cloned();
                let input = json!({
                    "accountName": p.account_name, "tier": tier, "review": review,
                    "revisionOf": h.last("kickoff-plan").and_then(|p| p.get("plan")), "comment": comment,
                });
                return run("kickoff-plan", ActivityKind::DraftPlan, input);
            }
        }
    } else {
        let summary = format!("Kickoff plan ({tier} tier) for {}: approve to write it to memory", p.account_name);
        let deadline_secs = deadlines.approval_secs(WorkflowType::ClientOnboarding);
        return Command::Await { step: "plan-approval", summary, deadline_secs };
    }
    let Some(plan) = h.last("kickoff-plan").and_then(|p| p.get("plan")).and_then(Value::as_str) else {
        return Command::Fail("the kickoff-plan step recorded no plan".into());
    };
    if h.last("write-plan").is_none() {
        let value = plan;
        let key = memory_key("onboarding", &p.account_id);
        let entries = json!([
            {"scope": format!("worker:{}", h.worker), "key": key, "value": value, "tags": ["onboarding", tier]},
            {"scope": "org", "key": key, "value": format!("Onboarding of {} ({tier}) approved; plan in worker:{} {key}", p.account_name, h.worker), "tags": ["onboarding"]},
        ]);
        return run("write-plan", ActivityKind::Record, json!({"entries": entries}));
    }
    if h.last("notify-team").is_none() {
        let text = format!("Onboarding of {} is ready: the kickoff plan was approved ({})", p.account_name, h.id);
        return run(
            "notify-team",
            ActivityKind::Record,
            json!({"notify": {"event": "workflow.completed", "text": text}}),
        );
    }
    Command::Complete(json!({"accountId": p.account_id, "tier": tier, "plan": plan}))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition as the engines call it (the type is the history's parameters' type).
    fn next(h: &History) -> Command {
        crate::workflows::definitions::next(h, &crate::workflows::script::Deadlines::default())
    }

    fn history(steps: Vec<(&str, Value)>) -> History {
        History::from_parts(
            "wf",
            "onboarding-manager",
            crate::domain::WorkflowType::ClientOnboarding,
            json!({"accountId": "a1", "accountName": "Acme"}),
            steps,
        )
    }

    #[test]
    fn a_rejected_plan_is_revised_once_then_the_workflow_fails() {
        let review = ("account-review", json!({}));
        let plan = ("kickoff-plan", json!({"plan": "p"}));
        let reject = ("plan-approval", json!({"decision": "reject", "comment": "more detail"}));
        assert!(matches!(next(&history(vec![review.clone()])), Command::Run { step: "kickoff-plan", .. }));
        assert!(matches!(next(&history(vec![review.clone(), plan.clone()])), Command::Await { .. }));
        let revise = next(&history(vec![review.clone(), plan.clone(), reject.clone()]));
        let Command::Run { activity, .. } = revise else { panic!("expected a revision, got {revise:?}") };
        assert_eq!(activity.input["comment"], "more detail");
        let twice = history(vec![review, plan.clone(), reject.clone(), plan, reject]);
        assert!(matches!(next(&twice), Command::Fail(_)));
    }

    /// An expired approval tells the team, then takes the reject path: revise once, then fail.
    #[test]
    fn an_expired_plan_approval_is_announced_and_counts_as_a_rejection() {
        let (review, plan) = (("account-review", json!({})), ("kickoff-plan", json!({"plan": "p"})));
        let (expired, told) = (("plan-approval", json!({"decision": "timeout"})), ("approval-expired", json!({})));
        let notice = next(&history(vec![review.clone(), plan.clone(), expired.clone()]));
        assert!(matches!(notice, Command::Run { step: "approval-expired", .. }), "{notice:?}");
        let revise = next(&history(vec![review.clone(), plan.clone(), expired.clone(), told.clone()]));
        assert!(matches!(revise, Command::Run { step: "kickoff-plan", .. }), "{revise:?}");
        let again = vec![review, plan.clone(), expired.clone(), told.clone(), plan, expired];
        let notice = next(&history(again.clone()));
        assert!(matches!(notice, Command::Run { step: "approval-expired", .. }), "told of each expiry: {notice:?}");
        let mut done = again;
        done.push(told);
        let failed = next(&history(done));
        assert!(matches!(&failed, Command::Fail(reason) if reason.contains("expired")), "{failed:?}");
    }

    #[test]
    fn an_approved_plan_is_written_then_announced_then_done() {
        let base = vec![
            ("account-review", json!({})),
            ("kickoff-plan", json!({"plan": "p"})),
            ("plan-approval", json!({"decision": "approve"})),
        ];
        assert!(matches!(next(&history(base.clone())), Command::Run { step: "write-plan", .. }));
        let mut done = base;
        done.push(("write-plan", json!({})));
        done.push(("notify-team", json!({})));
        assert!(matches!(next(&history(done)), Command::Complete(_)));
    }
}
