//! The simulated team of demo mode (docs/grounded-brain.md, section 4): on each tick of its job
//! the simulated teammate decides the simulated approvals that have waited `DECIDE_AFTER_MS`
//! (by the store's clock), then, while fewer than `LIVE_CAP` simulated workflows are live, the
//! next workflow of a fixed rotation is started through the real workflow service — so
//! approvals arrive for people to decide, memory is written, `/ws` flows and the status page
//! shows a team at work. Every `DEAL_EVERY`th start also moves the pipeline: it opens a
//! simulated deal while fewer than `DEALS_OPEN` are open, else moves the open one that has moved
//! least one stage on (closing it won, or every third lost). Everything it makes is marked
//! simulated (`service::SIMULATED_MARK` in the workflow id, `sim-` in the lead, ticket and
//! account ids its memory keys are made of, `store::SIMULATED_DEAL_PREFIX` in a deal's
//! `externalId`). Deterministic: what a tick does follows from the workspace and the clock.

use serde_json::{Map, Value, json};

use crate::auth::SystemProof;
use crate::deals::{self, DealDraft};
use crate::domain::{CalendarDate, ChampionStatus, DealType, Decision, Stage, WorkflowType};
use crate::store::{AccountRecord, DealRecord, SIMULATED_DEAL_PREFIX, WorkflowRecord};
use crate::workflows::service::is_simulated;
use crate::workflows::{WorkflowError, WorkflowParams, Workflows};

/// Live simulated workflows (started by the simulator, children excluded) above which a tick
/// starts nothing.
pub const LIVE_CAP: usize = 4;
/// How long a simulated approval waits for a person before the simulated teammate decides it.
pub const DECIDE_AFTER_MS: i64 = 5 * 60 * 1000;
/// Ticks run at start-up, so a team is at work within seconds of `make run`.
pub const START_TICKS: usize = 2;
/// Every how many simulated starts the pipeline moves (a deal opened or moved one stage).
pub const DEAL_EVERY: usize = 2;
/// Open simulated deals below which a pipeline step opens one rather than moving one.
pub const DEALS_OPEN: usize = 2;

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
    /// The simulated deal opened or moved, with its stage now.
    pub deal: Option<(String, Stage)>,
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
    pub deal: Option<DealStep>,
}

/// A step of the simulated pipeline.
#[derive(Debug, Clone, PartialEq)]
pub enum DealStep {
    Open(Box<DealDraft>),
    Move { id: String, to: Stage },
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
        return Ok(Plan { decide, start: None, deal: None });
    }
    let n = started_by_simulator(w.workflows).count();
    let (worker, kind) = ROTATION[n % ROTATION.len()];
    let params = WorkflowParams::parse(kind, params(kind, n, w)).map_err(|e| WorkflowError::BadInput(e.to_string()))?;
    let deal = n.is_multiple_of(DEAL_EVERY).then(|| deal_step(w)).flatten();
    Ok(Plan { decide, start: Some((worker, params)), deal })
}

/// The next step of the simulated pipeline: open a deal while fewer than `DEALS_OPEN` are
/// open, else move the open one with the shortest history (the oldest first) a stage on.
fn deal_step(w: &Workspace) -> Option<DealStep> {
    let ours: Vec<&DealRecord> = w.deals.iter().filter(|d| deals::is_simulated(d)).collect();
    let open = ours.iter().filter(|d| !d.stage.is_closed());
    let laggard = open.clone().min_by(|a, b| (a.history.len(), &a.external_id).cmp(&(b.history.len(), &b.external_id)));
    match laggard {
        Some(deal) if open.count() >= DEALS_OPEN => {
            let k = number(deal);
            let to = match deal.stage {
                Stage::Prospecting => Stage::Qualification,
                Stage::Qualification => Stage::Proposal,
                Stage::Proposal => Stage::Negotiation,
                _ if k % 3 == 2 => Stage::ClosedLost,
                _ => Stage::ClosedWon,
            };
            Some(DealStep::Move { id: deal.id.clone(), to })
        }
        _ => opened(ours.len(), w).map(|d| DealStep::Open(Box::new(d))),
    }
}

/// The UTC day of a store time.
fn day(ms: i64) -> Option<chrono::NaiveDate> {
    chrono::DateTime::from_timestamp_millis(ms).map(|t| t.date_naive())
}

