//! The six registered workflow types as code: each declares its steps (in order, for views of
//! steps not reached yet) and its `next` function (see `script`). Required parameters are
//! checked at start by `params`.

mod compression;
mod content;
mod coordinator;
mod lead;
mod onboarding;
mod ticket;

use super::script::{Command, History, SlaTimers};
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

/// The required and optional parameters of `kind`.
pub fn params(kind: WorkflowType) -> (&'static [&'static str], &'static [&'static str]) {
    match kind {
        WorkflowType::ClientOnboarding => (&["accountId", "accountName"], &["tier"]),
        WorkflowType::LeadQualification => (&["leadId", "company", "contact"], &[]),
        WorkflowType::ContentGeneration => (&["contentType", "accountId"], &[]),
        WorkflowType::TicketResolution => (&["ticketId", "subject", "priority"], &[]),
        WorkflowType::Coordinator => (&["goal"], &[]),
        WorkflowType::MemoryCompression => (&[], &[]),
    }
}

/// The next command of a workflow of `kind` with history `h`.
pub fn next(kind: WorkflowType, h: &History, sla: &SlaTimers) -> Command {
    match kind {
        WorkflowType::ClientOnboarding => onboarding::next(h),
        WorkflowType::LeadQualification => lead::next(h),
        WorkflowType::ContentGeneration => content::next(h),
        WorkflowType::TicketResolution => ticket::next(h, sla),
        WorkflowType::Coordinator => coordinator::next(h),
        WorkflowType::MemoryCompression => compression::next(h),
    }
}
