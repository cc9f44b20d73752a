//! The `[workflows]` settings (file) and `GTMS_WORKFLOW_*` / `GTMS_SLA_*` /
//! `GTMS_APPROVAL_EXPIRY_*` / `GTMS_NOTIFY_WEBHOOK_URL` (environment): executors of the demo
//! engine and how long they finish their steps on SIGTERM, activity retries, SLA timers by
//! ticket priority, how long approvals stay open (per workflow type where set; 0 = never
//! expire), and the team-chat webhook (a `Secret`).

use serde::Deserialize;

use super::{ConfigError, Secret, invalid, number};
use crate::workflows::Deadlines;

/// The validated workflow settings.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkflowSettings {
    /// Workflows advanced at once by the demo engine.
    pub executors: usize,
    /// Attempts of a failing activity before the workflow fails (the first one included).
    pub retry_attempts: u32,
    /// Backoff before the second attempt; doubled for each further one, capped at `retry_max_ms`.
    pub retry_base_ms: u64,
    pub retry_max_ms: u64,
    /// Longest an activity may run before the attempt counts as failed.
    pub activity_timeout_secs: u64,
    /// On SIGTERM, how long the demo engine lets the steps in flight finish before it stops.
    pub shutdown_grace_secs: u64,
    pub sla: Deadlines,
    /// A Slack-compatible incoming webhook; without one notifications stay in the outbox.
    pub notify_webhook_url: Option<Secret>,
}

/// One layer of `[workflows]`; every field optional so layers merge field by field.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowLayer {
    pub executors: Option<usize>,
    pub retry_attempts: Option<u32>,
    pub retry_base_ms: Option<u64>,
    pub retry_max_ms: Option<u64>,
    pub activity_timeout_secs: Option<u64>,
    pub shutdown_grace_secs: Option<u64>,
    pub sla_low_secs: Option<u64>,
    pub sla_normal_secs: Option<u64>,
    pub sla_high_secs: Option<u64>,
    pub sla_urgent_secs: Option<u64>,
    pub approval_expiry_secs: Option<u64>,
    pub approval_expiry_client_onboarding_secs: Option<u64>,
    pub approval_expiry_content_generation_secs: Option<u64>,
    pub notify_webhook_url: Option<Secret>,
}

macro_rules! or_fields {
    ($base:expr, $over:expr, $($f:ident),*) => {{
        let WorkflowLayer { $($f),* } = $over;
        let base = $base;
        WorkflowLayer { $($f: $f.or(base.$f)),* }
    }};
}

impl WorkflowLayer {
    pub fn merge(self, over: WorkflowLayer) -> WorkflowLayer {
        or_fields!(
            self,
            over,
            executors,
            retry_attempts,
            retry_base_ms,
            retry_max_ms,
            activity_timeout_secs,
            shutdown_grace_secs,
            sla_low_secs,
            sla_normal_secs,
            sla_high_secs,
            sla_urgent_secs,
            approval_expiry_secs,
            approval_expiry_client_onboarding_secs,
            approval_expiry_content_generation_secs,
            notify_webhook_url
        )
    }

    /// The environment's layer; `None` when it sets nothing.
    pub fn from_env(get: &impl Fn(&str) -> Option<String>) -> Result<Option<WorkflowLayer>, ConfigError> {
        let layer = WorkflowLayer {
            executors: number(get, "GTMS_WORKFLOW_EXECUTORS")?,
            retry_attempts: number(get, "GTMS_WORKFLOW_RETRY_ATTEMPTS")?,
            retry_base_ms: number(get, "GTMS_WORKFLOW_RETRY_BASE_MS")?,
            retry_max_ms: number(get, "GTMS_WORKFLOW_RETRY_MAX_MS")?,
            activity_timeout_secs: number(get, "GTMS_WORKFLOW_ACTIVITY_TIMEOUT_SECS")?,
            shutdown_grace_secs: number(get, "GTMS_WORKFLOW_SHUTDOWN_GRACE_SECS")?,
            sla_low_secs: number(get, "GTMS_SLA_LOW_SECS")?,
            sla_normal_secs: number(get, "GTMS_SLA_NORMAL_SECS")?,
            sla_high_secs: number(get, "GTMS_SLA_HIGH_SECS")?,
            sla_urgent_secs: number(get, "GTMS_SLA_URGENT_SECS")?,
            approval_expiry_secs: number(get, "GTMS_APPROVAL_EXPIRY_SECS")?,
            approval_expiry_client_onboarding_secs: number(get, "GTMS_APPROVAL_EXPIRY_CLIENT_ONBOARDING_SECS")?,
            approval_expiry_content_generation_secs: number(get, "GTMS_APPROVAL_EXPIRY_CONTENT_GENERATION_SECS")?,
            notify_webhook_url: get("GTMS_NOTIFY_WEBHOOK_URL").map(Secret::new),
        };
        let any = layer != WorkflowLayer::default();
        Ok(any.then_some(layer))
    }

