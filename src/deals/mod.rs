//! The deal pipeline: filtered lists in a stable order, detail, the pipeline summary, and the
//! admin writes: updates whose stage moves follow `Stage::can_move_to` and are appended to
//! history (`update`), new deals (`create`), CSV import and export (`import`), and the deals
//! the demo's simulated team opens and moves (`simulated`).

mod create;
pub(crate) mod csv;
mod import;
mod simulated;
mod update;

use serde::{Deserialize, Serialize};

pub use create::{DealDraft, FieldProblem, NewDeal, create};
pub use import::{IMPORT_BYTES, IMPORT_ROWS, ImportReport, RowError, export, import};
pub use simulated::{is_simulated, move_simulated, open_simulated};
pub use update::{DealUpdate, update};

use crate::domain::{ChampionStatus, DealType, Stage};
use crate::error::{ErrorKind, ServiceError};
use crate::store::{DealQuery, DealRecord, DealRow, HistoryEntry, Store, StoreError};

/// Longest `nextStep` or `champion` text, in characters.
pub(crate) const TEXT_LIMIT: usize = 500;

#[derive(Debug, thiserror::Error)]
pub enum DealError {
    #[error("no deal with id {0:?}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error("companySlug: no company {0:?} in the directory")]
    UnknownCompany(String),
    /// A refused import: `count` problems, the first of them listed.
    #[error("{}", refused(*count, errors.len()))]
    Rows { count: usize, errors: Vec<RowError> },
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn refused(count: usize, listed: usize) -> String {
    let problems = if count == 1 { "1 problem".to_owned() } else { format!("{count} problems") };
    let which = if listed < count { format!("the first {listed} are listed") } else { "each is listed".to_owned() };
    format!("nothing was imported: {problems} in the file ({which} in errors)")
}

impl ServiceError for DealError {
    fn kind(&self) -> ErrorKind {
        match self {
            DealError::Invalid(_) => ErrorKind::BadInput,
            DealError::NotFound(_) => ErrorKind::NotFound,
            DealError::Conflict(_) => ErrorKind::Conflict,
            DealError::Rows { .. } => ErrorKind::Unprocessable,
            DealError::UnknownCompany(_) => ErrorKind::NotFound,
            DealError::Store(e) => e.kind(),
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            DealError::Rows { errors, .. } => serde_json::to_value(errors).ok(),
            _ => None,
        }
    }
}

/// Which deals a list shows; every filter is optional and parsed at the edge.
#[derive(Debug, Default, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealFilter {
    pub stage: Option<Stage>,
    #[serde(rename = "type")]
    pub deal_type: Option<DealType>,
    /// A rep's name, exactly as deals carry it.
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
        Self::from(&DealRow::from(d))
    }
}

impl From<&DealRow> for DealSummary {
    fn from(d: &DealRow) -> Self {
        Self {
            id: d.id.to_string(),
            account_name: d.account_name.clone(),
            value: d.value,
            stage: d.stage,
            deal_type: d.deal_type,
            rep: d.rep.to_string(),
            champion: d.champion.clone(),
            close_date: d.close_date.to_string(),
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

/// Summed value (USD) and number of deals in one group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Bucket {
    pub value: u64,
    pub count: u64,
}

impl Bucket {
    fn merge(&mut self, other: Bucket) {
        self.value += other.value;
        self.count += other.count;
    }
}

/// One bucket per stage, in pipeline order, zero ones included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ByStage {
    pub prospecting: Bucket,
    pub qualification: Bucket,
    pub proposal: Bucket,
    pub negotiation: Bucket,
    #[serde(rename = "closed-won")]
    pub closed_won: Bucket,
    #[serde(rename = "closed-lost")]
    pub closed_lost: Bucket,
}

impl ByStage {
    /// The bucket of `stage`.
    pub fn get(&self, stage: Stage) -> Bucket {
        let mut copy = self.clone();
        *copy.bucket(stage)
    }

    fn bucket(&mut self, stage: Stage) -> &mut Bucket {
        match stage {
            Stage::Prospecting => &mut self.prospecting,
            Stage::Qualification => &mut self.qualification,
            Stage::Proposal => &mut self.proposal,
            Stage::Negotiation => &mut self.negotiation,
            Stage::ClosedWon => &mut self.closed_won,
            Stage::ClosedLost => &mut self.closed_lost,
        }
    }
}

/// One bucket per deal type, zero ones included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ByType {
    #[serde(rename = "new-business")]
    pub new_business: Bucket,
    pub expansion: Bucket,
    pub renewal: Bucket,
}

impl ByType {
    fn bucket(&mut self, deal_type: DealType) -> &mut Bucket {
        match deal_type {
            DealType::NewBusiness => &mut self.new_business,
            DealType::Expansion => &mut self.expansion,
            DealType::Renewal => &mut self.renewal,
        }
    }
}

/// The spec's pipeline summary: `total` is the sum of every deal's value and equals the sum
/// of the `byStage` values (and of the `byType` values); `dealCount` equals their counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PipelineSummary {
    /// Sum of every deal's value (USD).
    pub total: u64,
    pub deal_count: u64,
    pub by_stage: ByStage,
    pub by_type: ByType,
}

/// Every deal `filter` admits, in id order, from the deal index (no deal is read from the file).
pub fn list(store: &Store, filter: &DealFilter) -> Vec<DealSummary> {
    page(store, filter, None, usize::MAX).deals
}

/// One page of the deals `filter` admits, in id order after the deal id `after`.
#[derive(Debug, Clone)]
pub struct DealPage {
    pub deals: Vec<DealSummary>,
    /// Every deal `filter` admits, on this page or not.
    pub total: u64,
    /// The id to continue after, when more deals follow.
    pub next: Option<String>,
}

/// At most `limit` deals `filter` admits, in id order after `after`, with their total, from the
/// deal index: its cost grows with the page, not with the pipeline.
pub fn page(store: &Store, filter: &DealFilter, after: Option<&str>, limit: usize) -> DealPage {
    let query =
        DealQuery { stage: filter.stage, deal_type: filter.deal_type, rep: filter.rep.as_deref(), after, limit };
    let found = store.deal_page(&query);
    let deals: Vec<DealSummary> = found.rows.iter().map(DealSummary::from).collect();
    let next = if found.more { deals.last().map(|d| d.id.clone()) } else { None };
    DealPage { deals, total: found.total, next }
}

pub async fn get(store: &Store, id: &str) -> Result<DealDetail, DealError> {
    let deal = store.deal(id).await?.ok_or_else(|| DealError::NotFound(id.to_owned()))?;
    Ok((&deal).into())
}

/// The pipeline summary, from the deal index's tallies (no deal is read from the file).
pub fn summary(store: &Store) -> PipelineSummary {
    let (mut by_stage, mut by_type) = (ByStage::default(), ByType::default());
    let (mut total, mut deal_count) = (0, 0);
    for (stage, deal_type, tally) in store.deal_tallies() {
        let bucket = Bucket { value: tally.value, count: tally.count };
        by_stage.bucket(stage).merge(bucket);
        by_type.bucket(deal_type).merge(bucket);
        total += tally.value;
        deal_count += tally.count;
    }
    PipelineSummary { total, deal_count, by_stage, by_type }
}
