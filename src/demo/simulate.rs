//! The simulated team of demo mode (docs/grounded-brain.md, section 4): on each tick of its job
//! the simulated teammate decides the simulated approvals that have waited `DECIDE_AFTER_MS`
//! (by the store's clock), then, while fewer than `LIVE_CAP` simulated workflows are live, the
//! next workflow of a fixed rotation is started through the real workflow service — so
//! approvals arrive for people to decide, memory is written, `/ws` flows and the status page
//! shows a team at work. Everything it starts is marked simulated (`service::SIMULATED_MARK`
//! in the workflow id, `sim-` in the lead, ticket and account ids its memory keys are made of).
//! Deterministic: what a tick does follows from the workflows already there and the clock.

use serde_json::{Map, Value, json};

use crate::domain::{Decision, WorkflowType};
use crate::store::{AccountRecord, DealRecord, WorkflowRecord};
use crate::workflows::service::is_simulated;
use crate::workflows::{WorkflowError, WorkflowParams, Workflows};

/// Live simulated workflows (started by the simulator, children excluded) above which a tick
/// starts nothing.
pub const LIVE_CAP: usize = 4;
/// How long a simulated approval waits for a person before the simulated teammate decides it.
pub const DECIDE_AFTER_MS: i64 = 5 * 60 * 1000;
/// Ticks run at start-up, so a team is at work within seconds of `make run`.
pub const START_TICKS: usize = 2;

/// The rotation of what the simulated team starts: (worker, type).
const ROTATION: [(&str, WorkflowType); 8] = [
    ("coordinator", WorkflowType::Coordinator),
    ("support-resolver", WorkflowType::TicketResolution),
    ("sdr", WorkflowType::LeadQualification),
    ("content-writer", WorkflowType::ContentGeneration),
    ("account-researcher", WorkflowType::LeadQualification),
    ("onboarding-manager", WorkflowType::ClientOnboarding),
    ("deal-desk", WorkflowType::LeadQualification),
    ("support-resolver", WorkflowType::TicketResolution),
];
const SUBJECTS: [&str; 4] = [
    "SSO login fails after the IdP change",
    "Invoice shows the wrong seat count",
    "Export to CSV times out",
    "Dashboard is slow since Monday",
];
const PRIORITIES: [&str; 4] = ["normal", "high", "low", "urgent"];
const CONTENT_TYPES: [&str; 3] = ["email", "one-pager", "case-study"];
const TIERS: [&str; 3] = ["standard", "premium", "enterprise"];

/// What one tick did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tick {
    /// Workflow ids whose approval the simulated teammate decided.
    pub decided: Vec<String>,
    /// The workflow started, when one was.
    pub started: Option<String>,
}

/// The workspace a tick reads.
pub struct Workspace<'a> {
    pub workflows: &'a [WorkflowRecord],
    pub deals: &'a [DealRecord],
    pub accounts: &'a [AccountRecord],
    pub now_ms: i64,
}

/// What a tick should do, decided from the workspace alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub decide: Vec<String>,
    pub start: Option<(&'static str, WorkflowParams)>,
}

/// Simulated top-level workflows (children excluded).
fn started_by_simulator(workflows: &[WorkflowRecord]) -> impl Iterator<Item = &WorkflowRecord> {
    workflows.iter().filter(|w| is_simulated(&w.id) && w.parent.is_none())
}

pub fn plan(w: &Workspace) -> Result<Plan, WorkflowError> {
    let decide: Vec<String> = w
        .workflows
        .iter()
        .filter(|r| is_simulated(&r.id) && !r.status.is_terminal())
        .filter(|r| r.approval.as_ref().is_some_and(|a| a.is_pending() && w.now_ms - a.requested_ms >= DECIDE_AFTER_MS))
        .map(|r| r.id.clone())
        .collect();
    let live = started_by_simulator(w.workflows).filter(|r| !r.status.is_terminal() && !decide.contains(&r.id)).count();
    if live >= LIVE_CAP {
        return Ok(Plan { decide, start: None });
    }
    let n = started_by_simulator(w.workflows).count();
    let (worker, kind) = ROTATION[n % ROTATION.len()];
    let params = WorkflowParams::parse(kind, params(kind, n, w)).map_err(|e| WorkflowError::BadInput(e.to_string()))?;
    Ok(Plan { decide, start: Some((worker, params)) })
}

