//! The toolsets a client selects with `?toolsets=` or `X-MCP-Toolsets`.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toolset {
    Company,
    Workers,
    Deals,
    Memory,
    Brain,
    Metrics,
    Coordinator,
}

impl Toolset {
    pub const ALL: [Toolset; 7] =
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
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}
