//! Admin updates of a deal: the body is parsed into typed fields (`Stage`, `Percent`,
//! `CalendarDate`) at the edge, checked against the caller's role and the text limits, then
//! applied inside one store transaction where the stage rules see the current record.

use serde::Deserialize;

use super::{DealDetail, DealError, TEXT_LIMIT};
use crate::auth::AdminProof;
use crate::domain::{CalendarDate, ChampionStatus, Percent, Stage};
use crate::store::{DealRecord, HistoryEntry, Store};

/// A PATCH body; unknown fields are refused by serde.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DealUpdate {
    /// A later open stage, or closed-won / closed-lost. Closed deals are final.
    pub stage: Option<Stage>,
    pub next_step: Option<String>,
    pub champion: Option<String>,
    pub champion_status: Option<ChampionStatus>,
    /// Percent, 0–100 (ignored once the deal is closed).
    pub probability: Option<Percent>,
    /// YYYY-MM-DD.
    pub close_date: Option<CalendarDate>,
}

/// Applies an admin update. Stage moves: open stages forward or to a closed stage; closed
/// deals are final (409). Every move appends `moved to <stage>` dated `today`.
#[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub, deal = %id))]
pub async fn update(
    store: &Store,
    admin: AdminProof<'_>,
    id: &str,
    update: DealUpdate,
    today: CalendarDate,
) -> Result<DealDetail, DealError> {
    check_text(&update)?;
    let fields = changed_fields(&update);
    let deal = change(store, id, move |deal| apply(deal, update, today)).await?;
    let detail = [("fields", fields), ("stage", deal.summary.stage.as_str().to_owned())];
    crate::audit::record(store, admin, "deal.update", id, &detail).await;
    Ok(deal)
}

/// The fields an update sets, by their API names (what the audit log records).
fn changed_fields(update: &DealUpdate) -> String {
    let set = [
        ("stage", update.stage.is_some()),
        ("nextStep", update.next_step.is_some()),
        ("champion", update.champion.is_some()),
        ("championStatus", update.champion_status.is_some()),
        ("probability", update.probability.is_some()),
        ("closeDate", update.close_date.is_some()),
    ];
    set.iter().filter(|(_, is_set)| *is_set).map(|(name, _)| *name).collect::<Vec<_>>().join(",")
}

/// Changes deal `id` as `change` says inside one store transaction (which sees the current
/// record) and announces the result as `deal.updated`.
pub(super) async fn change(
    store: &Store,
    id: &str,
    change: impl FnOnce(DealRecord) -> Result<DealRecord, DealError> + Send + 'static,
) -> Result<DealDetail, DealError> {
    match store.update_deal(id, change).await? {
        None => Err(DealError::NotFound(id.to_owned())),
        Some(Err(e)) => Err(e),
        Some(Ok(deal)) => Ok(store.events().publish_value(crate::events::DEAL_UPDATED, DealDetail::from(&deal))),
    }
}

fn check_text(update: &DealUpdate) -> Result<(), DealError> {
    let too_long = |f: &Option<String>| f.as_ref().is_some_and(|v| v.chars().count() > TEXT_LIMIT);
    if too_long(&update.next_step) || too_long(&update.champion) {
        return Err(DealError::Invalid(format!("text fields are limited to {TEXT_LIMIT} characters")));
    }
    Ok(())
}

/// The update applied to the current record, or the rule it breaks.
pub(super) fn apply(mut deal: DealRecord, update: DealUpdate, today: CalendarDate) -> Result<DealRecord, DealError> {
    if deal.stage.is_closed() {
        return Err(DealError::Conflict(format!("deal {} is {} and final", deal.id, deal.stage.as_str())));
    }
    if let Some(to) = update.stage {
        if !deal.stage.can_move_to(to) {
            return Err(DealError::Conflict(format!(
                "a deal in {} can move forward or close, not to {}",
                deal.stage.as_str(),
                to.as_str()
            )));
        }
        deal.stage = to;
        deal.history.push(HistoryEntry { date: today.to_string(), action: format!("moved to {}", to.as_str()) });
        if to.is_closed() {
            deal.probability = to.default_probability();
            deal.next_step.clear();
        }
    }
    if let Some(p) = update.probability.filter(|_| !deal.stage.is_closed()) {
        deal.probability = p.get();
    }
    if let Some(v) = update.next_step {
        deal.next_step = v;
    }
    if let Some(v) = update.champion {
        deal.champion = v;
    }
    if let Some(v) = update.champion_status {
        deal.champion_status = v;
    }
    if let Some(v) = update.close_date {
        deal.close_date = v.to_string();
    }
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ChampionStatus, DealType};

    fn deal(stage: Stage) -> DealRecord {
        DealRecord {
            id: "deal-1".into(),
            account_name: "A".into(),
            company_slug: None,
            value: 100,
            stage,
            deal_type: DealType::NewBusiness,
            rep: "r".into(),
            champion: "c".into(),
            champion_status: ChampionStatus::Unknown,
            close_date: "2027-01-01".into(),
            probability: 10,
            next_step: "n".into(),
            history: vec![],
            external_id: None,
        }
    }

    fn today() -> CalendarDate {
        CalendarDate::parse("2026-11-22").unwrap()
    }

    #[test]
    fn closing_a_deal_records_the_move_and_fixes_its_probability() {
        let update = DealUpdate { stage: Some(Stage::ClosedWon), ..Default::default() };
        let closed = apply(deal(Stage::Proposal), update, today()).ok();
        let closed = closed.as_ref().map(|d| (d.stage, d.probability, d.history.last().map(|h| h.action.as_str())));
        assert_eq!(closed, Some((Stage::ClosedWon, 100, Some("moved to closed-won"))));
    }

    #[test]
    fn backward_moves_and_closed_deals_are_conflicts() {
        let back = DealUpdate { stage: Some(Stage::Prospecting), ..Default::default() };
        assert!(matches!(apply(deal(Stage::Proposal), back, today()), Err(DealError::Conflict(_))));
        let note = DealUpdate { next_step: Some("x".into()), ..Default::default() };
        assert!(matches!(apply(deal(Stage::ClosedLost), note, today()), Err(DealError::Conflict(_))));
    }
}
