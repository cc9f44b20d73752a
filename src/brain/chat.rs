//! The chat service behind `/api/brain/*` and the `brain` MCP tools. A chat turn loads the
//! user's thread, gathers org memory, the user's team memory, worker memories relevant to the
//! question and the named company's receipted card, assembles the context (`context`), calls
//! the research model, and stores the question and the answer in one durable commit. When the
//! model fails, the question is stored marked unanswered and the caller gets `Unavailable`.
//! Threads belong to the JWT `sub`; past `HISTORY_LIMIT` messages the oldest are folded into a
//! summary message (the originals are archived, never dropped).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::{ContextInput, assemble};
use super::{Llm, ModelError, TaskType};
use crate::auth::Principal;
use crate::companies::card::Card;
use crate::companies::directory::Directory;
use crate::domain::{DomainName, TeamId, Ticker, clip};
use crate::error::{ErrorKind, ServiceError};
use crate::store::{ChatRecord, IndexedEntry, MemoryRecord, SUMMARY_ROLE, ScopeFilter, Store, StoreError};

pub const MAX_MESSAGE_BYTES: usize = 8 * 1024;
pub const HISTORY_LIMIT: usize = 500;
const HISTORY_BUDGET_TOKENS: u64 = 3000;
const MAX_OUTPUT_TOKENS: u32 = 1024;
const WORKER_HITS: usize = 5;
/// Org and team memory offered to the model per question (pinned, relevant, then newest).
pub const ORG_BUDGET_TOKENS: u64 = 1_500;
pub const TEAM_BUDGET_TOKENS: u64 = 1_000;
/// Characters of a memory value shown in the context (as `context` clips it).
const VALUE_CHARS: usize = 400;
const SUMMARY_MAX_BYTES: usize = 16 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum BrainError {
    #[error("message: say something (1 to 8192 bytes)")]
    Empty,
    #[error("the message is {0} bytes; a chat message may be at most 8192 bytes (8 KiB)")]
    TooLarge(usize),
    #[error("{0}; your message is kept in your history, marked unanswered")]
    Model(#[from] ModelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Budget(#[from] crate::budgets::BudgetError),
}

impl ServiceError for BrainError {
    fn retry_after(&self) -> Option<u64> {
        match self {
            BrainError::Budget(e) => e.retry_after(),
            _ => None,
        }
    }

    fn kind(&self) -> ErrorKind {
        match self {
            BrainError::Budget(e) => e.kind(),
            BrainError::Empty => ErrorKind::BadInput,
            BrainError::TooLarge(_) => ErrorKind::TooLarge,
            BrainError::Model(e) => e.kind(),
            BrainError::Store(e) => e.kind(),
        }
    }
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// The question: not only whitespace, at most 8 KiB of UTF-8 (413 beyond).
    #[schemars(regex(pattern = r"\S"), length(max = 8192))]
    pub message: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatReply {
    pub response: String,
    pub conversation_id: String,
    /// Input plus output tokens as the provider reported them (counted for the demo model).
    pub tokens_used: u64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    /// `user`, `assistant`, or `summary` (the earlier conversation, folded).
    pub role: String,
    pub content: String,
    /// ISO 8601 UTC.
    pub timestamp: String,
    /// Present and true on a question the model never answered.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unanswered: bool,
    /// On an answer: the input plus output tokens of its model call (absent on questions, the
    /// summary, and answers stored before this was recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_used: Option<u64>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct History {
    pub messages: Vec<ChatMessage>,
    pub conversation_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Cleared {
    pub status: String,
    pub message: String,
}

fn record(role: &str, content: &str, unanswered: bool, at_ms: i64) -> ChatRecord {
    ChatRecord { role: role.into(), content: content.into(), at_ms, unanswered, tokens_used: 0 }
}

/// The summary replacing `folded`: the previous summary, then one line per folded message,
/// keeping the newest 16 KiB (the originals stay in the archive).
pub fn summarize(previous: Option<&ChatRecord>, folded: &[ChatRecord], now_ms: i64) -> ChatRecord {
    let mut text = previous.map(|p| p.content.clone()).unwrap_or_default();
    for m in folded {
        text.push_str(&format!("\n{}: {}", m.role, clip(&m.content.replace('\n', " "), 200)));
    }
    let mut start = text.len().saturating_sub(SUMMARY_MAX_BYTES);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    ChatRecord {
        role: SUMMARY_ROLE.into(),
        content: text[start..].trim_start().to_owned(),
        at_ms: now_ms,
        unanswered: false,
        tokens_used: 0,
    }
}

/// The company a question names: an upper-case ticker (`AAPL`), a domain (`apple.com`), or a
/// slug word or pair (`apple`, `bank-of-america`), when it has a receipted card.
pub fn named_company<'d>(directory: &'d Directory, question: &str) -> Option<&'d Card> {
    let tokens: Vec<&str> =
        question.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-')).filter(|t| !t.is_empty()).collect();
    let by_ticker =
        tokens.iter().filter(|t| t.len() <= 6 && t.chars().all(|c| c.is_ascii_uppercase() || c == '.')).find_map(|t| {
            Ticker::parse(t).ok().and_then(|t| directory.by_ticker(&t)).and_then(|c| c.card().map(|card| &**card))
        });
    let by_domain = || {
        tokens
            .iter()
            .filter(|t| t.contains('.'))
            .find_map(|t| DomainName::parse(t.trim_matches('.')).ok().and_then(|d| directory.by_domain(&d)))
            .and_then(|c| c.card().map(|card| &**card))
    };
    if let Some(card) = by_ticker.or_else(by_domain) {
        return Some(card);
    }
    let words: Vec<String> = tokens.iter().map(|t| t.to_lowercase().trim_matches('.').to_owned()).collect();
    let pairs = words.windows(2).map(|w| format!("{}-{}", w[0], w[1]));
    let singles = words.iter().filter(|w| w.len() >= 4).cloned();
    pairs.chain(singles).find_map(|s| directory.by_slug(&s).and_then(|c| c.card().map(|card| &**card)))
}

/// Estimated tokens of an entry's context line (its value is clipped there).
fn line_tokens(e: &IndexedEntry) -> u64 {
    let chars = e.value_chars.min(VALUE_CHARS) + 2 * e.key.len() + e.scope.len() + 24;
    (chars as u64).div_ceil(4)
}

/// Memory written in the last day shown to the model, newest first.
const RECENT_MEMORY: usize = 10;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The memory of the question's context, found through the memory index (never a scan):
/// org and team memory each within a token budget, the best worker matches, and what was
/// written in the last day (by the store's clock) in the scopes the user may read: org, the
/// workers', and the user's own team's, never another team's.
async fn context_memory(
    store: &Store,
    question: &str,
    team: Option<&TeamId>,
) -> Result<[Vec<MemoryRecord>; 4], StoreError> {
    let asked = crate::domain::search_words(question);
    let index = store.memory_index();
    let org = index.pick("org", &asked, ORG_BUDGET_TOKENS, line_tokens);
    let team_scope = team.map(|t| t.scope().to_string());
    let team = team_scope.as_deref().map(|scope| index.pick(scope, &asked, TEAM_BUDGET_TOKENS, line_tokens));
    let (_, workers) = index.search_distinctive(&asked, ScopeFilter::Prefix("worker:"), WORKER_HITS);
    let visible = |scope: &str| scope == "org" || scope.starts_with("worker:") || Some(scope) == team_scope.as_deref();
    let recent = index.updated_since(store.now_ms() - DAY_MS, RECENT_MEMORY, visible);
    let groups: [Vec<IndexedEntry>; 4] =
        [org, team.unwrap_or_default(), workers.into_iter().map(|(_, e)| e).collect(), recent];
    // The four groups' records in one read, then dealt back to their groups.
    let sizes = groups.each_ref().map(Vec::len);
    let addresses = groups.into_iter().flatten().map(|e| (e.scope, e.key)).collect();
    let mut records = store.memory_entries(addresses).await?.into_iter();
    Ok(sizes.map(|n| records.by_ref().take(n).flatten().collect()))
}

/// One chat turn for `principal`.
#[tracing::instrument(level = "debug", skip_all, fields(user = %principal.sub))]
pub async fn chat(
    store: &Store,
    llm: &Llm,
    directory: &Directory,
    principal: &Principal,
    message: &str,
    workspace: &super::context::Workspace,
    budgets: &crate::config::BudgetSettings,
) -> Result<ChatReply, BrainError> {
    if message.len() > MAX_MESSAGE_BYTES {
        return Err(BrainError::TooLarge(message.len()));
    }
    if message.trim().is_empty() {
        return Err(BrainError::Empty);
    }
    // Before the model is called; a budget that cannot be read refuses the call (fail closed).
    crate::budgets::check_brain(store, budgets, &principal.sub).await?;
    let (summary, recent) = store
        .chat_recent(&principal.sub, HISTORY_BUDGET_TOKENS, |m| crate::brain::model::estimate_tokens(&m.content))
        .await?;
    let history: Vec<ChatRecord> = summary.into_iter().chain(recent).collect();
    let [org, team, workers, recent] = context_memory(store, message, principal.team.as_ref()).await?;
    let card_of = |slug: &str| directory.by_slug(slug).and_then(|c| c.card().map(|card| &**card));
    let context = assemble(&ContextInput {
        question: message,
        history: &history,
        history_budget_tokens: HISTORY_BUDGET_TOKENS,
        org: &org,
        team: principal.team.as_ref().map(|t| (t.as_str(), team.as_slice())),
        workers: &workers,
        workspace,
        recent_memory: &recent,
        company: named_company(directory, message),
        card_of: &card_of,
        now_ms: store.now_ms(),
    });
    let who = format!("user:{}", principal.sub);
    // The call is recorded with the thread, in the thread's commit: one durable commit a message.
    match llm.complete(&who, TaskType::Research, context.system, context.turns, MAX_OUTPUT_TOKENS).await {
        Ok((reply, call)) => {
            super::llm::count(&call);
            let now = store.now_ms();
            let tokens_used = reply.input_tokens + reply.output_tokens;
            let answer = ChatRecord { tokens_used, ..record("assistant", &reply.text, false, now) };
            let records = vec![record("user", message, false, now), answer];
            let conversation_id =
                store.append_chat(&principal.sub, records, HISTORY_LIMIT, summarize, Some(call)).await?;
            tracing::debug!(input = reply.input_tokens, output = reply.output_tokens, "the model answered");
            Ok(ChatReply { response: reply.text, conversation_id, tokens_used })
        }
        Err(e) => {
            tracing::warn!(error = %e, "the model did not answer a chat message");
            store
                .append_chat(
                    &principal.sub,
                    vec![record("user", message, true, store.now_ms())],
                    HISTORY_LIMIT,
                    summarize,
                    None,
                )
                .await?;
            Err(BrainError::Model(e))
        }
    }
}

pub async fn history(store: &Store, principal: &Principal) -> Result<History, BrainError> {
    let (thread, records) = store.chat_thread(&principal.sub).await?;
    let messages = records
        .into_iter()
        .map(|r| ChatMessage {
            timestamp: crate::memory::iso_ms(r.at_ms),
            role: r.role,
            content: r.content,
            unanswered: r.unanswered,
            tokens_used: (r.tokens_used > 0).then_some(r.tokens_used),
        })
        .collect();
    Ok(History { messages, conversation_id: thread.map(|t| t.conversation_id) })
}

pub async fn clear(store: &Store, principal: &Principal) -> Result<Cleared, BrainError> {
    let removed = store.clear_chat(&principal.sub).await?;
    Ok(Cleared {
        status: "ok".into(),
        message: format!("cleared {removed} messages; the next message starts a new conversation"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_keep_every_folded_message_in_brief_and_stay_bounded() {
        let folded = [record("user", "hello there", false, 0), record("assistant", &"long ".repeat(100), false, 0)];
        let s = summarize(None, &folded, 1);
        assert_eq!(s.role, SUMMARY_ROLE);
        assert!(s.content.starts_with("user: hello there") && s.content.contains("assistant: long"));
        let big = ChatRecord { content: "x".repeat(SUMMARY_MAX_BYTES), ..s.clone() };
        assert!(summarize(Some(&big), &folded, 2).content.len() <= SUMMARY_MAX_BYTES);
    }
}