/// The number in a simulated deal's `externalId`.
fn number(deal: &DealRecord) -> usize {
    let external = deal.external_id.as_deref().unwrap_or_default();
    external.strip_prefix(SIMULATED_DEAL_PREFIX).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The `k`th simulated deal: an expansion of a demo account, a rep of the demo pipeline, closing
/// in six weeks. None in a workspace without accounts or deals to draw from.
fn opened(k: usize, w: &Workspace) -> Option<DealDraft> {
    let account = w.accounts.get(k % w.accounts.len().max(1))?;
    let rep = w.deals.get(k * 7 % w.deals.len().max(1))?.rep.clone();
    let today = day(w.now_ms)?;
    Some(DealDraft {
        account_name: account.name.clone(),
        value: 12_000 + (k * 7_919 % 48) as u64 * 1_000,
        stage: Stage::Prospecting,
        deal_type: DealType::Expansion,
        rep,
        champion: String::new(),
        champion_status: ChampionStatus::Unknown,
        close_date: CalendarDate::from_naive(today + chrono::Duration::days(42)),
        probability: Stage::Prospecting.default_probability(),
        next_step: "Discovery call (simulated)".into(),
        company_slug: account.company_slug.clone(),
        external_id: Some(format!("{SIMULATED_DEAL_PREFIX}{k:04}")),
    })
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
        // A paused worker or type starts nothing: an admin's call, not a failure.
        match workflows.start_simulated(worker, params).await {
            Ok(id) => done.started = Some(id),
            Err(WorkflowError::Paused(why)) => tracing::debug!(%why, "the simulated team did not start a workflow"),
            Err(e) => return Err(e),
        }
    }
    let by = SystemProof::simulated_team();
    let today = day(store.now_ms()).map(CalendarDate::from_naive);
    let deal = match (plan.deal, today) {
        (Some(DealStep::Open(draft)), Some(today)) => Some(deals::open_simulated(store, &by, *draft, today).await),
        (Some(DealStep::Move { id, to }), Some(today)) => Some(deals::move_simulated(store, &by, &id, to, today).await),
        _ => None,
    };
    // A person may have closed or edited the deal since it was read: skipped, not a failure.
    match deal.transpose() {
        Ok(deal) => done.deal = deal.map(|d| (d.summary.id, d.summary.stage)),
        Err(e) => tracing::debug!(error = %e, "the simulated pipeline did not move"),
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

    /// A deal of the demo workspace (no `externalId`).
    fn demo_deal(stage: Stage) -> DealRecord {
        DealRecord {
            id: "deal-demo".into(),
            account_name: "Globex".into(),
            company_slug: None,
            value: 1,
            stage,
            deal_type: DealType::NewBusiness,
            rep: "Ada".into(),
            champion: String::new(),
            champion_status: ChampionStatus::Unknown,
            close_date: "2027-01-01".into(),
            probability: 60,
            next_step: String::new(),
            history: vec![],
            external_id: None,
        }
    }

    /// The `n`th simulated deal, in `stage`, after `moves` moves.
    fn simulated(n: usize, stage: Stage, moves: usize) -> DealRecord {
        let mut d = demo_deal(stage);
        d.id = format!("deal-{n}");
        d.external_id = Some(format!("{SIMULATED_DEAL_PREFIX}{n:04}"));
        let entry = crate::store::HistoryEntry { date: "2026-11-26".into(), action: "moved".into() };
        d.history = vec![entry; moves + 1];
        d
    }

    #[test]
    fn the_pipeline_opens_two_deals_then_moves_the_one_that_moved_least_and_never_a_persons() {
        let account = AccountRecord {
            id: "acct-1".into(),
            name: "Acme".into(),
            company_slug: Some("acme".into()),
            annual_commit_cents: None,
            daily_usage: vec![],
        };
        let step = |deals: &[DealRecord]| {
            deal_step(&Workspace { workflows: &[], deals, accounts: std::slice::from_ref(&account), now_ms: 0 })
        };
        let person = demo_deal(Stage::Prospecting);
        let Some(DealStep::Open(first)) = step(std::slice::from_ref(&person)) else { panic!("opens a deal") };
        assert_eq!(first.external_id.as_deref(), Some("sim-deal-0000"));
        assert_eq!((first.stage, first.account_name.as_str(), first.rep.as_str()), (Stage::Prospecting, "Acme", "Ada"));
        assert_eq!(first.company_slug.as_deref(), Some("acme"));

        let (a, b) = (simulated(0, Stage::Qualification, 1), simulated(1, Stage::Prospecting, 0));
        let moved = step(&[person.clone(), a.clone(), b]);
        assert_eq!(moved, Some(DealStep::Move { id: "deal-1".into(), to: Stage::Qualification }), "least moved first");
        let won = step(&[a.clone(), simulated(3, Stage::Negotiation, 0)]);
        assert_eq!(won, Some(DealStep::Move { id: "deal-3".into(), to: Stage::ClosedWon }));
        let lost = step(&[a.clone(), simulated(2, Stage::Negotiation, 0)]);
        assert_eq!(lost, Some(DealStep::Move { id: "deal-2".into(), to: Stage::ClosedLost }), "every third is lost");
        let closed = simulated(4, Stage::ClosedWon, 4);
        let Some(DealStep::Open(next)) = step(&[person, closed, a]) else { panic!("one open: another opens") };
        assert_eq!(next.external_id.as_deref(), Some("sim-deal-0002"), "numbered after every simulated deal");
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
