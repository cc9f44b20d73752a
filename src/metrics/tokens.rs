//! Token view: input and output tokens and USD cost, in total and by worker, model and day.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::usd_from_micros;
use crate::store::{TokenRecord, WorkspaceData};

#[derive(Default)]
struct Sum {
    input: u64,
    output: u64,
    micros: u64,
}

impl Sum {
    fn add(&mut self, t: &TokenRecord) {
        self.input += t.input_tokens;
        self.output += t.output_tokens;
        self.micros += t.cost_micros;
    }

    fn json(&self, key: &str, name: &str) -> Value {
        json!({ key: name, "inputTokens": self.input, "outputTokens": self.output, "costUsd": usd_from_micros(self.micros) })
    }
}

pub fn view(data: &WorkspaceData) -> Value {
    let mut total = Sum::default();
    let (mut by_worker, mut by_model, mut by_day) =
        (BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new());
    for t in &data.tokens {
        total.add(t);
        by_worker.entry(&t.worker).or_default().add(t);
        by_model.entry(&t.model).or_default().add(t);
        by_day.entry(&t.date).or_default().add(t);
    }
    let list = |m: &BTreeMap<&str, Sum>, key: &str| m.iter().map(|(k, s)| s.json(key, k)).collect::<Vec<_>>();
    json!({
        "inputTokens": total.input,
        "outputTokens": total.output,
        "costUsd": usd_from_micros(total.micros),
        "byWorker": list(&by_worker, "worker"),
        "byModel": list(&by_model, "model"),
        "byDay": list(&by_day, "date"),
    })
}
