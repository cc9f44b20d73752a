//! The Anthropic Messages client (`POST {base_url}/v1/messages`, `anthropic-version:
//! 2023-06-01`): the key goes in `x-api-key`, the context in `system`, turns alternate
//! starting with the user; usage comes from `usage.input_tokens` and `usage.output_tokens`.

use futures_util::future::BoxFuture;
use serde_json::{Value, json};

use super::model::{LanguageModel, ModelError, ModelReply, ModelRequest, Speaker};
use super::provider_http::{alternating, http_client, json_reply, transport_error};
use crate::config::{LlmSettings, Secret};

pub const API_VERSION: &str = "2023-06-01";

pub struct AnthropicModel {
    client: reqwest::Client,
    url: String,
    key: Secret,
    timeout_secs: u64,
}

impl AnthropicModel {
    pub fn new(settings: &LlmSettings) -> Result<Self, ModelError> {
        let key = settings.api_key.clone().ok_or_else(|| ModelError::Unreachable("no API key configured".into()))?;
        Ok(Self {
            client: http_client(settings)?,
            url: format!("{}/v1/messages", settings.base_url),
            key,
            timeout_secs: settings.timeout_secs,
        })
    }

    async fn send(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let turns = alternating(&request.turns);
        let start = turns.iter().position(|t| t.speaker == Speaker::User).unwrap_or(turns.len());
        let messages: Vec<Value> =
            turns[start..].iter().map(|t| json!({ "role": t.speaker.as_str(), "content": t.text })).collect();
        let body = json!({
            "model": request.model,
            "max_tokens": request.max_output_tokens,
            "system": request.system,
            "messages": messages,
        });
        let res = self
            .client
            .post(&self.url)
            .header("x-api-key", self.key.expose())
            .header("anthropic-version", API_VERSION)
            .json(&body)
            .send()
            .await
            .map_err(|e| transport_error(e, self.timeout_secs))?;
        parse(&json_reply(res, self.timeout_secs).await?, &request.model)
    }
}

fn parse(v: &Value, asked: &str) -> Result<ModelReply, ModelError> {
    let blocks = v["content"].as_array().ok_or_else(|| ModelError::BadReply("no content array".into()))?;
    let text: String = blocks.iter().filter(|b| b["type"] == "text").filter_map(|b| b["text"].as_str()).collect();
    if text.is_empty() {
        return Err(ModelError::BadReply("no text block in content".into()));
    }
    Ok(ModelReply {
        text,
        model: v["model"].as_str().unwrap_or(asked).to_owned(),
        input_tokens: v["usage"]["input_tokens"].as_u64().unwrap_or(0),
        output_tokens: v["usage"]["output_tokens"].as_u64().unwrap_or(0),
    })
}

impl LanguageModel for AnthropicModel {
    fn provider(&self) -> &'static str {
        "anthropic"
    }

    fn complete<'a>(&'a self, request: &'a ModelRequest) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
        Box::pin(self.send(request))
    }
}
