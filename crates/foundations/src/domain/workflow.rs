//! Workflow vocabulary: the six registered workflow types (four startable through the API,
//! two internal), a workflow's status, a step's status, ticket priorities and approval
//! decisions — each parsed from its kebab-case name.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WorkflowType {
    ClientOnboarding,
    LeadQualification,
    ContentGeneration,
    TicketResolution,
    Coordinator,
    MemoryCompression,
}

impl WorkflowType {
    pub const ALL: [WorkflowType; 6] = [
        WorkflowType::ClientOnboarding,
        WorkflowType::LeadQualification,
        WorkflowType::ContentGeneration,
        WorkflowType::TicketResolution,
        WorkflowType::Coordinator,
        WorkflowType::MemoryCompression,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            WorkflowType::ClientOnboarding => "client-onboarding",
            WorkflowType::LeadQualification => "lead-qualification",
            WorkflowType::ContentGeneration => "content-generation",
            WorkflowType::TicketResolution => "ticket-resolution",
            WorkflowType::Coordinator => "coordinator",
            WorkflowType::MemoryCompression => "memory-compression",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Internal types are started by the appliance (the coordinator route, the scheduler),
    /// never by `POST /api/workers/:id/start`.
    pub fn is_internal(self) -> bool {
        matches!(self, WorkflowType::Coordinator | WorkflowType::MemoryCompression)
    }
}

impl std::fmt::Display for WorkflowType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A workflow's status. `waiting` means parked at a human approval gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WorkflowStatus {
    Running,
    Waiting,
    Completed,
    Failed,
    Cancelled,
}

impl WorkflowStatus {
    pub const ALL: [WorkflowStatus; 5] = [
        WorkflowStatus::Running,
        WorkflowStatus::Waiting,
        WorkflowStatus::Completed,
        WorkflowStatus::Failed,
        WorkflowStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            WorkflowStatus::Running => "running",
            WorkflowStatus::Waiting => "waiting",
            WorkflowStatus::Completed => "completed",
            WorkflowStatus::Failed => "failed",
            WorkflowStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Completed, failed and cancelled workflows never change again.
    pub fn is_terminal(self) -> bool {
        matches!(self, WorkflowStatus::Completed | WorkflowStatus::Failed | WorkflowStatus::Cancelled)
    }
}

/// A recorded step's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepStatus {
    /// Declared but not reached yet.
    Pending,
    Running,
    Waiting,
    Completed,
    Failed,
}

/// A support ticket's priority; it picks the SLA timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Low,
    Normal,
    High,
    Urgent,
}

impl Priority {
    pub const ALL: [Priority; 4] = [Priority::Low, Priority::Normal, Priority::High, Priority::Urgent];

    pub fn as_str(self) -> &'static str {
        match self {
            Priority::Low => "low",
            Priority::Normal => "normal",
            Priority::High => "high",
            Priority::Urgent => "urgent",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// A human's answer at an approval gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Approve,
    Reject,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Reject => "reject",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_internal_types_are_marked() {
        for t in WorkflowType::ALL {
            assert_eq!(WorkflowType::parse(t.as_str()), Some(t));
        }
        let internal: Vec<_> = WorkflowType::ALL.into_iter().filter(|t| t.is_internal()).collect();
        assert_eq!(internal, [WorkflowType::Coordinator, WorkflowType::MemoryCompression]);
        assert_eq!(WorkflowType::parse("discovery"), None);
        assert!(WorkflowStatus::ALL.iter().filter(|s| s.is_terminal()).count() == 3);
        assert_eq!(Priority::parse("urgent"), Some(Priority::Urgent));
        assert_eq!(Priority::parse("URGENT"), None);
    }
}
