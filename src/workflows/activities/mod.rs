//! Activities: the I/O of workflow steps (model calls, company data, memory, notifications,
//! call analysis), looked up by `ActivityKind`. Each takes its JSON input and answers JSON
//! output; each is idempotent by workflow id + step index (a memory write authored by the same
//! step is not repeated, a notification is queued once per step), so an engine may run one
//! again after a crash. `Compute` holds the ones that only call models or read company data
//! (they can run in a `gtms worker` process on another machine: their model calls come back
//! as ledger entries); `Activities` adds the ones that touch the appliance's redb.

mod companies;
mod drafting;
mod leads;
mod records;

use std::sync::Arc;

use serde_json::Value;

use super::script::{Activity, ActivityKind};
use crate::brain::model::{Speaker, Turn};
use crate::brain::{Llm, ModelError, TaskType};
use crate::companies::directory::Directory;
use crate::notify::Notifications;
use crate::store::{ModelCall, Store, StoreError};
use crate::voice::VoiceAnalyzer;

/// Why an activity attempt failed (the engine retries, then fails the workflow with it).
#[derive(Debug, thiserror::Error)]
pub enum ActivityError {
    #[error("language model: {0}")]
    Model(#[from] ModelError),
    #[error("storage: {0}")]
    Store(#[from] StoreError),
    #[error("memory: {0}")]
    Memory(#[from] crate::memory::MemoryError),
    #[error("{0}")]
    Input(String),
    #[error("the activity took longer than {0} s")]
    Timeout(u64),
}

/// The token-ledger entries of the model calls one activity attempt made.
pub type CallLog = std::sync::Mutex<Vec<ModelCall>>;

/// Which step of which workflow an activity runs for.
#[derive(Debug, Clone, Copy)]
pub struct StepCall<'a> {
    pub workflow_id: &'a str,
    pub worker: &'a str,
    pub step: &'a str,
    pub index: usize,
    /// Where the attempt's model calls are collected; whoever holds the ledger records them.
    pub log: &'a CallLog,
}

impl StepCall<'_> {
    /// The memory author and outbox id prefix of this step.
    pub fn tag(&self) -> String {
        format!("workflow:{}#{}", self.workflow_id, self.index)
    }
}

/// What compute activities reach: the model router, company data and call analysis — nothing
/// of the appliance's redb, so a `gtms worker` process without a data file can run them.
#[derive(Clone)]
pub struct Compute {
    pub llm: Arc<Llm>,
    pub directory: Arc<Directory>,
    pub voice: Arc<dyn VoiceAnalyzer>,
}

impl Compute {
    /// Runs a compute activity (`ActivityKind::queue` is `Queue::Compute`).
    pub async fn run(&self, call: StepCall<'_>, activity: &Activity) -> Result<Value, ActivityError> {
        let input = &activity.input;
        match activity.kind {
            ActivityKind::ResearchCompany => companies::research_company(self, input),
            ActivityKind::ResearchAccounts => companies::research_accounts(self, input),
            ActivityKind::Intake => companies::intake(self, input),
            ActivityKind::AnalyzeCall => leads::analyze_call(self, input),
            ActivityKind::ScoreLead => leads::score(self, call, input).await,
            ActivityKind::RouteLead => leads::route(input),
            ActivityKind::DraftPlan => drafting::plan_kickoff(self, call, input).await,
            ActivityKind::DraftContent => drafting::content(self, call, input).await,
            ActivityKind::ClassifyTicket => drafting::classify(self, call, input).await,
            ActivityKind::DraftReply => drafting::reply(self, call, input).await,
            ActivityKind::Plan => drafting::coordinator_plan(self, call, input).await,
            ActivityKind::Synthesize => drafting::synthesize(self, call, input).await,
            other => Err(ActivityError::Input(format!("activity {other:?} runs on the appliance's task queue"))),
        }
    }

    /// One model call on behalf of the step's worker, logged for the token ledger.
    async fn ask(
        &self,
        call: StepCall<'_>,
        task: TaskType,
        system: String,
        prompt: String,
    ) -> Result<(String, u64), ActivityError> {
        let turns = vec![Turn { speaker: Speaker::User, text: prompt }];
        let (reply, entry) = self.llm.complete(call.worker, task, system, turns, 800).await?;
        if let Ok(mut log) = call.log.lock() {
            log.push(entry);
        }
        if reply.text.trim().is_empty() {
            // An empty answer is a failed attempt (retried), never an empty plan or draft.
            return Err(ActivityError::Model(ModelError::BadReply("the answer was empty".into())));
        }
        Ok((reply.text, reply.input_tokens + reply.output_tokens))
    }
}

/// Every activity: the compute ones, and those that touch the appliance's redb (memory,
/// accounts and deals, the notification outbox). Cheap to clone.
#[derive(Clone)]
pub struct Activities {
    pub compute: Compute,
    pub store: Store,
    pub notifications: Notifications,
    /// The budget defaults (`[budgets]`) a workflow's model calls are held to, with what admins set.
    pub budgets: crate::config::BudgetSettings,
}

impl Activities {
    /// Runs one activity attempt; its span names the workflow, step and activity, so every log
    /// line of the attempt (and of the model calls in it) carries them.
    #[tracing::instrument(
        level = "debug", name = "activity", skip_all,
        fields(workflow = %call.workflow_id, step = %call.step, kind = ?activity.kind)
    )]
    pub async fn run(&self, call: StepCall<'_>, activity: &Activity) -> Result<Value, ActivityError> {
        let input = &activity.input;
        match activity.kind {
            ActivityKind::ReviewAccount => companies::review_account(self, input).await,
            ActivityKind::ContentBrief => companies::content_brief(self, input).await,
            ActivityKind::Assign => companies::assign(self, input).await,
            ActivityKind::LoadContext => records::load_context(self).await,
            ActivityKind::MeasureMemory => records::measure(self).await,
            ActivityKind::CompressMemory => records::compress(self).await,
            ActivityKind::Record => records::record(self, call, input).await,
            _ => self.compute.run(call, activity).await,
        }
    }

    /// Records model calls in the token ledger (the demo engine after each attempt; the
    /// temporal engine when a step's result reaches the appliance).
    pub async fn record_calls(&self, calls: Vec<ModelCall>) {
        for call in calls {
            crate::brain::llm::record(&self.store, call).await;
        }
    }
}

/// A text field of an activity's input; its absence is an error (the definition that built the
/// input and the activity disagree), never an empty default.
fn text<'a>(input: &'a Value, field: &str) -> Result<&'a str, ActivityError> {
    input
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| ActivityError::Input(format!("the input has no text {field}")))
}
