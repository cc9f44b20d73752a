//! The workspace records: workers, deals, accounts (with daily usage), the workflow run
//! ledger and the language-model token ledger, plus the one-time demo seeding.

use std::sync::Arc;

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::codec::{self, CodecError, Record, decode_body, unchanged_records};
use super::deal_index::DealTally;
use super::records::{fold_all, read_all};
use super::tables::{ACCOUNTS, DEALS, META, RUNS, TOKENS, WORKERS};
use super::{Store, StoreError};
use crate::domain::{ChampionStatus, DealType, Stage};

const DEMO_SEEDED_KEY: &str = "demo_seeded";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerRecord {
    pub id: String,
    pub name: String,
    pub role: String,
    pub team: String,
    /// Workflow types this worker runs.
    pub workflow_types: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryEntry {
    pub date: String,
    pub action: String,
}

impl HistoryEntry {
    /// A version-1 move into `discovery` reads as the move into `qualification` it became.
    fn without_discovery(self) -> Self {
        if self.action == "moved to discovery" {
            HistoryEntry { action: "moved to qualification".into(), ..self }
        } else {
            self
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealRecord {
    pub id: String,
    pub account_name: String,
    /// The company card behind the account, when it has one.
    pub company_slug: Option<String>,
    /// Whole US dollars.
    pub value: u64,
    pub stage: Stage,
    pub deal_type: DealType,
    pub rep: String,
    pub champion: String,
    pub champion_status: ChampionStatus,
    pub close_date: String,
    /// Percent, 0–100.
    pub probability: u8,
    pub next_step: String,
    pub history: Vec<HistoryEntry>,
    /// The id the deal has in the system it was imported from (a CSV's `externalId`): a
    /// re-import naming it updates this deal instead of adding another. Since version 4.
    #[serde(default)]
    pub external_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountRecord {
    pub id: String,
    pub name: String,
    pub company_slug: Option<String>,
    /// Annual consumption commit in cents; accounts without one are not forecast.
    pub annual_commit_cents: Option<i64>,
    /// `(YYYY-MM-DD, cents)` per day, oldest first.
    pub daily_usage: Vec<(String, i64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Running,
    Waiting,
    Completed,
    Failed,
    /// Appended in schema 2 (bincode encodes the variant index, so older rows still read).
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    pub id: String,
    pub worker: String,
    pub workflow_type: String,
    /// Unix seconds.
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub status: RunStatus,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenRecord {
    pub date: String,
    pub worker: String,
    pub model: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Cost in millionths of a US dollar.
    pub cost_micros: u64,
}

unchanged_records!(WorkerRecord, AccountRecord, RunRecord, TokenRecord);

/// Schema version 1 of a deal: the same fields, with a seven-stage enum that had
/// `discovery` between qualification and proposal (variant order is the encoding).
#[derive(Deserialize)]
struct DealRecordV1 {
    id: String,
    account_name: String,
    company_slug: Option<String>,
    value: u64,
    stage: StageV1,
    deal_type: DealType,
    rep: String,
    champion: String,
    champion_status: ChampionStatus,
    close_date: String,
    probability: u8,
    next_step: String,
    history: Vec<HistoryEntry>,
}

#[derive(Deserialize)]
enum StageV1 {
    Prospecting,
    Qualification,
    Discovery,
    Proposal,
    Negotiation,
    ClosedWon,
    ClosedLost,
}

impl From<StageV1> for Stage {
    /// `discovery` is not a stage of the spec; such deals were qualifying, so they become
    /// `qualification` (forward moves stay possible from there).
    fn from(s: StageV1) -> Self {
        match s {
            StageV1::Prospecting => Stage::Prospecting,
            StageV1::Qualification | StageV1::Discovery => Stage::Qualification,
            StageV1::Proposal => Stage::Proposal,
            StageV1::Negotiation => Stage::Negotiation,
            StageV1::ClosedWon => Stage::ClosedWon,
            StageV1::ClosedLost => Stage::ClosedLost,
        }
    }
}

/// Versions 2 and 3 of a deal: today's fields without `external_id`.
#[derive(Deserialize)]
struct DealRecordV2 {
    id: String,
    account_name: String,
    company_slug: Option<String>,
    value: u64,
    stage: Stage,
    deal_type: DealType,
    rep: String,
    champion: String,
    champion_status: ChampionStatus,
    close_date: String,
    probability: u8,
    next_step: String,
    history: Vec<HistoryEntry>,
}

impl From<DealRecordV2> for DealRecord {
    fn from(d: DealRecordV2) -> Self {
        DealRecord {
            id: d.id,
            account_name: d.account_name,
            company_slug: d.company_slug,
            value: d.value,
            stage: d.stage,
            deal_type: d.deal_type,
            rep: d.rep,
            champion: d.champion,
            champion_status: d.champion_status,
            close_date: d.close_date,
            probability: d.probability,
            next_step: d.next_step,
            history: d.history,
            external_id: None,
        }
    }
}

impl Record for DealRecord {
    /// Version 1 had the seven-stage enum; versions 2 and 3 had no `external_id`.
    fn upgrade(version: u8, body: &[u8]) -> Result<Self, CodecError> {
        if version >= 2 {
            return decode_body::<DealRecordV2>(body).map(DealRecord::from);
        }
        let d: DealRecordV1 = decode_body(body)?;
        Ok(DealRecord::from(DealRecordV2 {
            id: d.id,
            account_name: d.account_name,
            company_slug: d.company_slug,
            value: d.value,
            stage: d.stage.into(),
            deal_type: d.deal_type,
            rep: d.rep,
            champion: d.champion,
            champion_status: d.champion_status,
            close_date: d.close_date,
            probability: d.probability,
            next_step: d.next_step,
            history: d.history.into_iter().map(HistoryEntry::without_discovery).collect(),
        }))
    }
}

/// An accumulator a ledger's records are folded into as they are read.
pub trait Tally<T> {
    fn add(&mut self, record: T);
}

/// The workspace with its run and token ledgers folded into tallies (`Store::workspace_folded`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkspaceTallies<R, K> {
    pub workers: Vec<WorkerRecord>,
    /// The deals' count, value and weighted value per (stage, type), from the deal index.
    pub deals: Vec<(Stage, DealType, DealTally)>,
    pub accounts: Vec<AccountRecord>,
    pub runs: R,
    pub tokens: K,
}

/// Everything the demo workspace seeds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkspaceData {
    pub workers: Vec<WorkerRecord>,
    pub deals: Vec<DealRecord>,
    pub accounts: Vec<AccountRecord>,
    pub runs: Vec<RunRecord>,
    pub tokens: Vec<TokenRecord>,
}

impl Store {
    /// Whether a workspace was seeded into this database before: a later start skips reading
    /// the embedded one (half a megabyte of JSON) at all.
    pub async fn workspace_seeded(&self) -> Result<bool, StoreError> {
        self.blocking(|db| Ok(db.begin_read()?.open_table(META)?.get(DEMO_SEEDED_KEY)?.is_some())).await
    }

    /// Loads `data` once per database: later calls (later starts) change nothing, so user
    /// changes are never overwritten. Returns whether it seeded.
    pub async fn seed_workspace_once(&self, data: WorkspaceData) -> Result<bool, StoreError> {
        let deal_index = Arc::clone(&self.deal_index);
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut meta = txn.open_table(META)?;
                if meta.get(DEMO_SEEDED_KEY)?.is_some() {
                    return Ok(false);
                }
                meta.insert(DEMO_SEEDED_KEY, codec::encode(&true)?.as_slice())?;
                let mut workers = txn.open_table(WORKERS)?;
                for w in &data.workers {
                    workers.insert(w.id.as_str(), codec::encode(w)?.as_slice())?;
                }
                let mut deals = txn.open_table(DEALS)?;
                for d in &data.deals {
                    deals.insert(d.id.as_str(), codec::encode(d)?.as_slice())?;
                }
                let mut accounts = txn.open_table(ACCOUNTS)?;
                for a in &data.accounts {
                    accounts.insert(a.id.as_str(), codec::encode(a)?.as_slice())?;
                }
                let mut runs = txn.open_table(RUNS)?;
                for r in &data.runs {
                    runs.insert(r.id.as_str(), codec::encode(r)?.as_slice())?;
                }
                let mut tokens = txn.open_table(TOKENS)?;
                for (i, t) in data.tokens.iter().enumerate() {
                    tokens.insert(format!("{}/{i:08}", t.date).as_str(), codec::encode(t)?.as_slice())?;
                }
            }
            deal_index.commit(txn, |index| data.deals.iter().for_each(|d| index.upsert(d)))?;
            Ok(true)
        })
        .await
    }

    /// The workspace as the metric rollups read it: the deals' tallies from the deal index (no
    /// deal is read: a rollup every five minutes held 100,000 decoded deals at once, and the
    /// allocator kept the memory), then from one read transaction the workers and accounts whole
    /// and the two ledgers that grow with every workflow and model call folded record by record
    /// into `runs` and `tokens`, so a rollup's memory is that of the tallies, not of the ledgers.
    pub async fn workspace_folded<R, K>(&self, runs: R, tokens: K) -> Result<WorkspaceTallies<R, K>, StoreError>
    where
        R: Tally<RunRecord> + Send + 'static,
        K: Tally<TokenRecord> + Send + 'static,
    {
        let deals = self.deal_tallies();
        self.blocking(|db| {
            let txn = db.begin_read()?;
            Ok(WorkspaceTallies {
                workers: read_all(&txn, WORKERS)?,
                deals,
                accounts: read_all(&txn, ACCOUNTS)?,
                runs: fold_all(&txn, RUNS, runs, R::add)?,
                tokens: fold_all(&txn, TOKENS, tokens, K::add)?,
            })
        })
        .await
    }

    /// The workflow run ledger (the demo history and every workflow the engine has run) folded
    /// record by record into `tally`.
    pub async fn fold_runs<R: Tally<RunRecord> + Send + 'static>(&self, tally: R) -> Result<R, StoreError> {
        self.blocking(|db| fold_all(&db.begin_read()?, RUNS, tally, R::add)).await
    }

    /// Every worker, ordered by id.
    pub async fn workers(&self) -> Result<Vec<WorkerRecord>, StoreError> {
        self.all_records(WORKERS).await
    }

    pub async fn account(&self, id: &str) -> Result<Option<AccountRecord>, StoreError> {
        self.get_record(ACCOUNTS, id.to_owned()).await
    }

    pub async fn accounts(&self) -> Result<Vec<AccountRecord>, StoreError> {
        self.all_records(ACCOUNTS).await
    }

    /// Every deal, ordered by id, read from the file (the CSV export, the demo's simulation and
    /// the Brain; lists and totals come from the deal index, `deal_page` and `deal_tallies`).
    pub async fn deals(&self) -> Result<Vec<DealRecord>, StoreError> {
        self.all_records(DEALS).await
    }

    pub async fn deal(&self, id: &str) -> Result<Option<DealRecord>, StoreError> {
        self.get_record(DEALS, id.to_owned()).await
    }

    /// Applies `change` to a deal inside one write transaction; `None` for an unknown id.
    /// The closure sees the current record and returns the new one or its own error.
    pub async fn update_deal<E, F>(&self, id: &str, change: F) -> Result<Option<Result<DealRecord, E>>, StoreError>
    where
        E: Send + 'static,
        F: FnOnce(DealRecord) -> Result<DealRecord, E> + Send + 'static,
    {
        let (id, deal_index) = (id.to_owned(), Arc::clone(&self.deal_index));
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let answer = {
                let mut table = txn.open_table(DEALS)?;
                let current: Option<DealRecord> = match table.get(id.as_str())? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                let answer = current.map(change);
                if let Some(Ok(updated)) = &answer {
                    table.insert(id.as_str(), codec::encode(updated)?.as_slice())?;
                }
                answer
            };
            deal_index.commit(txn, |index| {
                if let Some(Ok(updated)) = &answer {
                    index.upsert(updated);
                }
            })?;
            Ok(answer)
        })
        .await
    }

    /// Lets `plan` see every deal (ordered by id) inside one write transaction and writes the
    /// records it returns (new ids are added, known ones replaced) with its answer — unless it
    /// returns its own error or `commit` is false (a dry run): then nothing is written. All or
    /// nothing.
    pub async fn plan_deals<A, E, F>(
        &self,
        commit: bool,
        plan: F,
    ) -> Result<Result<(Vec<DealRecord>, A), E>, StoreError>
    where
        A: Send + 'static,
        E: Send + 'static,
        F: FnOnce(Vec<DealRecord>) -> Result<(Vec<DealRecord>, A), E> + Send + 'static,
    {
        let deal_index = Arc::clone(&self.deal_index);
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let planned = {
                let mut table = txn.open_table(DEALS)?;
                let mut current = Vec::new();
                for entry in table.iter()? {
                    current.push(codec::decode::<DealRecord>(entry?.1.value())?);
                }
                match plan(current) {
                    Ok((records, answer)) if commit => {
                        for d in &records {
                            table.insert(d.id.as_str(), codec::encode(d)?.as_slice())?;
                        }
                        Ok((records, answer))
                    }
                    other => other,
                }
            };
            match &planned {
                Ok((records, _)) if commit => {
                    deal_index.commit(txn, |index| records.iter().for_each(|d| index.upsert(d)))?
                }
                _ => txn.abort()?,
            }
            Ok(planned)
        })
        .await
    }
}