    pub fn validate(self) -> Result<WorkflowSettings, ConfigError> {
        let d = Deadlines::default();
        let sla = Deadlines {
            low: self.sla_low_secs.unwrap_or(d.low),
            normal: self.sla_normal_secs.unwrap_or(d.normal),
            high: self.sla_high_secs.unwrap_or(d.high),
            urgent: self.sla_urgent_secs.unwrap_or(d.urgent),
            approval: self.approval_expiry_secs.unwrap_or(d.approval),
            approval_client_onboarding: self.approval_expiry_client_onboarding_secs,
            approval_content_generation: self.approval_expiry_content_generation_secs,
            warn_expiring: true,
        };
        if [sla.low, sla.normal, sla.high, sla.urgent].contains(&0) {
            return Err(invalid("workflows sla_*_secs", "every SLA must be at least 1 second"));
        }
        let executors = self.executors.unwrap_or(8);
        if !(1..=256).contains(&executors) {
            return Err(invalid("workflows executors", "must be between 1 and 256"));
        }
        let retry_attempts = self.retry_attempts.unwrap_or(4);
        if !(1..=20).contains(&retry_attempts) {
            return Err(invalid("workflows retry_attempts", "must be between 1 and 20"));
        }
        let shutdown_grace_secs = self.shutdown_grace_secs.unwrap_or(30);
        if shutdown_grace_secs > 3600 {
            return Err(invalid("workflows shutdown_grace_secs", "must be 0 to 3600 seconds"));
        }
        if let Some(url) = &self.notify_webhook_url
            && !(url.expose().starts_with("http://") || url.expose().starts_with("https://"))
        {
            return Err(invalid("workflows notify_webhook_url", "must be an http(s) URL"));
        }
        Ok(WorkflowSettings {
            executors,
            retry_attempts,
            retry_base_ms: self.retry_base_ms.unwrap_or(500),
            retry_max_ms: self.retry_max_ms.unwrap_or(30_000),
            activity_timeout_secs: self.activity_timeout_secs.unwrap_or(120).max(1),
            shutdown_grace_secs,
            sla,
            notify_webhook_url: self.notify_webhook_url,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_env_and_bad_values() {
        let s = WorkflowLayer::default().validate().unwrap();
        assert_eq!((s.executors, s.retry_attempts, s.sla.urgent), (8, 4, 900));
        let env = |k: &str| match k {
            "GTMS_SLA_URGENT_SECS" => Some("3".to_owned()),
            "GTMS_NOTIFY_WEBHOOK_URL" => Some("https://hooks.example/T000/secret".to_owned()),
            _ => None,
        };
        let layer = WorkflowLayer::from_env(&env).unwrap().unwrap_or_default();
        let s = WorkflowLayer::default().merge(layer).validate().unwrap();
        assert_eq!(s.sla.urgent, 3);
        assert!(!format!("{s:?}").contains("secret"));
        assert_eq!(s.sla.approval_secs(crate::domain::WorkflowType::ContentGeneration), Some(72 * 3600));
        let env = |k: &str| match k {
            "GTMS_APPROVAL_EXPIRY_SECS" => Some("0".to_owned()),
            "GTMS_APPROVAL_EXPIRY_CONTENT_GENERATION_SECS" => Some("60".to_owned()),
            _ => None,
        };
        let layer = WorkflowLayer::from_env(&env).unwrap().unwrap_or_default();
        let s = WorkflowLayer::default().merge(layer).validate().unwrap();
        let expiry = |kind| s.sla.approval_secs(kind);
        use crate::domain::WorkflowType::{ClientOnboarding, ContentGeneration};
        assert_eq!((expiry(ContentGeneration), expiry(ClientOnboarding)), (Some(60), None), "0: never");
        assert!(WorkflowLayer::from_env(&|_: &str| None).unwrap_or_default().is_none());
        assert!(WorkflowLayer { sla_high_secs: Some(0), ..Default::default() }.validate().is_err());
        assert_eq!(WorkflowLayer::default().validate().unwrap().shutdown_grace_secs, 30);
        assert!(WorkflowLayer { shutdown_grace_secs: Some(3601), ..Default::default() }.validate().is_err());
        let bad = WorkflowLayer { notify_webhook_url: Some(Secret::new("ftp://x")), ..Default::default() };
        assert!(bad.validate().is_err());
    }
}
