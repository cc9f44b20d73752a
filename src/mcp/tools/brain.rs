//! The `brain` toolset on the same `brain::chat` service as `/api/brain/*`: chat, read and
//! clear the caller's own thread. Both roles may use them (DESIGN: chatting and clearing
//! one's own history are allowed to viewers), so they are registered as `Access::Read`.

use serde_json::{Value, json};

use super::directory::NoArgs;
use super::memory::principal;
use crate::brain::chat::{self, ChatReply, ChatRequest, Cleared, History};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

pub struct BrainChat;
impl McpTool for BrainChat {
    const NAME: &'static str = "brain_chat";
    const TOOLSET: Toolset = Toolset::Brain;
    const DESCRIPTION: &'static str = "Ask the workspace Brain (your own thread): it answers from org, team and \
        worker memory, active workflows, pending approvals, the pipeline and a named company's receipted card, \
        citing memory as scope/key@version, company facts by EDGAR URL and the workspace as workflow:<id>, \
        approval:<id> or pipeline. Message at most 8 KiB. Same as POST /api/brain/chat.";
    const IDEMPOTENT: bool = false;
    type Args = ChatRequest;
    type Output = ChatReply;
    fn example() -> Value {
        json!({ "message": "What do we know about Apple?" })
    }
    async fn run(ctx: &ToolContext, a: ChatRequest) -> Result<ChatReply, ToolError> {
        let s = &ctx.state;
        let workspace = s.brain_workspace(&a.message).await;
        let budgets = &s.config().budgets;
        Ok(chat::chat(s.store(), s.llm(), s.directory(), principal(ctx)?, &a.message, &workspace, budgets).await?)
    }
}

pub struct BrainHistory;
impl McpTool for BrainHistory {
    const NAME: &'static str = "brain_history";
    const TOOLSET: Toolset = Toolset::Brain;
    const DESCRIPTION: &'static str = "Your own Brain conversation, oldest first (a summary message stands for \
        folded older messages; unanswered questions are marked).";
    type Args = NoArgs;
    type Output = History;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<History, ToolError> {
        Ok(chat::history(ctx.state.store(), principal(ctx)?).await?)
    }
}

pub struct BrainHistoryClear;
impl McpTool for BrainHistoryClear {
    const NAME: &'static str = "brain_history_clear";
    const TOOLSET: Toolset = Toolset::Brain;
    const DESCRIPTION: &'static str =
        "Clear your own Brain conversation; the next message starts a new conversation id.";
    type Args = NoArgs;
    type Output = Cleared;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<Cleared, ToolError> {
        Ok(chat::clear(ctx.state.store(), principal(ctx)?).await?)
    }
}
