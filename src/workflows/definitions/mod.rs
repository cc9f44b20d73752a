//! The six registered workflow types as code: each declares its steps (in order, for views of
//! steps not reached yet) and its `next` function (see `script`). Required parameters are
//! those of `params`, read where a workflow is asked for.

mod compression;
mod content;
mod coordinator;
mod lead;
mod onboarding;
mod ticket;

use super::params::WorkflowParams;
use super::script::{Command, Deadlines, History};
use crate::domain::WorkflowType;

/// The steps of `kind` in the order they normally run.
pub fn steps(kind: WorkflowType) -> &'static [&'static str] {
    match kind {
        WorkflowType::ClientOnboarding => onboarding::STEPS,
        WorkflowType::LeadQualification => lead::STEPS,
        WorkflowType::ContentGeneration => content::STEPS,
        WorkflowType::TicketResolution => ticket::STEPS,
        WorkflowType::Coordinator => coordinator::STEPS,
        WorkflowType::MemoryCompression => compression::STEPS,
    }
}

/// The next command of the workflow with history `h` (its type is its parameters' type).
pub fn next(h: &History, deadlines: &Deadlines) -> Command {
    match &h.params {
        WorkflowParams::ClientOnboarding(p) => onboarding::next(h, p, deadlines),
        WorkflowParams::LeadQualification(p) => lead::next(h, p),
        WorkflowParams::ContentGeneration(p) => content::next(h, p, deadlines),
        WorkflowParams::TicketResolution(p) => ticket::next(h, p, deadlines),
        WorkflowParams::Coordinator(p) => coordinator::next(h, p),
        WorkflowParams::MemoryCompression(_) => compression::next(h),
    }
}
