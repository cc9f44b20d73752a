//! The toolsets a client selects with `?toolsets=` or `X-MCP-Toolsets`. The seven of
//! DESIGN.md are served by default (53 tools); `controls` (the agent controls of issue work
//! after DESIGN.md's list: the audit log) only when asked for, so the default count stays.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toolset {
    Company,
    Workers,
    Deals,
    Memory,
    Brain,
    Metrics,
    Coordinator,
    Controls,
}

impl Toolset {
    /// Every toolset, in the order the guide lists them.
    pub const ALL: [Toolset; 8] = [
        Self::Company,
        Self::Workers,
        Self::Deals,
        Self::Memory,
        Self::Brain,
        Self::Metrics,
        Self::Coordinator,
        Self::Controls,
    ];

    /// What a caller sees without naming toolsets (and what `readonly` alone widens to).
    pub const DEFAULT: [Toolset; 7] =
        [Self::Company, Self::Workers, Self::Deals, Self::Memory, Self::Brain, Self::Metrics, Self::Coordinator];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Company => "company",
            Self::Workers => "workers",
            Self::Deals => "deals",
            Self::Memory => "memory",
            Self::Brain => "brain",
            Self::Metrics => "metrics",
            Self::Coordinator => "coordinator",
            Self::Controls => "controls",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}
