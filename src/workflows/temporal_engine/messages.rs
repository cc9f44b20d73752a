//! What crosses the Temporal boundary, as JSON payloads: a workflow's start input (with the
//! engine settings it runs under, recorded in its history so a replay sees the same ones), an
//! approval decision, a step's activity call and result, and the appliance-side transition
//! that announces a state change, updates the run ledger and records model calls, and its answer
//! (what holds the workflow at its next boundary).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::budgets::Standing;
use crate::config::WorkflowSettings;
use crate::domain::Decision;
use crate::store::{Hold, ModelCall, WorkflowRecord};
use crate::workflows::engine::ApprovalSignal;
use crate::workflows::params::WorkflowParams;
use crate::workflows::script::{Activity, Deadlines};

/// The settings a workflow runs under (from `[workflows]` and `[temporal]` at start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    pub sla: Deadlines,
    pub retry_attempts: u32,
    pub retry_base_ms: u64,
    pub retry_max_ms: u64,
    pub activity_timeout_secs: u64,
    /// Where the activities that touch the appliance's redb run.
    pub appliance_queue: String,
    /// Where the activities that only call models or read company data run.
    pub compute_queue: String,
}

impl RunSettings {
    pub fn new(workflows: &WorkflowSettings, appliance_queue: &str, compute_queue: &str) -> Self {
        Self {
            sla: workflows.sla,
            retry_attempts: workflows.retry_attempts,
            retry_base_ms: workflows.retry_base_ms,
            retry_max_ms: workflows.retry_max_ms,
            activity_timeout_secs: workflows.activity_timeout_secs,
            appliance_queue: appliance_queue.to_owned(),
            compute_queue: compute_queue.to_owned(),
        }
    }
}

/// A workflow's input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartInput {
    pub worker: String,
    /// The workflow's type and parameters.
    pub params: WorkflowParams,
    pub parent: Option<String>,
    pub settings: RunSettings,
}

/// An approval decision (the `approval` signal and the `decide` update).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionInput {
    pub decision: Decision,
    pub comment: Option<String>,
    pub by: String,
}

impl From<&DecisionInput> for ApprovalSignal {
    fn from(d: &DecisionInput) -> Self {
        ApprovalSignal { decision: d.decision, comment: d.comment.clone(), by: d.by.clone() }
    }
}

impl From<ApprovalSignal> for DecisionInput {
    fn from(s: ApprovalSignal) -> Self {
        DecisionInput { decision: s.decision, comment: s.comment, by: s.by }
    }
}

/// One step's activity call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepInput {
    pub workflow_id: String,
    pub worker: String,
    pub step: String,
    pub index: usize,
    pub activity: Activity,
}

/// A step's output and the model calls it made (recorded in the ledger on the appliance).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepOutput {
    pub output: Value,
    pub calls: Vec<ModelCall>,
}

/// What changed, for `/ws`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    Started,
    Step {
        step: String,
        outcome: String,
    },
    Waiting,
    /// 80 % of the pending approval's life passed.
    Expiring,
    Decided {
        decision: Decision,
    },
    Ended,
}

/// A team-chat notification to queue in the outbox (idempotent by id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub id: String,
    pub event: String,
    pub text: String,
}

/// A state change, carried out on the appliance by the `transition` local activity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    pub record: WorkflowRecord,
    pub event: Event,
    pub notice: Option<Notice>,
    pub calls: Vec<ModelCall>,
}

/// The `transition` activity's answer, recorded in history: the pause that holds the workflow
/// (with the pause revision read) and where its model budgets stand, as read after the change.
/// `null` when neither applies. Answers recorded before budgets read as a hold alone (the
/// hold's fields are this object's own); before pauses, `null`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Boundary {
    #[serde(flatten)]
    pub hold: Option<Hold>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Standing>,
}

impl Boundary {
    /// The answer: `None` when nothing holds the workflow and no budget is near or spent.
    pub fn of(hold: Option<Hold>, budget: Option<Standing>) -> Option<Boundary> {
        (hold.is_some() || budget.is_some()).then_some(Boundary { hold, budget })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budgets::BudgetState;
    use crate::store::{PauseRecord, PauseScope};

    #[test]
    fn answers_recorded_before_budgets_still_read() {
        let pause = PauseRecord {
            scope: PauseScope::Worker,
            target: "sdr".into(),
            by: "ops (admin)".into(),
            at_ms: 5,
            reason: "review".into(),
        };
        let hold = Hold { revision: 3, pause };
        let before = serde_json::to_string(&Some(hold.clone())).expect("json");
        let read: Option<Boundary> = serde_json::from_str(&before).expect("a hold alone reads");
        assert_eq!(read, Some(Boundary { hold: Some(hold.clone()), budget: None }));
        assert_eq!(serde_json::from_str::<Option<Boundary>>("null").expect("null reads"), None);

        let budget = Standing { state: BudgetState::Near, message: "past 80 %".into(), renews_in_secs: 9 };
        let now = Boundary::of(None, Some(budget.clone()));
        let text = serde_json::to_string(&now).expect("json");
        assert_eq!(serde_json::from_str::<Option<Boundary>>(&text).expect("round trip"), now);
        assert_eq!(now.map(|b| b.hold), Some(None), "a budget alone holds nothing");
        assert_eq!(Boundary::of(None, None), None);
        let both = Boundary::of(Some(hold), Some(budget));
        let text = serde_json::to_string(&both).expect("json");
        assert_eq!(serde_json::from_str::<Option<Boundary>>(&text).expect("round trip"), both);
    }
}
