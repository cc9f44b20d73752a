//! Budgets inside workflows (issue 28; docs/controls.md "Budgets in workflows"): before each
//! step whose activity calls a model, an engine reads where the worker's budget and the
//! workspace's stand (`budgets::standing`, on the appliance) and asks `verdict` what to do. A
//! spent budget fails the step, unrun and not retried, and with it the workflow (the team is
//! told, `workflow.failed`). A budget past its soft share parks the workflow at a `budget`
//! approval gate: approved, the one call runs; rejected or expired, the workflow stops
//! (`cancelled`, its result says why). Pure functions of the record and the standing, so the
//! temporal engine, which records the standing in history, replays the same decisions.

use serde_json::{Value, json};

use super::script::ActivityKind;
use super::transitions::{self, PAUSED_STEP};
use crate::budgets::{BudgetState, Standing};
use crate::domain::StepStatus;
use crate::store::WorkflowRecord;

/// The approval gate a nearly spent budget opens.
pub const BUDGET_STEP: &str = "budget";

/// What the workflow does about its next step.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Run it.
    Go,
    /// Park at the `budget` gate first, with this summary.
    Ask(String),
    /// Fail the step unrun (`refuse`), and the workflow, with this reason.
    Fail(String),
    /// A person declined the call at the gate: end the workflow as cancelled with this result.
    Stop(Value),
}

/// What to do before running `step` (an `activity`) of `record`, the budgets standing as
/// `standing` (`None`: none near or spent).
pub fn verdict(record: &WorkflowRecord, step: &str, activity: ActivityKind, standing: Option<&Standing>) -> Verdict {
    if !activity.calls_model() {
        return Verdict::Go;
    }
    if let Some(spent) = standing.filter(|s| s.state == BudgetState::Spent) {
        return Verdict::Fail(format!("step {step} was not run: {}", spent.message));
    }
    // The gate answered for this call when it is the last thing that happened (a pause held
    // and released in between does not count).
    let gate = record.steps.iter().rev().find(|s| s.name != PAUSED_STEP);
    if let Some(gate) = gate.filter(|s| s.name == BUDGET_STEP && s.status == StepStatus::Completed) {
        let output: Value = serde_json::from_str(&gate.output).unwrap_or_default();
        return match output["decision"].as_str() {
            Some("approve") => Verdict::Go,
            decision => Verdict::Stop(json!({
                "stopped": "budget",
                "step": step,
                "decision": decision.unwrap_or("reject"),
                "by": output.get("by"),
                "comment": output.get("comment"),
            })),
        };
    }
    match standing {
        Some(near) => Verdict::Ask(format!(
            "Budget nearly spent: {}. Approve to run one more model call (step {step}), raise the budget, or reject to stop",
            near.message
        )),
        None => Verdict::Go,
    }
}

/// Records `step` as failed without running (`attempts: 0`), for `reason`.
pub fn refuse(record: &mut WorkflowRecord, step: &str, reason: &str, now: i64) {
    let output = json!({"error": reason, "refusedBy": "budget"});
    record.steps.push(transitions::step_record(step, StepStatus::Failed, now, now, &output, 0));
    record.error = Some(reason.to_owned());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowType;

    fn record(steps: &[(&str, StepStatus, Value)]) -> WorkflowRecord {
        let mut r = WorkflowRecord::started(
            "content-generation-000000000001".into(),
            WorkflowType::ContentGeneration,
            "content-writer".into(),
            r#"{"contentType":"email","accountId":"acct-004"}"#.into(),
            None,
            0,
        );
        r.steps = steps.iter().map(|(n, s, o)| transitions::step_record(n, *s, 0, 0, o, 1)).collect();
        r
    }

    fn standing(state: BudgetState) -> Standing {
        Standing {
            state,
            message: "the worker content-writer's budget for today is past 80 %".into(),
            renews_in_secs: 60,
        }
    }

    #[test]
    fn a_near_budget_asks_once_per_call_and_a_spent_one_fails() {
        let done = StepStatus::Completed;
        let fresh = record(&[("brief", done, json!({}))]);
        let near = standing(BudgetState::Near);
        assert_eq!(verdict(&fresh, "draft", ActivityKind::DraftContent, None), Verdict::Go);
        assert_eq!(verdict(&fresh, "brief", ActivityKind::ContentBrief, Some(&near)), Verdict::Go, "no model call");
        let Verdict::Ask(summary) = verdict(&fresh, "draft", ActivityKind::DraftContent, Some(&near)) else {
            panic!("a near budget asks");
        };
        assert!(summary.contains("past 80 %") && summary.contains("step draft"), "{summary}");

        let approved = record(&[
            ("brief", done, json!({})),
            (BUDGET_STEP, done, json!({"decision": "approve", "by": "ops"})),
            (PAUSED_STEP, done, json!({})),
        ]);
        assert_eq!(verdict(&approved, "draft", ActivityKind::DraftContent, Some(&near)), Verdict::Go, "one call");
        let spent = standing(BudgetState::Spent);
        let Verdict::Fail(reason) = verdict(&approved, "draft", ActivityKind::DraftContent, Some(&spent)) else {
            panic!("spent wins over an approval");
        };
        assert!(reason.starts_with("step draft was not run: the worker"), "{reason}");

        let rejected = record(&[(BUDGET_STEP, done, json!({"decision": "timeout"}))]);
        let Verdict::Stop(result) = verdict(&rejected, "draft", ActivityKind::DraftContent, None) else {
            panic!("an expired gate stops, even once the budget was raised");
        };
        assert_eq!((result["stopped"].as_str(), result["decision"].as_str()), (Some("budget"), Some("timeout")));
    }

    #[test]
    fn a_refused_step_is_failed_unrun() {
        let mut r = record(&[]);
        refuse(&mut r, "draft", "step draft was not run: spent", 5);
        let step = &r.steps[0];
        assert_eq!((step.name.as_str(), step.status, step.attempts), ("draft", StepStatus::Failed, 0));
        assert_eq!(r.error.as_deref(), Some("step draft was not run: spent"));
    }
}
