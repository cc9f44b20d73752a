//! The one trait every language-model provider implements, and what travels through it:
//! a request (task type, model name, system text, messages, output cap) and a reply (text,
//! the model that answered, provider-reported token usage). Providers are chosen once at
//! start-up (`providers::from_config`); nothing else knows which one runs.

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

pub use crate::domain::estimate_tokens;
use crate::error::{ErrorKind, ServiceError};

/// What a model call is for; each task type has its own configured model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TaskType {
    /// Research and planning: the Brain, the coordinator's plans.
    Research,
    /// Content generation and drafting.
    Content,
    /// Fast classification and summaries (memory compression).
    Fast,
}

impl TaskType {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskType::Research => "research",
            TaskType::Content => "content",
            TaskType::Fast => "fast",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speaker {
    User,
    Assistant,
}

impl Speaker {
    pub fn as_str(self) -> &'static str {
        match self {
            Speaker::User => "user",
            Speaker::Assistant => "assistant",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub speaker: Speaker,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRequest {
    pub task: TaskType,
    /// The configured model of `task`.
    pub model: String,
    /// Instructions and the injected context.
    pub system: String,
    /// The conversation, oldest first; the last turn is the user's question.
    pub turns: Vec<Turn>,
    pub max_output_tokens: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelReply {
    pub text: String,
    pub model: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("the language model did not answer within {0} seconds")]
    Timeout(u64),
    #[error("the language model could not be reached: {0}")]
    Unreachable(String),
    #[error("the language model answered HTTP {status}: {detail}")]
    Status { status: u16, detail: String },
    #[error("the language model's answer could not be read: {0}")]
    BadReply(String),
}

impl ServiceError for ModelError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Unavailable
    }
}

/// A language-model provider.
pub trait LanguageModel: Send + Sync {
    /// `demo`, `openai` or `anthropic`.
    fn provider(&self) -> &'static str;

    fn complete<'a>(&'a self, request: &'a ModelRequest) -> BoxFuture<'a, Result<ModelReply, ModelError>>;
}
