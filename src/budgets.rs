//! Token budgets (issue 28; docs/controls.md): a daily and a monthly limit per Brain user, per
//! worker and for the whole workspace, from `[budgets]` until an admin sets another
//! (`POST /api/controls/budgets`, audited), shown with what was spent (`GET
//! /api/controls/budgets`). The spend is the store's per-day counters, added to with every
//! model call. The Brain checks its user's budget, and the workspace's, before every model call
//! and refuses with 429 when one is spent; a workflow reads its worker's, and the workspace's,
//! before every model-calling step (`standing`; `workflows::budget_gate` decides what it does).
//! Both fail closed: when the spend cannot be read, the call does not run.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::auth::AdminProof;
use crate::config::{BudgetSettings, Limits};
use crate::domain::rfc3339_ms;
use crate::error::{ErrorKind, ServiceError};
use crate::store::{BRAIN_SPENDER, BudgetRecord, Spend, Store, StoreError, WORKSPACE_SPENDER};

/// Who a budget limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BudgetScope {
    /// Each Brain user, on their own.
    Brain,
    /// One worker's workflows (`worker` names it).
    Worker,
    /// Every model call of the appliance.
    Workspace,
}

impl BudgetScope {
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetScope::Brain => "brain",
            BudgetScope::Worker => "worker",
            BudgetScope::Workspace => "workspace",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    NotFound(String),
    /// A budget is spent; `retry_after` seconds until its period ends.
    #[error("{message}")]
    Spent { message: String, retry_after: u64 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError for BudgetError {
    fn kind(&self) -> ErrorKind {
        match self {
            BudgetError::BadInput(_) => ErrorKind::BadInput,
            BudgetError::NotFound(_) => ErrorKind::NotFound,
            BudgetError::Spent { .. } => ErrorKind::RateLimited,
            BudgetError::Store(e) => e.kind(),
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            BudgetError::Spent { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }
}

/// `POST /api/controls/budgets`: the limits of one budget; both absent puts it back to the
/// configured default.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(extend("oneOf" = [
    {"required": ["worker"], "properties": {"scope": {"const": "worker"}, "worker": {"type": "string"}}},
    {"properties": {"scope": {"enum": ["brain", "workspace"]}, "worker": {"type": "null"}}},
]))]
pub struct SetBudget {
    pub scope: BudgetScope,
    /// The worker, for `scope: worker` (and only then).
    pub worker: Option<String>,
    /// Tokens (input plus output) per UTC day, 1 to 10^12; absent: no daily limit.
    #[schemars(range(min = 1, max = 1_000_000_000_000u64))]
    pub daily_tokens: Option<u64>,
    /// Tokens per calendar month (UTC), 1 to 10^12; absent: no monthly limit.
    #[schemars(range(min = 1, max = 1_000_000_000_000u64))]
    pub monthly_tokens: Option<u64>,
}

/// A budget with what was spent against it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetView {
    pub scope: BudgetScope,
    /// The worker, for a worker's budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_tokens: Option<u64>,
    /// `config` (`[budgets]`) or `admin` (set through the API).
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_at: Option<String>,
    /// Tokens spent today and this month (for `brain`: by every user together).
    pub spent_today: u64,
    pub spent_this_month: u64,
    /// US dollars spent today and this month, at the configured prices.
    pub cost_today_usd: f64,
    pub cost_this_month_usd: f64,
    /// `ok`, `near` (past the soft share of a limit) or `spent`; for `brain`, of the whole
    /// (each user is held to the limits on their own).
    pub state: String,
}

/// `GET /api/controls/budgets`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetList {
    pub budgets: Vec<BudgetView>,
    /// Past this share of a limit, a budget is `near`.
    pub soft_percent: u8,
}

/// The largest limit one may set, in tokens.
const MAX_TOKENS: u64 = 1_000_000_000_000;

fn key(scope: BudgetScope, worker: Option<&str>) -> String {
    match (scope, worker) {
        (BudgetScope::Worker, Some(w)) => format!("worker/{w}"),
        (BudgetScope::Worker, None) => "worker/".into(),
        (BudgetScope::Brain, _) => "brain".into(),
        (BudgetScope::Workspace, _) => "workspace".into(),
    }
}

fn default_of(settings: &BudgetSettings, scope: BudgetScope) -> Limits {
    match scope {
        BudgetScope::Brain => settings.brain_user,
        BudgetScope::Worker => settings.worker,
        BudgetScope::Workspace => settings.workspace,
    }
}

