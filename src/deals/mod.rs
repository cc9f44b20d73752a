//! The deal pipeline: filtered lists in a stable order, detail, the pipeline summary, and
//! admin updates whose stage moves follow `Stage::can_move_to` and are appended to history.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::domain::{ChampionStatus, DealType, Stage};
use crate::error::{ErrorKind, ServiceError};
use crate::store::{DealRecord, HistoryEntry, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum DealError {
    #[error("{0}")]
    BadFilter(String),
    #[error("no deal with id {0:?}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError for DealError {
    fn kind(&self) -> ErrorKind {
        match self {
            DealError::BadFilter(_) | DealError::Invalid(_) => ErrorKind::BadInput,
            DealError::NotFound(_) => ErrorKind::NotFound,
            DealError::Conflict(_) => ErrorKind::Conflict,
            DealError::Store(e) => e.kind(),
        }
    }
}

/// Raw filter values from a query string.
#[derive(Debug, Default, Clone)]
pub struct DealFilter {
    pub stage: Option<String>,
    pub deal_type: Option<String>,
    pub rep: Option<String>,
}

/// The list form.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DealSummary {
    pub id: String,
    pub account_name: String,
    pub value: u64,
    pub stage: Stage,
    #[serde(rename = "type")]
    pub deal_type: DealType,
    pub rep: String,
    pub champion: String,
    pub close_date: String,
    pub probability: u8,
}

/// The detail form: the list form plus champion status, next step and history.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DealDetail {
    #[serde(flatten)]
    pub summary: DealSummary,
    pub champion_status: ChampionStatus,
    pub next_step: String,
    pub history: Vec<HistoryEntry>,
    /// The company card behind the account, when it has one.
    pub company_slug: Option<String>,
}

impl From<&DealRecord> for DealSummary {
    fn from(d: &DealRecord) -> Self {
        Self {
            id: d.id.clone(),
            account_name: d.account_name.clone(),
            value: d.value,
            stage: d.stage,
            deal_type: d.deal_type,
            rep: d.rep.clone(),
            champion: d.champion.clone(),
            close_date: d.close_date.clone(),
            probability: d.probability,
        }
    }
}

impl From<&DealRecord> for DealDetail {
    fn from(d: &DealRecord) -> Self {
        Self {
            summary: d.into(),
            champion_status: d.champion_status,
            next_step: d.next_step.clone(),
            history: d.history.clone(),
            company_slug: d.company_slug.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PipelineSummary {
    /// Sum of every deal's value (USD).
    pub total: u64,
    pub deal_count: usize,
    pub by_stage: BTreeMap<String, u64>,
    pub by_type: BTreeMap<String, u64>,
}

/// A PATCH body; unknown fields are refused by serde.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DealUpdate {
    pub stage: Option<String>,
    pub next_step: Option<String>,
    pub champion: Option<String>,
    pub champion_status: Option<ChampionStatus>,
    pub probability: Option<u8>,
    pub close_date: Option<String>,
}

pub async fn list(store: &Store, filter: &DealFilter) -> Result<Vec<DealSummary>, DealError> {
    let stage = match &filter.stage {
        Some(s) => Some(Stage::parse(s).ok_or_else(|| DealError::BadFilter(format!("unknown stage {s:?}")))?),
        None => None,
    };
    let deal_type = match &filter.deal_type {
        Some(t) => Some(DealType::parse(t).ok_or_else(|| DealError::BadFilter(format!("unknown deal type {t:?}")))?),
        None => None,
    };
    let deals = store.deals().await?;
    if let Some(rep) = &filter.rep
        && !deals.iter().any(|d| &d.rep == rep)
    {
        return Err(DealError::BadFilter(format!("unknown rep {rep:?}")));
    }
    Ok(deals
        .iter()
        .filter(|d| stage.is_none_or(|s| d.stage == s))
        .filter(|d| deal_type.is_none_or(|t| d.deal_type == t))
        .filter(|d| filter.rep.as_ref().is_none_or(|r| &d.rep == r))
        .map(DealSummary::from)
        .collect())
}

pub async fn get(store: &Store, id: &str) -> Result<DealDetail, DealError> {
    let deal = store.deal(id).await?.ok_or_else(|| DealError::NotFound(id.to_owned()))?;
    Ok((&deal).into())
}

pub fn summarize(deals: &[DealRecord]) -> PipelineSummary {
    let mut by_stage: BTreeMap<String, u64> = Stage::ALL.iter().map(|s| (s.as_str().to_owned(), 0)).collect();
    let mut by_type: BTreeMap<String, u64> = DealType::ALL.iter().map(|t| (t.as_str().to_owned(), 0)).collect();
    for d in deals {
        *by_stage.entry(d.stage.as_str().to_owned()).or_default() += d.value;
        *by_type.entry(d.deal_type.as_str().to_owned()).or_default() += d.value;
    }
    PipelineSummary { total: deals.iter().map(|d| d.value).sum(), deal_count: deals.len(), by_stage, by_type }
}

pub async fn summary(store: &Store) -> Result<PipelineSummary, DealError> {
    Ok(summarize(&store.deals().await?))
}

/// Applies an admin update. Stage moves: open stages forward or to a closed stage; closed
/// deals are final (409). Every move appends `moved to <stage>` dated `today`.
pub async fn update(store: &Store, id: &str, update: DealUpdate, today: String) -> Result<DealDetail, DealError> {
    let stage = match &update.stage {
        Some(s) => Some(Stage::parse(s).ok_or_else(|| DealError::Invalid(format!("unknown stage {s:?}")))?),
        None => None,
    };
    if update.probability.is_some_and(|p| p > 100) {
        return Err(DealError::Invalid("probability is a percent, 0 to 100".into()));
    }
    if let Some(date) = &update.close_date
        && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err()
    {
        return Err(DealError::Invalid("closeDate must be YYYY-MM-DD".into()));
    }
    if [&update.next_step, &update.champion].iter().any(|f| f.as_ref().is_some_and(|v| v.chars().count() > 500)) {
        return Err(DealError::Invalid("text fields are limited to 500 characters".into()));
    }
    let outcome = store
        .update_deal(id, move |mut deal| {
            if deal.stage.is_closed() {
                return Err(DealError::Conflict(format!("deal {} is {} and final", deal.id, deal.stage.as_str())));
            }
            if let Some(to) = stage {
                if !deal.stage.can_move_to(to) {
                    return Err(DealError::Conflict(format!(
                        "a deal in {} can move forward or close, not to {}",
                        deal.stage.as_str(),
                        to.as_str()
                    )));
                }
                deal.stage = to;
                deal.history.push(HistoryEntry { date: today, action: format!("moved to {}", to.as_str()) });
                if to.is_closed() {
                    deal.probability = to.default_probability();
                    deal.next_step.clear();
                }
            }
            if let Some(p) = update.probability.filter(|_| !deal.stage.is_closed()) {
                deal.probability = p;
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
                deal.close_date = v;
            }
            Ok(deal)
        })
        .await?;
    match outcome {
        None => Err(DealError::NotFound(id.to_owned())),
        Some(Err(e)) => Err(e),
        Some(Ok(deal)) => Ok(store.events().publish_value(crate::events::DEAL_UPDATED, DealDetail::from(&deal))),
    }
}