/// The `n`th simulated start's parameters: ids marked `sim-`, names from the demo workspace.
fn params(kind: WorkflowType, n: usize, w: &Workspace) -> Map<String, Value> {
    let pick = |names: Vec<&str>| names.get(n % names.len().max(1)).copied().unwrap_or("Acme Corp").to_owned();
    let open = || pick(w.deals.iter().filter(|d| !d.stage.is_closed()).map(|d| d.account_name.as_str()).collect());
    let value = match kind {
        WorkflowType::Coordinator => {
            json!({ "goal": format!("Prepare this week's outreach to {} (simulated)", open()) })
        }
        WorkflowType::TicketResolution => json!({
            "ticketId": format!("sim-T-{n:05}"),
            "subject": SUBJECTS[n % SUBJECTS.len()],
            "priority": PRIORITIES[n % PRIORITIES.len()],
        }),
        WorkflowType::LeadQualification => json!({
            "leadId": format!("sim-lead-{n:05}"),
            "company": open(),
            "contact": "Head of operations (simulated lead)",
        }),
        WorkflowType::ContentGeneration => json!({
            "contentType": CONTENT_TYPES[n % CONTENT_TYPES.len()],
            "accountId": pick(w.accounts.iter().map(|a| a.id.as_str()).collect()),
        }),
        WorkflowType::ClientOnboarding => json!({
            "accountId": format!("sim-acct-{n:05}"),
            "accountName": pick(w.deals.iter().filter(|d| d.stage.is_closed()).map(|d| d.account_name.as_str()).collect()),
            "tier": TIERS[n % TIERS.len()],
        }),
        WorkflowType::MemoryCompression => json!({}),
    };
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// One tick: read the workspace, decide and start as `plan` says.
pub async fn tick(workflows: &Workflows) -> Result<Tick, WorkflowError> {
    let store = workflows.store();
    let records = workflows.engine().list().await?;
    let (deals, accounts) = (store.deals().await?, store.accounts().await?);
    let plan = plan(&Workspace { workflows: &records, deals: &deals, accounts: &accounts, now_ms: store.now_ms() })?;
    let mut done = Tick::default();
    for id in plan.decide {
        // A person may have decided it since it was read: that is their call, not a failure.
        match workflows.decide_simulated(&id, Decision::Approve).await {
            Ok(_) => done.decided.push(id),
            Err(e) => tracing::debug!(workflow = %id, error = %e, "the simulated teammate did not decide"),
        }
    }
    if let Some((worker, params)) = plan.start {
        done.started = Some(workflows.start_simulated(worker, params).await?);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::WorkflowStatus;
    use crate::store::ApprovalRecord;

    fn waiting(id: &str, requested_ms: i64) -> WorkflowRecord {
        let mut w =
            WorkflowRecord::started(id.into(), WorkflowType::TicketResolution, "w".into(), "{}".into(), None, 0);
        w.status = WorkflowStatus::Waiting;
        w.approval = Some(ApprovalRecord {
            step: "review".into(),
            summary: "s".into(),
            requested_ms,
            deadline_ms: None,
            decision: None,
            comment: None,
            decided_ms: None,
            decided_by: None,
        });
        w
    }

    fn plan_at(workflows: &[WorkflowRecord], now_ms: i64) -> Plan {
        plan(&Workspace { workflows, deals: &[], accounts: &[], now_ms }).expect("plan")
    }

    #[test]
    fn only_simulated_approvals_that_waited_five_minutes_are_decided_and_the_cap_holds_starts() {
        let people = waiting("ticket-resolution-abc", 0);
        let old = waiting("ticket-resolution-sim-1", 0);
        let young = waiting("ticket-resolution-sim-2", 1);
        let p = plan_at(&[people.clone(), old.clone(), young.clone()], DECIDE_AFTER_MS);
        assert_eq!(p.decide, ["ticket-resolution-sim-1"]);
        let (worker, params) = p.start.expect("two live: a start");
        assert_eq!((worker, params.kind()), ("sdr", WorkflowType::LeadQualification), "the rotation's third start");
        let live: Vec<WorkflowRecord> = (0..LIVE_CAP).map(|n| waiting(&format!("x-sim-{n}"), 0)).collect();
        assert!(plan_at(&live, 1).start.is_none(), "at the cap nothing starts");
        assert_eq!(plan_at(&live, DECIDE_AFTER_MS).decide.len(), LIVE_CAP);
        assert!(plan_at(&live, DECIDE_AFTER_MS).start.is_some(), "what is decided this tick no longer counts");
    }
}