/// The limits that apply, among the budgets admins `set`: what an admin set, else the default.
fn limits_of(
    set: &[(String, BudgetRecord)],
    settings: &BudgetSettings,
    scope: BudgetScope,
    worker: Option<&str>,
) -> (Limits, Option<BudgetRecord>) {
    let key = key(scope, worker);
    let set = set.iter().find(|(k, _)| *k == key).map(|(_, r)| r.clone());
    let limits = match &set {
        Some(r) => Limits { daily_tokens: r.daily_tokens, monthly_tokens: r.monthly_tokens },
        None => default_of(settings, scope),
    };
    (limits, set)
}

/// Where `spend` stands against `limits`: `ok`, `near` or `spent`.
fn state(limits: Limits, spend: &Spend, soft_percent: u8) -> &'static str {
    match worst(&[(limits, *spend, String::new())], soft_percent, 0).map(|s| s.state) {
        None => "ok",
        Some(BudgetState::Near) => "near",
        Some(BudgetState::Spent) => "spent",
    }
}

fn usd(micros: u64) -> f64 {
    micros as f64 / 1_000_000.0
}

/// Seconds from `now_ms` to the end of the day (UTC) or, when `month`, of the month.
fn until_period_ends(now_ms: i64, month: bool) -> u64 {
    use chrono::{Datelike, Duration, NaiveTime, TimeZone, Utc};
    let Some(now) = Utc.timestamp_millis_opt(now_ms).single() else { return 60 };
    let next_day = now.date_naive() + Duration::days(1);
    let end = if month {
        let (y, m) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
        chrono::NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(next_day)
    } else {
        next_day
    };
    let end = Utc.from_utc_datetime(&end.and_time(NaiveTime::MIN));
    u64::try_from((end - now).num_seconds()).unwrap_or(60).max(1)
}

/// The ids of the workspace's workers.
async fn worker_ids(store: &Store) -> Result<Vec<String>, StoreError> {
    Ok(store.workers().await?.into_iter().map(|w| w.id).collect())
}

/// Every budget — the workspace's, the Brain's, each worker's — with its spend.
pub async fn list_all(store: &Store, settings: &BudgetSettings) -> Result<BudgetList, BudgetError> {
    list(store, settings, &worker_ids(store).await?).await
}

/// The workspace's and the Brain's budgets, and those of `workers`, with their spend.
pub async fn list(store: &Store, settings: &BudgetSettings, workers: &[String]) -> Result<BudgetList, BudgetError> {
    let now = store.now_ms();
    let mut budgets = Vec::new();
    let mut targets: Vec<(BudgetScope, Option<String>)> =
        vec![(BudgetScope::Workspace, None), (BudgetScope::Brain, None)];
    targets.extend(workers.iter().map(|w| (BudgetScope::Worker, Some(w.clone()))));
    let admin_set = store.budgets().await?;
    for (scope, worker) in targets {
        let (limits, set) = limits_of(&admin_set, settings, scope, worker.as_deref());
        let spender = match (scope, &worker) {
            (BudgetScope::Worker, Some(w)) => w.clone(),
            (BudgetScope::Brain, _) => BRAIN_SPENDER.to_owned(),
            _ => WORKSPACE_SPENDER.to_owned(),
        };
        let spend = store.spend(&spender, now).await?;
        budgets.push(BudgetView {
            scope,
            worker,
            daily_tokens: limits.daily_tokens,
            monthly_tokens: limits.monthly_tokens,
            source: if set.is_some() { "admin" } else { "config" }.into(),
            set_by: set.as_ref().map(|r| r.by.clone()),
            set_at: set.as_ref().map(|r| rfc3339_ms(r.at_ms)),
            spent_today: spend.today.tokens,
            spent_this_month: spend.month.tokens,
            cost_today_usd: usd(spend.today.cost_micros),
            cost_this_month_usd: usd(spend.month.cost_micros),
            state: state(limits, &spend, settings.soft_percent).into(),
        });
    }
    Ok(BudgetList { budgets, soft_percent: settings.soft_percent })
}

