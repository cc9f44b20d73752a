//! Which open deals to work first: a later stage first (negotiation before proposal before
//! qualification before prospecting), then the sooner close date, then the larger value, then
//! the id (so the order is total). The Brain's "which accounts should I call" answers with it.

use crate::store::DealRecord;

/// The open deals of `deals`, best first.
pub fn open_ranked(deals: &[DealRecord]) -> Vec<&DealRecord> {
    let mut open: Vec<&DealRecord> = deals.iter().filter(|d| !d.stage.is_closed()).collect();
    open.sort_by(|a, b| {
        b.stage
            .cmp(&a.stage)
            .then_with(|| a.close_date.cmp(&b.close_date))
            .then_with(|| b.value.cmp(&a.value))
            .then_with(|| a.id.cmp(&b.id))
    });
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ChampionStatus, DealType, Stage};

    fn deal(id: &str, stage: Stage, close: &str, value: u64) -> DealRecord {
        DealRecord {
            id: id.into(),
            account_name: id.to_uppercase(),
            company_slug: None,
            value,
            stage,
            deal_type: DealType::NewBusiness,
            rep: "r".into(),
            champion: "c".into(),
            champion_status: ChampionStatus::Engaged,
            close_date: close.into(),
            probability: 50,
            next_step: "n".into(),
            history: vec![],
            external_id: None,
        }
    }

    #[test]
    fn later_stages_then_sooner_closes_then_larger_values_and_no_closed_deal() {
        let deals = [
            deal("a", Stage::Proposal, "2026-12-01", 10),
            deal("b", Stage::Negotiation, "2027-01-01", 5),
            deal("c", Stage::Negotiation, "2026-12-15", 5),
            deal("d", Stage::Negotiation, "2026-12-15", 9),
            deal("e", Stage::ClosedWon, "2026-11-01", 99),
            deal("f", Stage::Prospecting, "2026-11-30", 99),
        ];
        let ids: Vec<&str> = open_ranked(&deals).iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["d", "c", "b", "a", "f"]);
    }
}
