//! The six registered types as Temporal workflows, named as the API names them
//! (`client-onboarding`, …), so `temporal workflow list` shows the same types. Each is a thin
//! shell over `driver::drive` with the same handlers: the `record` query (the workflow's state
//! for the API), the `decide` update (an approval decision, refused when no gate is pending),
//! the `approval` signal (the same decision, fire-and-forget, for other Temporal clients), the
//! `cancel` update (who and why; the workflow ends at its next boundary) and the `release`
//! signal (a pause was lifted at this revision).

use temporalio_macros::{workflow, workflow_methods};
use temporalio_sdk::{ChildWorkflowOptions, SyncWorkflowContext, WorkflowContext, WorkflowContextView, WorkflowResult};
use temporalio_workflow::ChildWorkflowStartError;

use super::driver::{ChildEnd, Controls, Script, Scripted, clock_ms, drive};
use super::messages::{DecisionInput, StartInput};
use crate::domain::WorkflowType;
use crate::store::WorkflowRecord;
use crate::workflows::engine::ApprovalSignal;
use crate::workflows::transitions::{self, CancelRequest};

type HandlerError = Box<dyn std::error::Error + Send + Sync>;

impl Script {
    fn new(ctx: &WorkflowContextView, input: StartInput) -> Self {
        let at = clock_ms(ctx.start_time());
        let mut record = WorkflowRecord::started(
            ctx.workflow_id().to_owned(),
            input.params.kind(),
            input.worker,
            input.params.to_text(),
            input.parent,
            at,
        );
        record.revision = 1;
        Self { record, settings: input.settings, controls: Controls::default() }
    }

    fn check_pending(&self) -> Result<(), HandlerError> {
        match self.record.approval.as_ref().filter(|a| a.is_pending()) {
            Some(_) => Ok(()),
            None => Err(format!("workflow {} has no approval pending", self.record.id).into()),
        }
    }

    fn decide(&mut self, at: Option<std::time::SystemTime>, input: &DecisionInput) {
        let at = clock_ms(at);
        if transitions::decide(&mut self.record, &ApprovalSignal::from(input), at) {
            self.record.updated_ms = at;
            self.record.revision += 1;
        }
    }
}

macro_rules! scripted_workflow {
    ($name:ident, $kind:expr, $type_name:literal) => {
        #[workflow]
        pub struct $name {
            script: Script,
        }

        impl Scripted for $name {
            const KIND: WorkflowType = $kind;
            fn script(&self) -> &Script {
                &self.script
            }
            fn script_mut(&mut self) -> &mut Script {
                &mut self.script
            }
            fn start_child(
                ctx: &WorkflowContext<Self>,
                input: StartInput,
                options: ChildWorkflowOptions,
            ) -> impl Future<Output = Result<ChildEnd, ChildWorkflowStartError>> {
                start_child(ctx, input, options)
            }
        }

        #[workflow_methods]
        impl $name {
            #[init]
            pub fn new(ctx: &WorkflowContextView, input: StartInput) -> Self {
                Self { script: Script::new(ctx, input) }
            }

            #[run(name = $type_name)]
            pub async fn run(ctx: &mut WorkflowContext<Self>) -> WorkflowResult<WorkflowRecord> {
                drive(ctx).await
            }

            #[query(name = "record")]
            pub fn record(&self, _ctx: &WorkflowContextView) -> WorkflowRecord {
                self.script.record.clone()
            }

            #[update_validator(decide)]
            pub fn validate_decide(
                &self,
                _ctx: &WorkflowContextView,
                _input: &DecisionInput,
            ) -> Result<(), HandlerError> {
                self.script.check_pending()
            }

            #[update(name = "decide")]
            pub fn decide(&mut self, ctx: &mut SyncWorkflowContext<Self>, input: DecisionInput) -> WorkflowRecord {
                self.script.decide(ctx.workflow_time(), &input);
                self.script.record.clone()
            }

            #[signal(name = "approval")]
            pub fn approval(&mut self, ctx: &mut SyncWorkflowContext<Self>, input: DecisionInput) {
                self.script.decide(ctx.workflow_time(), &input);
            }

            #[update(name = "cancel")]
            pub fn cancel(&mut self, _ctx: &mut SyncWorkflowContext<Self>, input: CancelRequest) -> WorkflowRecord {
                // The first request's reason stands; the workflow ends at its next boundary.
                self.script.controls.cancel.get_or_insert(input);
                self.script.record.clone()
            }

            #[signal(name = "release")]
            pub fn release(&mut self, _ctx: &mut SyncWorkflowContext<Self>, revision: u64) {
                let controls = &mut self.script.controls;
                controls.released = controls.released.max(revision);
            }
        }
    };
}

scripted_workflow!(ClientOnboarding, WorkflowType::ClientOnboarding, "client-onboarding");
scripted_workflow!(LeadQualification, WorkflowType::LeadQualification, "lead-qualification");
scripted_workflow!(ContentGeneration, WorkflowType::ContentGeneration, "content-generation");
scripted_workflow!(TicketResolution, WorkflowType::TicketResolution, "ticket-resolution");
scripted_workflow!(Coordinator, WorkflowType::Coordinator, "coordinator");
scripted_workflow!(MemoryCompression, WorkflowType::MemoryCompression, "memory-compression");

/// Registers the six types on a worker.
pub fn register(
    options: temporalio_sdk::WorkerOptions,
) -> Result<temporalio_sdk::WorkerOptions, temporalio_sdk::WorkflowRegistrationError> {
    let mut options = options;
    options
        .register_workflow::<ClientOnboarding>()?
        .register_workflow::<LeadQualification>()?
        .register_workflow::<ContentGeneration>()?
        .register_workflow::<TicketResolution>()?
        .register_workflow::<Coordinator>()?
        .register_workflow::<MemoryCompression>()?;
    Ok(options)
}

/// Evaluates `$body` with `$ty` naming the workflow struct of `$kind` (one arm per type).
macro_rules! with_workflow_type {
    ($kind:expr, $ty:ident => $body:expr) => {{
        use $crate::workflows::temporal_engine::workflow_types as types;
        match $kind {
            WorkflowType::ClientOnboarding => {
                type $ty = types::ClientOnboarding;
                $body
            }
            WorkflowType::LeadQualification => {
                type $ty = types::LeadQualification;
                $body
            }
            WorkflowType::ContentGeneration => {
                type $ty = types::ContentGeneration;
                $body
            }
            WorkflowType::TicketResolution => {
                type $ty = types::TicketResolution;
                $body
            }
            WorkflowType::Coordinator => {
                type $ty = types::Coordinator;
                $body
            }
            WorkflowType::MemoryCompression => {
                type $ty = types::MemoryCompression;
                $body
            }
        }
    }};
}
pub(super) use with_workflow_type;

/// Starts a child workflow of `input.kind`; the future answers its end.
pub async fn start_child<W>(
    ctx: &WorkflowContext<W>,
    input: StartInput,
    options: ChildWorkflowOptions,
) -> Result<ChildEnd, ChildWorkflowStartError> {
    with_workflow_type!(input.params.kind(), T => {
        let started = ctx.start_child_workflow(T::run, input, options).await?;
        Ok(Box::pin(started.result()) as ChildEnd)
    })
}
