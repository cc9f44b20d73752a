//! Pipeline view: total, open and weighted value; deal counts by stage; win rate =
//! won / (won + lost) by count (null when nothing has closed).

use serde::{Deserialize, Serialize};

use super::{MetricsData, View};
use crate::domain::Stage;
use crate::store::DealRecord;

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
    fn add(&mut self, stage: Stage) {
        *match stage {
            Stage::Prospecting => &mut self.prospecting,
            Stage::Qualification => &mut self.qualification,
            Stage::Proposal => &mut self.proposal,
            Stage::Negotiation => &mut self.negotiation,
            Stage::ClosedWon => &mut self.closed_won,
            Stage::ClosedLost => &mut self.closed_lost,
        } += 1;
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
        Self::of(&data.deals)
    }
}

impl PipelineView {
    /// The view of `deals` (the rollup's, and the Brain's on each question).
    pub fn of(deals: &[DealRecord]) -> Self {
        let open: Vec<_> = deals.iter().filter(|d| !d.stage.is_closed()).collect();
        let weighted: u64 = open.iter().map(|d| d.value * u64::from(d.probability)).sum::<u64>() / 100;
        let mut counts = StageCounts::default();
        deals.iter().for_each(|d| counts.add(d.stage));
        let (won, lost) = (counts.closed_won, counts.closed_lost);
        let win_rate = (won + lost > 0).then(|| (won as f64 / (won + lost) as f64 * 10_000.0).round() / 10_000.0);
        PipelineView {
            total_value: deals.iter().map(|d| d.value).sum(),
            open_value: open.iter().map(|d| d.value).sum(),
            weighted_value: weighted,
            deal_count: deals.len() as u64,
            counts_by_stage: counts,
            won,
            lost,
            win_rate,
        }
    }
}
