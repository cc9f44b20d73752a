//! Pipeline view: total, open and weighted value; deal counts by stage; win rate =
//! won / (won + lost) by count (null when nothing has closed).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::domain::Stage;
use crate::store::WorkspaceData;

pub fn view(data: &WorkspaceData) -> Value {
    let deals = &data.deals;
    let open: Vec<_> = deals.iter().filter(|d| !d.stage.is_closed()).collect();
    let weighted: u64 = open.iter().map(|d| d.value * u64::from(d.probability)).sum::<u64>() / 100;
    let mut counts: BTreeMap<&str, usize> = Stage::ALL.iter().map(|s| (s.as_str(), 0)).collect();
    for d in deals {
        *counts.entry(d.stage.as_str()).or_default() += 1;
    }
    let won = counts[Stage::ClosedWon.as_str()];
    let lost = counts[Stage::ClosedLost.as_str()];
    let win_rate = if won + lost == 0 {
        Value::Null
    } else {
        json!((won as f64 / (won + lost) as f64 * 10_000.0).round() / 10_000.0)
    };
    json!({
        "totalValue": deals.iter().map(|d| d.value).sum::<u64>(),
        "openValue": open.iter().map(|d| d.value).sum::<u64>(),
        "weightedValue": weighted,
        "dealCount": deals.len(),
        "countsByStage": counts,
        "won": won,
        "lost": lost,
        "winRate": win_rate,
    })
}
