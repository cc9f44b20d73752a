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

    fn usage(&self) -> TokenUse {
        TokenUse { input_tokens: self.input, output_tokens: self.output, cost_usd: usd_from_micros(self.micros) }
    }
}

/// Tokens and their cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenUse {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkerTokens {
    pub worker: String,
    #[serde(flatten)]
    pub usage: TokenUse,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelTokens {
    pub model: String,
    #[serde(flatten)]
    pub usage: TokenUse,
}

/// One UTC day (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DayTokens {
    pub date: String,
    #[serde(flatten)]
    pub usage: TokenUse,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenView {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    pub by_worker: Vec<WorkerTokens>,
    pub by_model: Vec<ModelTokens>,
    pub by_day: Vec<DayTokens>,
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
        TokenView {
            input_tokens: total.input,
            output_tokens: total.output,
            cost_usd: usd_from_micros(total.micros),
            by_worker: by_worker
                .iter()
                .map(|(k, s)| WorkerTokens { worker: (*k).to_owned(), usage: s.usage() })
                .collect(),
            by_model: by_model.iter().map(|(k, s)| ModelTokens { model: (*k).to_owned(), usage: s.usage() }).collect(),
            by_day: by_day.iter().map(|(k, s)| DayTokens { date: (*k).to_owned(), usage: s.usage() }).collect(),
        }
    }
}
