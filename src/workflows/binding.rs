//! Approvals bound to the action they approve (issue 28; DESIGN.md "Agent controls"). When a
//! gate opens, the appliance records a SHA-256 of what the approval is for — the workflow, its
//! parameters, the gate and every step output it acts on — together with what it acts on in the
//! workspace: the account and the stage of each of its deals, and for a `budget` gate the limits
//! admins set on the worker and the workspace (`Basis`). At decision time the
//! workflow service computes it again: when it differs, the decision is refused (409, saying what
//! changed and both hashes) and the request is raised afresh with what holds now, so what is
//! approved is what will happen. Requests opened before this existed have no binding and are
//! decided as before.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::params::WorkflowParams;
use crate::domain::{Stage, StepStatus};
use crate::store::{BindingRecord, Store, StoreError, WorkflowRecord};

/// Deals of one account looked at, at most.
const MAX_DEALS: usize = 500;

/// What an approval acts on, as it stood when it was bound.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Basis {
    /// The account (`<id> (<name>)`, or `<id> (not in the workspace)`), when the action has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The deals of the account's name, by id, with their stage.
    pub deals: Vec<DealStage>,
    /// For a `budget` gate: the limits admins set on the worker and the workspace
    /// (`budgets::set_limits`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub budgets: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DealStage {
    pub id: String,
    pub stage: Stage,
}

/// What `GET /api/coordinator/approvals` shows of a request's binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BindingView {
    /// SHA-256 (hex) of the action and what it acts on, as requested.
    pub sha256: String,
    #[serde(flatten)]
    pub basis: Basis,
    /// How many times the request was raised again because what it acts on changed.
    pub refreshed: u32,
}

/// A binding: the hash and what it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub hash: String,
    pub basis: Basis,
}

/// The pending request's binding no longer holds.
#[derive(Debug, Clone)]
pub struct Stale {
    /// What changed, in words (`deal d-7 moved from negotiation to closed-lost`).
    pub what: String,
    pub requested: String,
    pub now: Binding,
}

/// The binding of `record`'s pending request as the workspace stands now (`None` when no gate
/// is pending).
pub async fn bind(store: &Store, record: &WorkflowRecord) -> Result<Option<Binding>, StoreError> {
    let Some(approval) = record.approval.as_ref().filter(|a| a.is_pending()) else { return Ok(None) };
    let (account_id, account_name) = match WorkflowParams::from_text(record.kind, &record.params) {
        Ok(WorkflowParams::ContentGeneration(p)) => (Some(p.account_id.to_string()), None),
        Ok(WorkflowParams::ClientOnboarding(p)) => (Some(p.account_id.to_string()), Some(p.account_name.to_string())),
        _ => (None, None),
    };
    let mut basis = Basis::default();
    let mut name = account_name;
    if let Some(id) = &account_id {
        let account = store.account(id).await?;
        basis.account = Some(match &account {
            Some(a) => format!("{id} ({})", a.name),
            None => format!("{id} (not in the workspace)"),
        });
        name = name.or(account.map(|a| a.name));
    }
    if let Some(name) = name {
        let rows = store.deals_of_account(&name, MAX_DEALS);
        basis.deals = rows.into_iter().map(|d| DealStage { id: d.id.to_string(), stage: d.stage }).collect();
    }
    if approval.step == super::budget_gate::BUDGET_STEP {
        basis.budgets = crate::budgets::set_limits(store, &record.worker).await?;
    }
    let steps: Vec<_> =
        record.steps.iter().filter(|s| s.status == StepStatus::Completed).map(|s| json!([s.name, s.output])).collect();
    let action = json!({
        "workflow": record.id, "type": record.kind, "params": record.params, "gate": approval.step, "steps": steps,
    });
    let covered = json!({"action": action, "basis": basis});
    let hash = hex::encode(Sha256::digest(covered.to_string().as_bytes()));
    Ok(Some(Binding { hash, basis }))
}

