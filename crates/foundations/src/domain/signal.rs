//! The kinds of why-now signal a company statement can carry, and their ranking weights.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SignalKind {
    Expansion,
    Product,
    Acquisition,
    Divestiture,
    Partnership,
    Customer,
    LeadershipChange,
    Restructuring,
    CapitalRaise,
    Buyback,
    Dividend,
    Outlook,
    Hiring,
    Regulatory,
    Risk,
}

impl SignalKind {
    pub const ALL: [SignalKind; 15] = [
        Self::Expansion,
        Self::Product,
        Self::Acquisition,
        Self::Divestiture,
        Self::Partnership,
        Self::Customer,
        Self::LeadershipChange,
        Self::Restructuring,
        Self::CapitalRaise,
        Self::Buyback,
        Self::Dividend,
        Self::Outlook,
        Self::Hiring,
        Self::Regulatory,
        Self::Risk,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Expansion => "expansion",
            Self::Product => "product",
            Self::Acquisition => "acquisition",
            Self::Divestiture => "divestiture",
            Self::Partnership => "partnership",
            Self::Customer => "customer",
            Self::LeadershipChange => "leadership_change",
            Self::Restructuring => "restructuring",
            Self::CapitalRaise => "capital_raise",
            Self::Buyback => "buyback",
            Self::Dividend => "dividend",
            Self::Outlook => "outlook",
            Self::Hiring => "hiring",
            Self::Regulatory => "regulatory",
            Self::Risk => "risk",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// How much a go-to-market team cares about this kind of news (0–100). Used by the
    /// enrichment ranking together with recency; documented in docs/company-data.md.
    pub fn weight(self) -> u32 {
        match self {
            Self::Acquisition | Self::Expansion => 100,
            Self::LeadershipChange | Self::Partnership => 90,
            Self::Product | Self::CapitalRaise => 85,
            Self::Customer | Self::Restructuring => 80,
            Self::Hiring | Self::Divestiture => 75,
            Self::Outlook => 60,
            Self::Buyback | Self::Dividend => 50,
            Self::Regulatory => 40,
            Self::Risk => 30,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_name() {
        for k in SignalKind::ALL {
            assert_eq!(SignalKind::parse(k.as_str()), Some(k));
            let json = serde_json::to_string(&k).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", k.as_str()));
        }
    }
}
