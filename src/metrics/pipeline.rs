//! Pipeline view: total, open and weighted value; deal counts by stage; win rate =
//! won / (won + lost) by count (null when nothing has closed).

use serde::{Deserialize, Serialize};

use super::{MetricsData, View};
use crate::domain::{DealType, Stage};
use crate::store::DealTally;

/// Deals per stage, every stage present, in pipeline order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StageCounts {
    pub prospecting: u64,
    pub qualification: u64,
    pub proposal: u64,
    pub negotiation: u64,
    #[serde(rename = "closed-won")]
    pub closed_won: u64,
    #[serde(rename = "closed-lost")]
    pub closed_lost: u64,
}

impl StageCounts {
    fn add(&mut self, stage: Stage, n: u64) {
        *match stage {
            Stage::Prospecting => &mut self.prospecting,
            Stage::Qualification => &mut self.qualification,
            Stage::Proposal => &mut self.proposal,
            Stage::Negotiation => &mut self.negotiation,
            Stage::ClosedWon => &mut self.closed_won,
            Stage::ClosedLost => &mut self.closed_lost,
        } += n;
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PipelineView {
    /// Every deal's value summed (USD).
    pub total_value: u64,
    /// Open deals' value summed (USD).
    pub open_value: u64,
    /// Σ open value × probability, whole USD.
    pub weighted_value: u64,
    pub deal_count: u64,
    pub counts_by_stage: StageCounts,
    pub won: u64,
    pub lost: u64,
    /// won / (won + lost) by count, 4 decimals; null while nothing has closed.
    pub win_rate: Option<f64>,
}

impl View for PipelineView {
    const NAME: &'static str = "pipeline";

    fn compute(data: &MetricsData) -> Self {
        Self::from_tallies(&data.deals)
    }
}

impl PipelineView {
    /// The view from the deals' tallies per (stage, type), from the deal index (the rollup's, and
    /// the Brain's on each question: no deal is read).
    pub fn from_tallies(tallies: &[(Stage, DealType, DealTally)]) -> Self {
        let mut counts = StageCounts::default();
        let (mut total, mut open, mut weighted, mut deal_count) = (0, 0, 0, 0);
        for (stage, _, tally) in tallies {
            counts.add(*stage, tally.count);
            total += tally.value;
            deal_count += tally.count;
            if !stage.is_closed() {
                open += tally.value;
                weighted += tally.weighted;
            }
        }
        let (won, lost) = (counts.closed_won, counts.closed_lost);
        let win_rate = (won + lost > 0).then(|| (won as f64 / (won + lost) as f64 * 10_000.0).round() / 10_000.0);
        PipelineView {
            total_value: total,
            open_value: open,
            weighted_value: weighted / 100,
            deal_count,
            counts_by_stage: counts,
            won,
            lost,
            win_rate,
        }
    }
}