/// Binds `record`'s pending request (when a gate opened); a failure is logged, and the request
/// is then decided without a check, as one from before bindings existed.
pub async fn record(store: &Store, record: &WorkflowRecord) {
    let Some(requested_ms) = pending_request(record) else { return };
    let bound = match bind(store, record).await {
        Ok(Some(b)) => b,
        Ok(None) => return,
        Err(e) => {
            tracing::error!(workflow = %record.id, error = %e, "could not bind the approval request");
            return;
        }
    };
    let entry =
        BindingRecord { hash: bound.hash, basis: basis_text(&bound.basis), bound_ms: requested_ms, refreshed: 0 };
    if let Err(e) = store.put_binding(&record.id, requested_ms, entry).await {
        tracing::error!(workflow = %record.id, error = %e, "could not record the approval's binding");
    }
}

fn basis_text(basis: &Basis) -> String {
    serde_json::to_string(basis).unwrap_or_default()
}

fn basis_of(bound: &BindingRecord) -> Basis {
    serde_json::from_str(&bound.basis).unwrap_or_default()
}

/// When `record`'s pending approval was requested (`None`: nothing pending).
fn pending_request(record: &WorkflowRecord) -> Option<i64> {
    record.approval.as_ref().filter(|a| a.is_pending()).map(|a| a.requested_ms)
}

/// The recorded binding of `record`'s pending request, read back.
pub async fn recorded(store: &Store, record: &WorkflowRecord) -> Result<Option<(BindingRecord, Basis)>, StoreError> {
    let Some(requested_ms) = pending_request(record) else { return Ok(None) };
    Ok(store.binding(&record.id, requested_ms).await?.map(|b| {
        let basis = basis_of(&b);
        (b, basis)
    }))
}

/// The views of `records`' recorded bindings (`None` where a record has none), in their
/// order, read in one transaction.
pub async fn views(store: &Store, records: &[WorkflowRecord]) -> Result<Vec<Option<BindingView>>, StoreError> {
    let asked: Vec<(String, i64)> = records.iter().filter_map(|r| Some((r.id.clone(), pending_request(r)?))).collect();
    let mut found = store.bindings(asked).await?.into_iter();
    let view = |b: BindingRecord| BindingView { basis: basis_of(&b), sha256: b.hash, refreshed: b.refreshed };
    Ok(records.iter().map(|r| pending_request(r).and_then(|_| found.next().flatten().map(view))).collect())
}

/// Whether `record`'s pending request still holds; when it does not, raises it afresh (the new
/// binding recorded) and says what changed.
pub async fn check(store: &Store, record: &WorkflowRecord) -> Result<Option<Stale>, StoreError> {
    let Some((bound, was)) = recorded(store, record).await? else { return Ok(None) };
    let Some(now) = bind(store, record).await? else { return Ok(None) };
    if now.hash == bound.hash {
        return Ok(None);
    }
    let what = what_changed(&was, &now.basis);
    let requested_ms = record.approval.as_ref().map_or(0, |a| a.requested_ms);
    let fresh = BindingRecord {
        hash: now.hash.clone(),
        basis: basis_text(&now.basis),
        bound_ms: store.now_ms(),
        refreshed: bound.refreshed + 1,
    };
    store.put_binding(&record.id, requested_ms, fresh).await?;
    Ok(Some(Stale { what, requested: bound.hash, now }))
}

