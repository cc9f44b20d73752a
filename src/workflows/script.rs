//! What a workflow definition sees and says. A definition is a deterministic function from a
//! workflow's `History` (its parameters and the outputs of the steps recorded so far) to the
//! next `Command`: run an activity, park at an approval gate, start child workflows, wait for
//! them, or end. It never does I/O and never reads a clock, so an engine may call it again
//! after a restart (or replay it, as Temporal does) and get the same answer.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::params::{ParamError, WorkflowParams};
use crate::domain::{Priority, StepStatus, WorkflowType};
use crate::store::WorkflowRecord;

/// The I/O a step performs; engines look each up by name (`activities::run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivityKind {
    ReviewAccount,
    DraftPlan,
    Record,
    ResearchCompany,
    AnalyzeCall,
    ScoreLead,
    RouteLead,
    ContentBrief,
    DraftContent,
    ClassifyTicket,
    DraftReply,
    MeasureMemory,
    CompressMemory,
    Intake,
    LoadContext,
    ResearchAccounts,
    Plan,
    Assign,
    Synthesize,
}

/// Where an activity runs: on the appliance (it touches the redb file) or anywhere (it only
/// calls models or reads the embedded company data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    Appliance,
    Compute,
}

impl ActivityKind {
    pub fn queue(self) -> Queue {
        use ActivityKind::*;
        match self {
            ReviewAccount | ContentBrief | Assign | LoadContext | MeasureMemory | CompressMemory | Record => {
                Queue::Appliance
            }
            ResearchCompany | ResearchAccounts | Intake | AnalyzeCall | ScoreLead | RouteLead | DraftPlan
            | DraftContent | ClassifyTicket | DraftReply | Plan | Synthesize => Queue::Compute,
        }
    }

    /// Whether it calls a language model (and so is held to the worker's budget).
    pub fn calls_model(self) -> bool {
        use ActivityKind::*;
        matches!(self, ScoreLead | DraftPlan | DraftContent | ClassifyTicket | DraftReply | Plan | Synthesize)
    }
}

/// One activity call: its kind and its JSON input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Activity {
    pub kind: ActivityKind,
    pub input: Value,
}

/// A child workflow a coordinator starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChildSpec {
    pub worker: String,
    /// `type` and `params`.
    #[serde(flatten)]
    pub params: WorkflowParams,
}

/// The next thing a workflow does.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Run `activity` and record its output as step `step`.
    Run {
        step: &'static str,
        activity: Activity,
    },
    /// Park at a human approval gate; with a deadline the gate lapses (output
    /// `{"decision":"timeout"}`) when nobody decided in time.
    Await {
        step: &'static str,
        summary: String,
        deadline_secs: Option<u64>,
    },
    /// Start these children (ids `<workflow id>-<n>`), recording their ids as the step output.
    StartChildren {
        step: &'static str,
        children: Vec<ChildSpec>,
    },
    /// Wait until every child ended; the step output lists their ends and results.
    AwaitChildren {
        step: &'static str,
        ids: Vec<String>,
    },
    Complete(Value),
    Fail(String),
    /// A human decision ended the gated work.
    Cancel(Value),
}

impl Command {
    /// Whether it starts new work (an activity, a gate, children): where a pause holds a
    /// workflow. Waiting for children and ending do not.
    pub fn starts_work(&self) -> bool {
        matches!(self, Command::Run { .. } | Command::Await { .. } | Command::StartChildren { .. })
    }
}

/// The deadlines a definition gives its gates, in seconds (configurable, `[workflows]`): the
/// SLA of a ticket's review by priority, and how long a human approval stays open before it
/// expires and takes the workflow's reject path (per type where set, else `approval`).
/// Temporal records them in each workflow's start input, so a replay sees the same ones; an
/// input recorded before approvals expired reads `approval: 0`, never, as it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadlines {
    pub low: u64,
    pub normal: u64,
    pub high: u64,
    pub urgent: u64,
    /// Lifetime of an approval; 0: approvals never expire.
    #[serde(default)]
    pub approval: u64,
    #[serde(default)]
    pub approval_client_onboarding: Option<u64>,
    #[serde(default)]
    pub approval_content_generation: Option<u64>,
    /// Whether a gate with a deadline warns at 80 % of its life (`approval.expiring`). Always
    /// on for new starts; a Temporal input recorded before the warning existed reads `false`,
    /// so its replay issues the single timer it ran with.
    #[serde(default)]
    pub warn_expiring: bool,
}

/// An approval's lifetime when nothing else is configured: 72 hours (issue 28).
pub const APPROVAL_SECS: u64 = 72 * 3600;

impl Deadlines {
    pub fn secs(&self, priority: Priority) -> u64 {
        match priority {
            Priority::Low => self.low,
            Priority::Normal => self.normal,
            Priority::High => self.high,
            Priority::Urgent => self.urgent,
        }
    }

