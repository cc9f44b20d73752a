//! Token view: input and output tokens and USD cost, in total and by worker, model and day.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{View, usd_from_micros};
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

    fn row(&self, name: &str) -> TokenRow {
        TokenRow {
            name: name.to_owned(),
            input_tokens: self.input,
            output_tokens: self.output,
            cost_usd: usd_from_micros(self.micros),
        }
    }
}

/// One group's use; `name` is the worker id, the model or the `YYYY-MM-DD` day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenRow {
    pub name: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenView {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    pub by_worker: Vec<TokenRow>,
    pub by_model: Vec<TokenRow>,
    pub by_day: Vec<TokenRow>,
}

impl View for TokenView {
    const NAME: &'static str = "tokens";

    fn compute(data: &WorkspaceData) -> Self {
        let mut total = Sum::default();
        let (mut by_worker, mut by_model, mut by_day) =
            (BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new());
        for t in &data.tokens {
            total.add(t);
            by_worker.entry(&t.worker).or_default().add(t);
            by_model.entry(&t.model).or_default().add(t);
            by_day.entry(&t.date).or_default().add(t);
        }
        let rows = |m: &BTreeMap<&str, Sum>| m.iter().map(|(k, s)| s.row(k)).collect();
        TokenView {
            input_tokens: total.input,
            output_tokens: total.output,
            cost_usd: usd_from_micros(total.micros),
            by_worker: rows(&by_worker),
            by_model: rows(&by_model),
            by_day: rows(&by_day),
        }
    }
}