/// What differs between two bases, in words.
pub fn what_changed(was: &Basis, now: &Basis) -> String {
    let mut changes = Vec::new();
    if was.account != now.account {
        let show = |a: &Option<String>| a.clone().unwrap_or_else(|| "none".into());
        changes.push(format!("the account was {}, now {}", show(&was.account), show(&now.account)));
    }
    for deal in &was.deals {
        match now.deals.iter().find(|d| d.id == deal.id) {
            Some(d) if d.stage != deal.stage => {
                changes.push(format!("deal {} moved from {} to {}", deal.id, deal.stage.as_str(), d.stage.as_str()))
            }
            Some(_) => {}
            None => changes.push(format!("deal {} was removed", deal.id)),
        }
    }
    for deal in now.deals.iter().filter(|d| !was.deals.iter().any(|w| w.id == d.id)) {
        changes.push(format!("deal {} ({}) was added", deal.id, deal.stage.as_str()));
    }
    if was.budgets != now.budgets {
        changes.push(format!("the budget was {}, now {}", was.budgets.join("; "), now.budgets.join("; ")));
    }
    if changes.is_empty() {
        return "what the approval acts on changed".into();
    }
    changes.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(id: &str, stage: Stage) -> DealStage {
        DealStage { id: id.into(), stage }
    }

    /// The deals of the account an onboarding approval names, when far more than `MAX_DEALS`
    /// deals share its first word: found by the whole name, whatever sorts before them.
    #[tokio::test]
    async fn the_basis_holds_the_accounts_own_deals_among_thousands_sharing_its_first_word() {
        use crate::domain::{ChampionStatus, DealType, WorkflowType};
        use crate::store::{ApprovalRecord, DealRecord};
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("b.redb")).expect("open");
        let record_of = |id: String, account: String, stage| DealRecord {
            id,
            account_name: account,
            company_slug: None,
            value: 1_000,
            stage,
            deal_type: DealType::NewBusiness,
            rep: "Rep 01".into(),
            champion: "c".into(),
            champion_status: ChampionStatus::Engaged,
            close_date: "2027-01-01".into(),
            probability: 50,
            next_step: "n".into(),
            history: vec![],
            external_id: None,
        };
        let mut deals: Vec<DealRecord> = (0..MAX_DEALS + 100)
            .map(|n| record_of(format!("d{n:04}"), format!("Northwind Traders {n}"), Stage::Prospecting))
            .collect();
        deals.push(record_of("z1".into(), "NORTHWIND TRADERS 599".into(), Stage::Negotiation));
        store.plan_deals(true, move |_| Ok::<_, ()>((deals, ()))).await.expect("store").expect("plan");
        let params = r#"{"accountId":"acc-1","accountName":"Northwind Traders 599"}"#;
        let mut record = WorkflowRecord::started(
            "onboarding-1".into(),
            WorkflowType::ClientOnboarding,
            "client-success".into(),
            params.into(),
            None,
            1,
        );
        record.approval = Some(ApprovalRecord {
            step: "review".into(),
            summary: "s".into(),
            requested_ms: 2,
            deadline_ms: None,
            decision: None,
            comment: None,
            decided_ms: None,
            decided_by: None,
        });
        let bound = bind(&store, &record).await.expect("bind").expect("a pending gate");
        assert_eq!(bound.basis.deals, [deal("d0599", Stage::Prospecting), deal("z1", Stage::Negotiation)]);
    }

    #[test]
    fn what_changed_names_each_deal_and_the_account() {
        let was = Basis {
            account: Some("a-1 (Acme)".into()),
            deals: vec![deal("d-1", Stage::Negotiation), deal("d-2", Stage::Prospecting)],
            budgets: Vec::new(),
        };
        let now = Basis {
            account: Some("a-1 (not in the workspace)".into()),
            deals: vec![deal("d-1", Stage::ClosedLost), deal("d-3", Stage::Qualification)],
            budgets: Vec::new(),
        };
        assert_eq!(
            what_changed(&was, &now),
            "the account was a-1 (Acme), now a-1 (not in the workspace); deal d-1 moved from negotiation to \
             closed-lost; deal d-2 was removed; deal d-3 (qualification) was added"
        );
        assert_eq!(what_changed(&was, &was), "what the approval acts on changed");
        let raised = Basis { budgets: vec!["worker/sdr: 2000 a day, none a month".into()], ..was.clone() };
        let set = Basis { budgets: vec!["worker/sdr: 1000 a day, none a month".into()], ..was };
        assert_eq!(
            what_changed(&set, &raised),
            "the budget was worker/sdr: 1000 a day, none a month, now worker/sdr: 2000 a day, none a month"
        );
    }
}