    /// How long an approval gate of `kind` stays open; `None`: until someone decides.
    pub fn approval_secs(&self, kind: WorkflowType) -> Option<u64> {
        let own = match kind {
            WorkflowType::ClientOnboarding => self.approval_client_onboarding,
            WorkflowType::ContentGeneration => self.approval_content_generation,
            _ => None,
        };
        Some(own.unwrap_or(self.approval)).filter(|secs| *secs > 0)
    }
}

impl Default for Deadlines {
    fn default() -> Self {
        Self {
            low: 86_400,
            normal: 14_400,
            high: 3_600,
            urgent: 900,
            approval: APPROVAL_SECS,
            approval_client_onboarding: None,
            approval_content_generation: None,
            warn_expiring: true,
        }
    }
}

/// A workflow's parameters and completed step outputs, as definitions read them.
pub struct History {
    pub id: String,
    pub worker: String,
    pub params: WorkflowParams,
    steps: Vec<(String, Value)>,
}

/// A record that cannot be read back as a history (its parameters or a step's output do not
/// read): the workflow fails with it rather than run on a default.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("workflow {id}: {source}")]
    Params { id: String, source: ParamError },
    #[error("workflow {id}, step {step}: the recorded output is not JSON: {source}")]
    Output { id: String, step: String, source: serde_json::Error },
}

impl History {
    pub fn of(record: &WorkflowRecord) -> Result<Self, HistoryError> {
        let id = &record.id;
        let steps = record
            .steps
            .iter()
            .filter(|s| s.status == StepStatus::Completed)
            .map(|s| match serde_json::from_str(&s.output) {
                Ok(output) => Ok((s.name.clone(), output)),
                Err(source) => Err(HistoryError::Output { id: id.clone(), step: s.name.clone(), source }),
            })
            .collect::<Result<_, _>>()?;
        let params = WorkflowParams::from_text(record.kind, &record.params)
            .map_err(|source| HistoryError::Params { id: id.clone(), source })?;
        Ok(Self { id: id.clone(), worker: record.worker.clone(), params, steps })
    }

    /// For unit tests of definitions: a history of `kind` from its parameters and step outputs.
    #[cfg(test)]
    pub fn from_parts(id: &str, worker: &str, kind: WorkflowType, params: Value, steps: Vec<(&str, Value)>) -> Self {
        let Value::Object(map) = params else { panic!("parameters are an object") };
        let params = WorkflowParams::parse(kind, map).expect("valid parameters");
        let steps = steps.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
        Self { id: id.to_owned(), worker: worker.to_owned(), params, steps }
    }

    /// The output of the latest completed run of `step`.
    pub fn last(&self, step: &str) -> Option<&Value> {
        self.steps.iter().rev().find(|(n, _)| n == step).map(|(_, v)| v)
    }

    /// How many times `step` completed.
    pub fn count(&self, step: &str) -> usize {
        self.steps.iter().filter(|(n, _)| n == step).count()
    }

    /// The decision recorded by the latest run of gate `step` (`approve`, `reject`, `timeout`).
    pub fn decision(&self, step: &str) -> Option<&str> {
        self.last(step).and_then(|v| v.get("decision")).and_then(Value::as_str)
    }

    /// How many runs of gate `step` ended with `decision`.
    pub fn decided(&self, step: &str, decision: &str) -> usize {
        self.steps
            .iter()
            .filter(|(n, v)| n == step && v.get("decision").and_then(Value::as_str) == Some(decision))
            .count()
    }

    /// When gate `step` expired (its latest run lapsed) and the team was not told yet: the step
    /// `notice` that tells them, once per expiry (`approval.expired`, to team chat and `/ws`).
    pub fn expiry_notice(&self, gate: &str, notice: &'static str, text: String) -> Option<Command> {
        let untold = self.decision(gate) == Some(EXPIRED) && self.count(notice) < self.decided(gate, EXPIRED);
        untold
            .then(|| run(notice, ActivityKind::Record, json!({"notify": {"event": "approval.expired", "text": text}})))
    }
}

/// The decision an engine records when a gate's deadline passed with nobody deciding.
pub const EXPIRED: &str = "timeout";

pub fn run(step: &'static str, kind: ActivityKind, input: Value) -> Command {
    Command::Run { step, activity: Activity { kind, input } }
}

/// A memory key `<prefix>.<part>` from user-given text: characters a key may not hold become
/// `-`, and the key stays within 128 characters.
pub fn memory_key(prefix: &str, part: &str) -> String {
    let clean: String = part
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ':') { c } else { '-' })
        .collect();
    let mut key = format!("{prefix}.{clean}");
    key.truncate(128);
    key
}
