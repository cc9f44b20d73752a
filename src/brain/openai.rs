//! The OpenAI-compatible chat-completions client (`POST {base_url}/chat/completions`): works
//! with OpenAI, Ollama (`http://127.0.0.1:11434/v1`), vLLM and the llama.cpp server. The key,
//! when configured, goes in `Authorization: Bearer`; usage comes from `usage.prompt_tokens` and
//! `usage.completion_tokens`.

use futures_util::future::BoxFuture;
use serde_json::{Value, json};

use super::model::{LanguageModel, ModelError, ModelReply, ModelRequest};
use super::provider_http::{alternating, http_client, json_reply, transport_error};
use crate::config::{LlmSettings, Secret};

pub struct OpenAiModel {
    client: reqwest::Client,
    url: String,
    key: Option<Secret>,
    timeout_secs: u64,
}

impl OpenAiModel {
    pub fn new(settings: &LlmSettings) -> Result<Self, ModelError> {
        Ok(Self {
            client: http_client(settings)?,
            url: format!("{}/chat/completions", settings.base_url),
            key: settings.api_key.clone(),
            timeout_secs: settings.timeout_secs,
        })
    }

    async fn send(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let mut messages = vec![json!({ "role": "system", "content": request.system })];
        for t in alternating(&request.turns) {
            messages.push(json!({ "role": t.speaker.as_str(), "content": t.text }));
        }
        let body = json!({ "model": request.model, "messages": messages, "max_tokens": request.max_output_tokens });
        let mut call = self.client.post(&self.url).json(&body);
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose());
        }
        let res = call.send().await.map_err(|e| transport_error(e, self.timeout_secs))?;
        parse(&json_reply(res, self.timeout_secs).await?, &request.model)
    }
}

fn parse(v: &Value, asked: &str) -> Result<ModelReply, ModelError> {
    let text = v["choices"][0]["message"]["content"]
        .as_str()
        .ok_or_else(|| ModelError::BadReply("no choices[0].message.content".into()))?;
    Ok(ModelReply {
        text: text.to_owned(),
        model: v["model"].as_str().unwrap_or(asked).to_owned(),
        input_tokens: v["usage"]["prompt_tokens"].as_u64().unwrap_or(0),
        output_tokens: v["usage"]["completion_tokens"].as_u64().unwrap_or(0),
    })
}

impl LanguageModel for OpenAiModel {
    fn provider(&self) -> &'static str {
        "openai"
    }

    fn complete<'a>(&'a self, request: &'a ModelRequest) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
        Box::pin(self.send(request))
    }
}
