//! The `[budgets]` settings (file) and `GTMS_BUDGET_*` (environment): the token budgets that
//! apply until an admin sets another (`POST /api/controls/budgets`) — per Brain user, per worker
//! and for the whole workspace, each per UTC day and per month; absent or 0 = no limit — and
//! the share of a budget past which it counts as nearly spent (`soft_percent`).

use serde::Deserialize;

use super::{ConfigError, invalid, number};

/// A daily and a monthly token limit (`None`: no limit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub daily_tokens: Option<u64>,
    pub monthly_tokens: Option<u64>,
}

/// The validated budget defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetSettings {
    /// Each Brain user's own use.
    pub brain_user: Limits,
    /// Each worker's workflows' model calls.
    pub worker: Limits,
    /// Every model call of the appliance.
    pub workspace: Limits,
    /// Past this share of a limit, the budget is nearly spent (1–100).
    pub soft_percent: u8,
}

/// One layer of `[budgets]`; every field optional so layers merge field by field.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetLayer {
    pub brain_user_daily_tokens: Option<u64>,
    pub brain_user_monthly_tokens: Option<u64>,
    pub worker_daily_tokens: Option<u64>,
    pub worker_monthly_tokens: Option<u64>,
    pub workspace_daily_tokens: Option<u64>,
    pub workspace_monthly_tokens: Option<u64>,
    pub soft_percent: Option<u8>,
}

impl BudgetLayer {
    pub fn merge(self, over: BudgetLayer) -> BudgetLayer {
        BudgetLayer {
            brain_user_daily_tokens: over.brain_user_daily_tokens.or(self.brain_user_daily_tokens),
            brain_user_monthly_tokens: over.brain_user_monthly_tokens.or(self.brain_user_monthly_tokens),
            worker_daily_tokens: over.worker_daily_tokens.or(self.worker_daily_tokens),
            worker_monthly_tokens: over.worker_monthly_tokens.or(self.worker_monthly_tokens),
            workspace_daily_tokens: over.workspace_daily_tokens.or(self.workspace_daily_tokens),
            workspace_monthly_tokens: over.workspace_monthly_tokens.or(self.workspace_monthly_tokens),
            soft_percent: over.soft_percent.or(self.soft_percent),
        }
    }

    /// The environment's layer; `None` when it sets nothing.
    pub fn from_env(get: &impl Fn(&str) -> Option<String>) -> Result<Option<BudgetLayer>, ConfigError> {
        let layer = BudgetLayer {
            brain_user_daily_tokens: number(get, "GTMS_BUDGET_BRAIN_USER_DAILY_TOKENS")?,
            brain_user_monthly_tokens: number(get, "GTMS_BUDGET_BRAIN_USER_MONTHLY_TOKENS")?,
            worker_daily_tokens: number(get, "GTMS_BUDGET_WORKER_DAILY_TOKENS")?,
            worker_monthly_tokens: number(get, "GTMS_BUDGET_WORKER_MONTHLY_TOKENS")?,
            workspace_daily_tokens: number(get, "GTMS_BUDGET_WORKSPACE_DAILY_TOKENS")?,
            workspace_monthly_tokens: number(get, "GTMS_BUDGET_WORKSPACE_MONTHLY_TOKENS")?,
            soft_percent: number(get, "GTMS_BUDGET_SOFT_PERCENT")?,
        };
        Ok((layer != BudgetLayer::default()).then_some(layer))
    }

    pub fn validate(self) -> Result<BudgetSettings, ConfigError> {
        let limit = |v: Option<u64>| v.filter(|n| *n > 0);
        let soft_percent = self.soft_percent.unwrap_or(80);
        if !(1..=100).contains(&soft_percent) {
            return Err(invalid("budgets soft_percent", "must be 1 to 100"));
        }
        Ok(BudgetSettings {
            brain_user: Limits {
                daily_tokens: limit(self.brain_user_daily_tokens),
                monthly_tokens: limit(self.brain_user_monthly_tokens),
            },
            worker: Limits {
                daily_tokens: limit(self.worker_daily_tokens),
                monthly_tokens: limit(self.worker_monthly_tokens),
            },
            workspace: Limits {
                daily_tokens: limit(self.workspace_daily_tokens),
                monthly_tokens: limit(self.workspace_monthly_tokens),
            },
            soft_percent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_env_and_bad_values() {
        let s = BudgetLayer::default().validate().unwrap();
        assert_eq!((s.brain_user, s.soft_percent), (Limits::default(), 80), "no limit by default");
        let env = |k: &str| match k {
            "GTMS_BUDGET_BRAIN_USER_DAILY_TOKENS" => Some("5000".to_owned()),
            "GTMS_BUDGET_WORKER_MONTHLY_TOKENS" => Some("0".to_owned()),
            _ => None,
        };
        let layer = BudgetLayer::from_env(&env).unwrap().unwrap_or_default();
        let s = BudgetLayer::default().merge(layer).validate().unwrap();
        assert_eq!(s.brain_user.daily_tokens, Some(5000));
        assert_eq!(s.worker.monthly_tokens, None, "0 is no limit");
        assert!(BudgetLayer { soft_percent: Some(0), ..Default::default() }.validate().is_err());
        assert!(BudgetLayer::from_env(&|_: &str| None).unwrap().is_none());
    }
}
