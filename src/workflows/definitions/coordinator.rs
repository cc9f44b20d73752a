//! coordinator (internal; `POST /api/coordinator/runs`): the nine steps of DESIGN.md — intake
//! (what the goal asks, which companies it names), load context (org and team memory), research
//! the accounts (receipted company data), plan (research model), assign work to workers,
//! dispatch the child workflows, await their results and approvals, synthesize, and write the
//! synthesis to memory and notify.

use serde_json::json;

use crate::workflows::params::CoordinatorParams;
use crate::workflows::script::{ActivityKind, ChildSpec, Command, History, memory_key, run};

pub const DISPATCH_STEP: &str = "dispatch";
pub const AWAIT_STEP: &str = "await-results";

pub const STEPS: &[&str] = &[
    "intake",
    "load-context",
    "research-accounts",
    "plan",
    "assign",
    DISPATCH_STEP,
    AWAIT_STEP,
    "synthesize",
    "write-memory-and-notify",
];

pub fn next(h: &History, p: &CoordinatorParams) -> Command {
    let goal = p.goal.as_str();
    let Some(intake) = h.last("intake") else {
        return run("intake", ActivityKind::Intake, json!({"goal": goal}));
    };
    let Some(context) = h.last("load-context") else {
        return run("load-context", ActivityKind::LoadContext, json!({"goal": goal}));
    };
    let Some(research) = h.last("research-accounts") else {
        return run("research-accounts", ActivityKind::ResearchAccounts, json!({"companies": intake["companies"]}));
    };
    let Some(plan) = h.last("plan") else {
        let input = json!({"goal": goal, "intake": intake, "context": context, "research": research});
        return run("plan", ActivityKind::Plan, input);
    };
    let Some(assignments) = h.last("assign") else {
        return run("assign", ActivityKind::Assign, json!({"goal": goal, "intake": intake}));
    };
    let Some(dispatched) = h.last(DISPATCH_STEP) else {
        return match serde_json::from_value::<Vec<ChildSpec>>(assignments["assignments"].clone()) {
            Ok(children) => Command::StartChildren { step: DISPATCH_STEP, children },
            Err(e) => Command::Fail(format!("the assign step's assignments do not read: {e}")),
        };
    };
    let Some(results) = h.last(AWAIT_STEP) else {
        return match serde_json::from_value::<Vec<String>>(dispatched["children"].clone()) {
            Ok(ids) => Command::AwaitChildren { step: AWAIT_STEP, ids },
            Err(e) => Command::Fail(format!("the dispatch step's children do not read: {e}")),
        };
    };
    let Some(synthesis) = h.last("synthesize") else {
        return run("synthesize", ActivityKind::Synthesize, json!({"goal": goal, "plan": plan, "results": results}));
    };
    if h.last("write-memory-and-notify").is_none() {
        let text = synthesis["text"].as_str().unwrap_or_default();
        let key = memory_key("coordinator", &h.id);
        let input = json!({
            "entries": [
                {"scope": format!("worker:{}", h.worker), "key": key, "value": text, "tags": ["coordinator"]},
                {"scope": "org", "key": key, "value": text, "tags": ["coordinator", "synthesis"]},
            ],
            "notify": {"event": "workflow.completed", "text": format!("Coordinator run finished: {goal} ({})", h.id)},
        });
        return run("write-memory-and-notify", ActivityKind::Record, input);
    }
    Command::Complete(json!({"goal": goal, "children": dispatched["children"], "synthesis": synthesis["text"]}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowType;

    /// The definition as the engines call it (the type is the history's parameters' type).
    fn next(h: &History) -> Command {
        crate::workflows::definitions::next(h, &crate::workflows::script::Deadlines::default())
    }

    const KIND: WorkflowType = WorkflowType::Coordinator;

    #[test]
    fn the_nine_steps_run_in_order_with_children_between() {
        let params = json!({"goal": "qualify Apple"});
        let child = json!({"type": "lead-qualification", "worker": "sdr", "params": {"leadId": "l", "company": "Apple", "contact": "c"}});
        let outputs = vec![
            ("intake", json!({"companies": []})),
            ("load-context", json!({})),
            ("research-accounts", json!({})),
            ("plan", json!({})),
            ("assign", json!({"assignments": [child]})),
            (DISPATCH_STEP, json!({"children": ["c-1"]})),
            (AWAIT_STEP, json!({})),
            ("synthesize", json!({"text": "s"})),
            ("write-memory-and-notify", json!({})),
        ];
        for n in 0..outputs.len() {
            let h = History::from_parts("wf", "coordinator", KIND, params.clone(), outputs[..n].to_vec());
            let step = match next(&h) {
                Command::Run { step, .. }
                | Command::StartChildren { step, .. }
                | Command::AwaitChildren { step, .. } => step,
                other => panic!("step {n}: {other:?}"),
            };
            assert_eq!(step, STEPS[n]);
        }
        let h = History::from_parts("wf", "coordinator", KIND, params, outputs);
        assert!(matches!(next(&h), Command::Complete(_)));
    }
}
