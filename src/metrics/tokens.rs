//! Token view: input and output tokens and USD cost, in total and by worker, model and day.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{MetricsData, View, usd_from_micros};
use crate::store::{Tally, TokenRecord};

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sum {
    pub input: u64,
    pub output: u64,
    pub micros: u64,
}

impl Sum {
    fn add(&mut self, other: &Sum) {
        self.input += other.input;
        self.output += other.output;
        self.micros += other.micros;
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

/// The token ledger folded: one sum per (day, worker, model), whatever the number of calls.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TokenTallies(BTreeMap<(String, String, String), Sum>);

impl Tally<TokenRecord> for TokenTallies {
    fn add(&mut self, t: TokenRecord) {
        let sum = Sum { input: t.input_tokens, output: t.output_tokens, micros: t.cost_micros };
        self.0.entry((t.date, t.worker, t.model)).or_default().add(&sum);
    }
}

impl TokenTallies {
    /// Every (day, worker, model) with its sum.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, &str, &Sum)> {
        self.0.iter().map(|((date, worker, model), sum)| (date.as_str(), worker.as_str(), model.as_str(), sum))
    }
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

    fn compute(data: &MetricsData) -> Self {
        let mut total = Sum::default();
        let (mut by_worker, mut by_model, mut by_day) =
            (BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new(), BTreeMap::<&str, Sum>::new());
        for (date, worker, model, sum) in data.tokens.iter() {
            total.add(sum);
            by_worker.entry(worker).or_default().add(sum);
            by_model.entry(model).or_default().add(sum);
            by_day.entry(date).or_default().add(sum);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn call(date: &str, worker: &str, model: &str, input: u64, micros: u64) -> TokenRecord {
        let (date, worker, model) = (date.into(), worker.into(), model.into());
        TokenRecord { date, worker, model, input_tokens: input, output_tokens: 1, cost_micros: micros }
    }

    #[test]
    fn calls_fold_into_one_sum_per_day_worker_and_model() {
        let mut tokens = TokenTallies::default();
        for _ in 0..1_000 {
            tokens.add(call("2026-11-20", "brain", "demo", 10, 100));
        }
        tokens.add(call("2026-11-20", "scout", "demo", 5, 2_000_000));
        tokens.add(call("2026-11-21", "brain", "other", 7, 1_000_000));
        assert_eq!(tokens.iter().count(), 3, "a thousand calls of one kind are one sum");
        let view = TokenView::compute(&MetricsData { tokens, ..Default::default() });
        assert_eq!((view.input_tokens, view.output_tokens, view.cost_usd), (10_012, 1_002, 3.1));
        let workers: Vec<_> = view.by_worker.iter().map(|w| (w.worker.as_str(), w.usage.input_tokens)).collect();
        assert_eq!(workers, [("brain", 10_007), ("scout", 5)]);
        let models: Vec<_> = view.by_model.iter().map(|m| (m.model.as_str(), m.usage.output_tokens)).collect();
        assert_eq!(models, [("demo", 1_001), ("other", 1)]);
        let days: Vec<_> = view.by_day.iter().map(|d| (d.date.as_str(), d.usage.cost_usd)).collect();
        assert_eq!(days, [("2026-11-20", 2.1), ("2026-11-21", 1.0)]);
    }
}
