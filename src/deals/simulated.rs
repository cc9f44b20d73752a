//! Deals the demo's simulated team opens and moves (docs/grounded-brain.md, section 4). Each
//! carries an `externalId` that starts with `store::SIMULATED_DEAL_PREFIX`, which is how
//! `gtms demo-reset` finds it; a deal without that mark — one a person entered or imported, or
//! the demo workspace's own — is never moved here. The writes go through the same record rules
//! as a person's (`DealDraft`, the PATCH stage rules) and are announced as `deal.updated`.

use super::create::insert;
use super::update::{apply, change};
use super::{DealDetail, DealDraft, DealError, DealUpdate};
use crate::auth::SystemProof;
use crate::domain::{CalendarDate, Stage};
use crate::store::{DealRecord, SIMULATED_DEAL_PREFIX, Store, is_simulated_deal};

/// Whether the simulated team made this deal.
pub fn is_simulated(deal: &DealRecord) -> bool {
    is_simulated_deal(deal.external_id.as_deref())
}

/// Opens a simulated deal; its `externalId` must carry the mark.
#[tracing::instrument(level = "debug", skip_all, fields(by = %by.author()))]
pub async fn open_simulated(
    store: &Store,
    by: &SystemProof,
    draft: DealDraft,
    today: CalendarDate,
) -> Result<DealDetail, DealError> {
    if !is_simulated_deal(draft.external_id.as_deref()) {
        return Err(DealError::Invalid(format!("a simulated deal's externalId starts with {SIMULATED_DEAL_PREFIX}")));
    }
    insert(store, draft, "opened by the simulated team", today).await
}

/// Moves a simulated deal to `to` under the PATCH stage rules (forward, or closed).
#[tracing::instrument(level = "debug", skip_all, fields(by = %by.author(), deal = %id))]
pub async fn move_simulated(
    store: &Store,
    by: &SystemProof,
    id: &str,
    to: Stage,
    today: CalendarDate,
) -> Result<DealDetail, DealError> {
    change(store, id, move |deal| {
        if !is_simulated(&deal) {
            return Err(DealError::Conflict(format!("deal {} was not opened by the simulated team", deal.id)));
        }
        apply(deal, DealUpdate { stage: Some(to), ..Default::default() }, today)
    })
    .await
}
