//! What each spender used of the models, per UTC day: one counter per `<who>/<YYYY-MM-DD>`
//! (`who` is a worker id, `user:<sub>`, or `workspace` for everything), added to in the same
//! transaction as the model call it counts, so a budget check reads a day in one lookup and a
//! month in at most 31. A data file from before the counters existed is counted once, from its
//! model-call ledger, when it is first opened (marked in `META`).

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::codec;
use super::tables::{BUDGETS, META, MODEL_CALLS, SPEND};
use super::{ModelCall, Store, StoreError};

/// The spender every call also counts for.
pub const WORKSPACE: &str = "workspace";
/// The spender every Brain user's call (`user:<sub>`) also counts for.
pub const BRAIN: &str = "brain";
/// The `META` key set once the ledger was counted.
const COUNTED: &str = "spend_counted";

/// Tokens (input plus output), cost and calls of one spender on one day, or summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendRecord {
    pub tokens: u64,
    pub cost_micros: u64,
    pub calls: u64,
}

codec::unchanged_records!(SpendRecord);

impl SpendRecord {
    fn add(&mut self, other: SpendRecord) {
        self.tokens += other.tokens;
        self.cost_micros += other.cost_micros;
        self.calls += other.calls;
    }
}

/// A spender's use today and this month (UTC), as of `at_ms`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spend {
    pub today: SpendRecord,
    pub month: SpendRecord,
}

/// `YYYY-MM-DD` of a time (UTC).
pub fn day_of(at_ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(at_ms).map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default()
}

/// Adds `call` to its spender's and the workspace's counters of its day, inside `txn`.
pub(crate) fn count(txn: &WriteTransaction, call: &ModelCall) -> Result<(), StoreError> {
    let day = day_of(call.at_ms);
    let used = SpendRecord { tokens: call.input_tokens + call.output_tokens, cost_micros: call.cost_micros, calls: 1 };
    let mut table = txn.open_table(SPEND)?;
    let brain = call.who.starts_with("user:").then_some(BRAIN);
    for who in [Some(call.who.as_str()), brain, Some(WORKSPACE)].into_iter().flatten() {
        let key = format!("{who}/{day}");
        let mut total: SpendRecord = match table.get(key.as_str())? {
            Some(v) => codec::decode(v.value())?,
            None => SpendRecord::default(),
        };
        total.add(used);
        table.insert(key.as_str(), codec::encode(&total)?.as_slice())?;
    }
    Ok(())
}

/// Counts the whole model-call ledger once, for a file written before the counters existed.
pub(crate) fn count_ledger_once(db: &redb::Database) -> Result<(), StoreError> {
    if db.begin_read()?.open_table(META)?.get(COUNTED)?.is_some() {
        return Ok(());
    }
    let txn = db.begin_write()?;
    {
        let calls: Vec<ModelCall> = {
            let table = txn.open_table(MODEL_CALLS)?;
            let mut calls = Vec::new();
            for entry in table.iter()? {
                calls.push(codec::decode(entry?.1.value())?);
            }
            calls
        };
        for call in &calls {
            count(&txn, call)?;
        }
        txn.open_table(META)?.insert(COUNTED, codec::encode(&true)?.as_slice())?;
    }
    txn.commit()?;
    Ok(())
}

/// A budget an admin set: token limits per UTC day and per month (`None`: no limit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetRecord {
    pub daily_tokens: Option<u64>,
    pub monthly_tokens: Option<u64>,
    /// Who set it (`u-12 (Dana)`) and when.
    pub by: String,
    pub at_ms: i64,
}

codec::unchanged_records!(BudgetRecord);

impl Store {
    /// Sets the budget under `key` (`worker/<id>`, `workspace`, `brain`), or removes it (`None`:
    /// the configured default applies again).
    pub async fn set_budget(&self, key: &str, record: Option<BudgetRecord>) -> Result<(), StoreError> {
        let key = key.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            {
                let mut table = txn.open_table(BUDGETS)?;
                match record {
                    Some(r) => {
                        table.insert(key.as_str(), codec::encode(&r)?.as_slice())?;
                    }
                    None => {
                        table.remove(key.as_str())?;
                    }
                }
            }
            txn.commit()?;
            Ok(())
        })
        .await
    }

    /// Every budget an admin set, by key.
    pub async fn budgets(&self) -> Result<Vec<(String, BudgetRecord)>, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let mut out = Vec::new();
            for entry in txn.open_table(BUDGETS)?.iter()? {
                let (key, value) = entry?;
                out.push((key.value().to_owned(), codec::decode(value.value())?));
            }
            Ok(out)
        })
        .await
    }

    /// What `who` used today and this month, as of `at_ms` (UTC days).
    pub async fn spend(&self, who: &str, at_ms: i64) -> Result<Spend, StoreError> {
        let day = day_of(at_ms);
        let month = day.get(..7).unwrap_or_default().to_owned();
        let (from, to) = (format!("{who}/{month}-01"), format!("{who}/{month}-32"));
        let today_key = format!("{who}/{day}");
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(SPEND)?;
            let mut spend = Spend::default();
            for entry in table.range(from.as_str()..to.as_str())? {
                let (key, value) = entry?;
                let used: SpendRecord = codec::decode(value.value())?;
                if key.value() == today_key {
                    spend.today = used;
                }
                spend.month.add(used);
            }
            Ok(spend)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(who: &str, at_ms: i64, tokens: u64) -> ModelCall {
        ModelCall {
            at_ms,
            who: who.into(),
            model: "m".into(),
            task: "fast".into(),
            input_tokens: tokens,
            output_tokens: 0,
            cost_micros: tokens * 2,
        }
    }

    #[tokio::test]
    async fn calls_are_counted_per_spender_per_day_and_month() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("s.redb")).expect("open");
        let day = 86_400_000;
        // 2026-11-27 and 2026-11-26, and one in October.
        let today = 1_795_737_600_000;
        for (who, at, tokens) in [("sdr", today, 10), ("sdr", today + 5, 5), ("sdr", today - day, 7)] {
            store.record_model_call(call(who, at, tokens)).await.expect("record");
        }
        store.record_model_call(call("user:u1", today, 100)).await.expect("record");
        store.record_model_call(call("sdr", today - 40 * day, 1000)).await.expect("record");
        let sdr = store.spend("sdr", today).await.expect("spend");
        assert_eq!((sdr.today.tokens, sdr.today.calls, sdr.month.tokens), (15, 2, 22));
        assert_eq!(sdr.today.cost_micros, 30);
        let all = store.spend(WORKSPACE, today).await.expect("spend");
        assert_eq!((all.today.tokens, all.month.tokens), (115, 122));
        assert_eq!(store.spend(BRAIN, today).await.expect("spend").today.tokens, 100, "users together");
        assert_eq!(store.spend("nobody", today).await.expect("spend"), Spend::default());
    }
}