/// Sets one budget (admin); a worker's names a worker of the workspace.
pub async fn set(store: &Store, admin: AdminProof<'_>, request: SetBudget) -> Result<(), BudgetError> {
    let workers = worker_ids(store).await?;
    match (request.scope, request.worker.as_deref()) {
        (BudgetScope::Worker, Some(w)) if !workers.iter().any(|k| k == w) => {
            return Err(BudgetError::NotFound(format!("no worker {w}")));
        }
        (BudgetScope::Worker, None) => return Err(BudgetError::BadInput("a worker's budget names its worker".into())),
        (BudgetScope::Brain | BudgetScope::Workspace, Some(_)) => {
            return Err(BudgetError::BadInput("only a worker's budget names a worker".into()));
        }
        _ => {}
    }
    let out_of_range = |v: Option<u64>| v.is_some_and(|n| !(1..=MAX_TOKENS).contains(&n));
    if out_of_range(request.daily_tokens) || out_of_range(request.monthly_tokens) {
        return Err(BudgetError::BadInput(format!("a limit is 1 to {MAX_TOKENS} tokens (leave it out for no limit)")));
    }
    let key = key(request.scope, request.worker.as_deref());
    let record = (request.daily_tokens.is_some() || request.monthly_tokens.is_some()).then(|| BudgetRecord {
        daily_tokens: request.daily_tokens,
        monthly_tokens: request.monthly_tokens,
        by: crate::audit::actor(admin),
        at_ms: store.now_ms(),
    });
    store.set_budget(&key, record).await?;
    let show = |v: Option<u64>| v.map_or_else(|| "none".to_owned(), |n| n.to_string());
    let detail = [("dailyTokens", show(request.daily_tokens)), ("monthlyTokens", show(request.monthly_tokens))];
    crate::audit::record(store, admin, "budget.set", &key, &detail).await;
    Ok(())
}

/// How far a budget is spent, when it matters: past its soft share, or at its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BudgetState {
    Near,
    Spent,
}

/// Where the budgets a model call is held to stand, when one of them is near or spent: the
/// worst of them, in words (`the worker content-writer's budget for today is spent (1200 of
/// 1000 tokens); it renews at 00:00 UTC`). Workflows read it before each model-calling step
/// (`workflows::budget_gate`); the temporal engine records it in history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub state: BudgetState,
    pub message: String,
    /// Seconds until the period of the budget named ends.
    pub renews_in_secs: u64,
}

/// The worst standing among `checks` (limits, what was spent against them, whose budget): a
/// spent budget first, else one past `soft_percent`; `None` when all are clear.
fn worst(checks: &[(Limits, Spend, String)], soft_percent: u8, now_ms: i64) -> Option<Standing> {
    let mut near = None;
    for (limits, spend, whose) in checks {
        let periods = [
            (limits.daily_tokens, spend.today.tokens, "today", "at 00:00 UTC", false),
            (limits.monthly_tokens, spend.month.tokens, "this month", "on the 1st (UTC)", true),
        ];
        for (limit, used, period, renews, month) in periods {
            let Some(limit) = limit else { continue };
            let renews_in_secs = until_period_ends(now_ms, month);
            if used >= limit {
                let message = format!("{whose} for {period} is spent ({used} of {limit} tokens); it renews {renews}");
                return Some(Standing { state: BudgetState::Spent, message, renews_in_secs });
            }
            if near.is_none() && u128::from(used) * 100 >= u128::from(limit) * u128::from(soft_percent) {
                let message = format!("{whose} for {period} is past {soft_percent} % ({used} of {limit} tokens)");
                near = Some(Standing { state: BudgetState::Near, message, renews_in_secs });
            }
        }
    }
    near
}

/// Refuses a Brain call for user `sub` when their budget or the workspace's is spent.
pub async fn check_brain(store: &Store, settings: &BudgetSettings, sub: &str) -> Result<(), BudgetError> {
    let now = store.now_ms();
    let admin_set = store.budgets().await?;
    let (mine, _) = limits_of(&admin_set, settings, BudgetScope::Brain, None);
    let (all, _) = limits_of(&admin_set, settings, BudgetScope::Workspace, None);
    let checks = [
        (mine, store.spend(&format!("user:{sub}"), now).await?, "your Brain budget".to_owned()),
        (all, store.spend(WORKSPACE_SPENDER, now).await?, "the workspace's model budget".to_owned()),
    ];
    match worst(&checks, settings.soft_percent, now) {
        Some(Standing { state: BudgetState::Spent, message, renews_in_secs }) => {
            Err(BudgetError::Spent { message, retry_after: renews_in_secs })
        }
        _ => Ok(()),
    }
}

