//! `Llm`: the provider chosen once at start-up from `[llm]`, the model of each task type,
//! and the token ledger. Every model call goes through `Llm::call`, which records who asked
//! (a user or a worker), the model, the task type, the provider-reported tokens and their
//! cost from the price table; the ledger feeds `/api/metrics/tokens`.

use std::sync::Arc;

use super::anthropic::AnthropicModel;
use super::demo::DemoModel;
use super::model::{LanguageModel, ModelError, ModelReply, ModelRequest, TaskType, Turn};
use super::openai::OpenAiModel;
use crate::clock::SharedClock;
use crate::config::{LlmSettings, Provider};
use crate::store::{ModelCall, Store};

pub struct Llm {
    provider: Arc<dyn LanguageModel>,
    settings: LlmSettings,
    /// Stamps the token-ledger entries.
    clock: SharedClock,
}

impl Llm {
    pub fn from_settings(settings: &LlmSettings, clock: SharedClock) -> Result<Self, ModelError> {
        let provider: Arc<dyn LanguageModel> = match settings.provider {
            Provider::Demo => Arc::new(DemoModel),
            Provider::OpenAi => Arc::new(OpenAiModel::new(settings)?),
            Provider::Anthropic => Arc::new(AnthropicModel::new(settings)?),
        };
        Ok(Self { provider, settings: settings.clone(), clock })
    }

    pub fn provider(&self) -> &'static str {
        self.provider.provider()
    }

    pub fn model_for(&self, task: TaskType) -> &str {
        match task {
            TaskType::Research => &self.settings.model_research,
            TaskType::Content => &self.settings.model_content,
            TaskType::Fast => &self.settings.model_fast,
        }
    }

    /// Cost in millionths of a dollar of `input`/`output` tokens of `model` (0 without a price).
    pub fn cost_micros(&self, model: &str, input: u64, output: u64) -> u64 {
        self.settings
            .prices
            .get(model)
            .map_or(0, |p| (input as f64 * p.input + output as f64 * p.output).round() as u64)
    }

    /// Calls the model of `task` and records the call in the ledger for `who`
    /// (`user:<sub>` or a worker id). A ledger failure is logged, never returned.
    pub async fn call(
        &self,
        store: &Store,
        who: &str,
        task: TaskType,
        system: String,
        turns: Vec<Turn>,
        max_output_tokens: u32,
    ) -> Result<ModelReply, ModelError> {
        let (reply, call) = self.complete(who, task, system, turns, max_output_tokens).await?;
        record(store, call).await;
        Ok(reply)
    }

    /// Calls the model of `task` for `who` without recording it: the caller records the
    /// returned ledger entry where the ledger lives (a `gtms worker` process has none).
    pub async fn complete(
        &self,
        who: &str,
        task: TaskType,
        system: String,
        turns: Vec<Turn>,
        max_output_tokens: u32,
    ) -> Result<(ModelReply, ModelCall), ModelError> {
        let request = ModelRequest { task, model: self.model_for(task).to_owned(), system, turns, max_output_tokens };
        let reply = self.provider.complete(&request).await?;
        let call = ModelCall {
            at_ms: self.clock.now_ms(),
            who: who.to_owned(),
            model: reply.model.clone(),
            task: task.as_str().to_owned(),
            input_tokens: reply.input_tokens,
            output_tokens: reply.output_tokens,
            cost_micros: self.cost_micros(&request.model, reply.input_tokens, reply.output_tokens),
        };
        Ok((reply, call))
    }
}

/// Counts one model call in the Prometheus counters (`record` also writes it to the ledger; the
/// Brain's chat writes it with the thread, in one commit).
pub fn count(call: &ModelCall) {
    crate::prometheus::model_call(&call.model, &call.who, call.input_tokens, call.output_tokens, call.cost_micros);
}

/// Records one model call in the token ledger and the Prometheus counters. A ledger failure is
/// logged, never returned.
pub async fn record(store: &Store, call: ModelCall) {
    count(&call);
    if let Err(e) = store.record_model_call(call).await {
        tracing::warn!(error = %e, "could not record a model call in the token ledger");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{LlmLayer, Price};

    #[test]
    fn costs_come_from_the_price_table() {
        let mut settings = LlmLayer::default().validate().unwrap();
        settings.prices.insert("m".into(), Price { input: 3.0, output: 15.0 });
        let llm = Llm::from_settings(&settings, crate::clock::SystemClock::shared()).unwrap();
        assert_eq!(llm.cost_micros("m", 1000, 100), 4500);
        assert_eq!(llm.cost_micros("other", 1000, 100), 0);
    }
}
