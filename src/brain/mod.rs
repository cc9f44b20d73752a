//! The Brain: per-user chat over the workspace's memory and company data. `context` assembles
//! what the model sees (one pure function), `model` is the provider trait with its three
//! implementations (`demo` offline, `openai` for any OpenAI-compatible endpoint, `anthropic`),
//! `provider_http` holds what the two HTTP providers share, `llm` routes a call to the model of its task type and records it in the token ledger,
//! and `chat` is the service behind `/api/brain/*` and the `brain` MCP tools.
//! Knows nothing of HTTP; never logs an API key.

pub mod anthropic;
#[cfg(test)]
mod budget_test;
pub mod chat;
pub mod context;
pub mod demo;
pub mod llm;
pub mod model;
pub mod openai;
mod provider_http;

pub use demo::{DEMO_MODEL, DEMO_NOTICE};
pub use llm::Llm;
pub use model::{ModelError, TaskType};