/// The limits admins set that hold `worker`'s model calls — its own and the workspace's — in
/// words (`worker/sdr: 1000 a day, none a month`, or `…: the configured default`): what a
/// `budget` approval is bound to (`workflows::binding`).
pub async fn set_limits(store: &Store, worker: &str) -> Result<Vec<String>, StoreError> {
    let set = store.budgets().await?;
    let show = |n: Option<u64>| n.map_or_else(|| "none".to_owned(), |n| n.to_string());
    let keys = [key(BudgetScope::Worker, Some(worker)), key(BudgetScope::Workspace, None)];
    Ok(keys
        .into_iter()
        .map(|k| match set.iter().find(|(key, _)| *key == k) {
            Some((_, r)) => format!("{k}: {} a day, {} a month", show(r.daily_tokens), show(r.monthly_tokens)),
            None => format!("{k}: the configured default"),
        })
        .collect())
}

/// Where the budgets of `worker`'s next model call stand: its own and the workspace's. A store
/// that cannot be read is an error (the caller does not make the call: budgets fail closed).
pub async fn standing(store: &Store, settings: &BudgetSettings, worker: &str) -> Result<Option<Standing>, StoreError> {
    let now = store.now_ms();
    let admin_set = store.budgets().await?;
    let (own, _) = limits_of(&admin_set, settings, BudgetScope::Worker, Some(worker));
    let (all, _) = limits_of(&admin_set, settings, BudgetScope::Workspace, None);
    if own == Limits::default() && all == Limits::default() {
        return Ok(None);
    }
    let checks = [
        (own, store.spend(worker, now).await?, format!("the worker {worker}'s budget")),
        (all, store.spend(WORKSPACE_SPENDER, now).await?, "the workspace's model budget".to_owned()),
    ];
    Ok(worst(&checks, settings.soft_percent, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SpendRecord;

    #[test]
    fn a_budget_is_near_past_the_soft_share_and_spent_at_its_limit() {
        let limits = Limits { daily_tokens: Some(1000), monthly_tokens: None };
        let spend =
            |tokens| Spend { today: SpendRecord { tokens, ..Default::default() }, month: SpendRecord::default() };
        assert_eq!(state(limits, &spend(799), 80), "ok");
        assert_eq!(state(limits, &spend(800), 80), "near");
        assert_eq!(state(limits, &spend(1000), 80), "spent");
        assert_eq!(state(Limits::default(), &spend(10_000_000), 80), "ok", "no limit");
    }

    #[test]
    fn the_worst_standing_is_a_spent_budget_then_one_past_its_soft_share() {
        let spend = |today, month| Spend {
            today: SpendRecord { tokens: today, ..Default::default() },
            month: SpendRecord { tokens: month, ..Default::default() },
        };
        let own = Limits { daily_tokens: Some(1000), monthly_tokens: Some(10_000) };
        let all = Limits { daily_tokens: Some(5000), monthly_tokens: None };
        let now = 1_795_820_400_000;
        let at = |mine: Spend, theirs: Spend| {
            let checks = [(own, mine, "mine".to_owned()), (all, theirs, "all".to_owned())];
            worst(&checks, 80, now)
        };
        assert_eq!(at(spend(799, 799), spend(799, 799)), None);
        let near = at(spend(800, 800), spend(900, 900)).expect("near");
        assert_eq!(
            (near.state, near.message.as_str()),
            (BudgetState::Near, "mine for today is past 80 % (800 of 1000 tokens)")
        );
        let spent = at(spend(800, 800), spend(5000, 5000)).expect("spent");
        assert_eq!(spent.state, BudgetState::Spent, "a spent budget wins over a near one: {spent:?}");
        assert_eq!(spent.message, "all for today is spent (5000 of 5000 tokens); it renews at 00:00 UTC");
        assert_eq!(spent.renews_in_secs, 3600);
        let month = at(spend(10, 10_000), spend(0, 0)).expect("spent this month");
        assert_eq!((month.state, month.renews_in_secs), (BudgetState::Spent, 3 * 86_400 + 3600));
    }

    #[test]
    fn a_period_ends_at_midnight_or_on_the_first() {
        // 2026-11-27T23:00:00Z: an hour to midnight, three days and an hour to December.
        let now = 1_795_820_400_000;
        assert_eq!(until_period_ends(now, false), 3600);
        assert_eq!(until_period_ends(now, true), 3 * 86_400 + 3600);
    }
}
