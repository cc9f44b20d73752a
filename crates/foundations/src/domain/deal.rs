//! Deal pipeline vocabulary: stages (open ones in order, then the two closed ones), deal types
//! and champion status, each parsed from its kebab-case name.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Prospecting,
    Qualification,
    Proposal,
    Negotiation,
    ClosedWon,
    ClosedLost,
}

impl Stage {
    pub const ALL: [Stage; 6] = [
        Stage::Prospecting,
        Stage::Qualification,
        Stage::Proposal,
        Stage::Negotiation,
        Stage::ClosedWon,
        Stage::ClosedLost,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Prospecting => "prospecting",
            Stage::Qualification => "qualification",
            Stage::Proposal => "proposal",
            Stage::Negotiation => "negotiation",
            Stage::ClosedWon => "closed-won",
            Stage::ClosedLost => "closed-lost",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The stage as people read it ("Closed won").
    pub fn label(self) -> &'static str {
        match self {
            Stage::Prospecting => "Prospecting",
            Stage::Qualification => "Qualification",
            Stage::Proposal => "Proposal",
            Stage::Negotiation => "Negotiation",
            Stage::ClosedWon => "Closed won",
            Stage::ClosedLost => "Closed lost",
        }
    }

    pub fn is_closed(self) -> bool {
        matches!(self, Stage::ClosedWon | Stage::ClosedLost)
    }

    /// Whether a deal may move from `self` to `to`: open stages move forward, or straight to
    /// either closed stage; closed stages are final.
    pub fn can_move_to(self, to: Stage) -> bool {
        !self.is_closed() && (to.is_closed() || to > self)
    }

    /// The probability a stage implies, in percent.
    pub fn default_probability(self) -> u8 {
        match self {
            Stage::Prospecting => 10,
            Stage::Qualification => 20,
            Stage::Proposal => 60,
            Stage::Negotiation => 80,
            Stage::ClosedWon => 100,
            Stage::ClosedLost => 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DealType {
    NewBusiness,
    Expansion,
    Renewal,
}

impl DealType {
    pub const ALL: [DealType; 3] = [DealType::NewBusiness, DealType::Expansion, DealType::Renewal];

    pub fn as_str(self) -> &'static str {
        match self {
            DealType::NewBusiness => "new-business",
            DealType::Expansion => "expansion",
            DealType::Renewal => "renewal",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChampionStatus {
    Engaged,
    AtRisk,
    Lost,
    Unknown,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_stages_move_forward_or_close_and_closed_ones_are_final() {
        assert!(Stage::Prospecting.can_move_to(Stage::Proposal));
        assert!(Stage::Negotiation.can_move_to(Stage::ClosedLost));
        assert!(Stage::Qualification.can_move_to(Stage::ClosedWon));
        assert!(!Stage::Proposal.can_move_to(Stage::Qualification));
        assert!(!Stage::Proposal.can_move_to(Stage::Proposal));
        assert!(!Stage::ClosedWon.can_move_to(Stage::ClosedLost));
        assert!(!Stage::ClosedLost.can_move_to(Stage::Negotiation));
    }

    #[test]
    fn names_round_trip() {
        for s in Stage::ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
        }
        for t in DealType::ALL {
            assert_eq!(DealType::parse(t.as_str()), Some(t));
        }
        assert_eq!(Stage::parse("won"), None);
        assert_eq!(Stage::parse("discovery"), None, "not a stage of the spec");
    }
}
