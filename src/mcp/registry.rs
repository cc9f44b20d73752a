//! The tool registry: every MCP tool is a type implementing `McpTool` (name, toolset,
//! description, typed arguments and output, an example call, and `run`), registered with one
//! line in `tools::visit()`. From that one definition come the `tools/list` entry (input and
//! output schemas — derived from the types by a test and embedded, `tool_schemas` —,
//! annotations), argument parsing, dispatch and the guide page.

use std::future::Future;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::context::{Caller, Selection};
use super::error::ToolError;
pub use super::toolset::Toolset;
use crate::auth::AdminProof;
use crate::auth::sessions::Principal;
use crate::state::AppState;

/// What a running tool may use.
pub struct ToolContext {
    pub state: AppState,
    pub caller: Caller,
    pub selection: Selection,
    pub registry: Arc<Registry>,
}

impl ToolContext {
    /// The workspace user behind the call, for services that decide what a role may do.
    pub fn principal(&self) -> Result<&Principal, ToolError> {
        self.caller.principal()
    }

    /// The proof a write tool hands its service: a workspace token of an admin.
    pub fn admin(&self) -> Result<AdminProof<'_>, ToolError> {
        Ok(self.principal()?.require_admin()?)
    }
}

/// Whether a tool only reads, or changes workspace state (and then needs the admin role).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// One tool. Arguments are parsed from the call's JSON object into `Args`
/// (`deny_unknown_fields` recommended); `Output` is returned as `structuredContent` and as text.
pub trait McpTool: 'static {
    const NAME: &'static str;
    const TOOLSET: Toolset;
    const DESCRIPTION: &'static str;
    const ACCESS: Access = Access::Read;
    /// Whether calling twice with the same arguments has no further effect.
    const IDEMPOTENT: bool = true;
    /// Whether the answer depends only on the arguments and the embedded company data (never on
    /// the caller, the workspace or the clock), so it may be kept and given again (`answers`).
    const CACHEABLE: bool = false;
    type Args: DeserializeOwned + JsonSchema + Send + 'static;
    type Output: Serialize + JsonSchema + 'static;

    /// Arguments of a valid call against the embedded data (the guide shows it; tests run it).
    fn example() -> Value;

    fn run(ctx: &ToolContext, args: Self::Args) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

type Invoke = for<'a> fn(&'a ToolContext, JsonObject) -> BoxFuture<'a, Result<Value, ToolError>>;

/// A registered tool, type-erased.
pub struct ToolDef {
    pub name: &'static str,
    pub toolset: Toolset,
    pub access: Access,
    pub description: &'static str,
    pub idempotent: bool,
    pub cacheable: bool,
    pub input_schema: Arc<JsonObject>,
    pub output_schema: Arc<JsonObject>,
    pub example: Value,
    invoke: Invoke,
}

impl ToolDef {
    /// Whether `selection` lets a client see and call this tool.
    pub fn admitted_by(&self, selection: &Selection) -> bool {
        selection.admits(self.toolset, self.read_only())
    }

    /// Registers `T`.
    pub fn of<T: McpTool>() -> Self
    where
        T::Args: Send,
    {
        // Derived from `T::Args` and `T::Output` by a test, embedded (`tool_schemas`).
        let schemas = super::tool_schemas::of(T::NAME);
        Self {
            name: T::NAME,
            toolset: T::TOOLSET,
            access: T::ACCESS,
            description: T::DESCRIPTION,
            idempotent: T::IDEMPOTENT,
            cacheable: T::CACHEABLE,
            input_schema: schemas.input,
            output_schema: schemas.output,
            example: T::example(),
            invoke: invoke::<T>,
        }
    }

    pub fn read_only(&self) -> bool {
        self.access == Access::Read
    }

    /// The `tools/list` entry.
    pub fn to_tool(&self) -> Tool {
        let annotations = ToolAnnotations::new()
            .read_only(self.read_only())
            .destructive(false)
            .idempotent(self.idempotent)
            .open_world(false);
        Tool::new(self.name, self.description, self.input_schema.clone())
            .with_raw_output_schema(self.output_schema.clone())
            .with_annotations(annotations)
    }

    /// Parses the arguments, runs the tool and serialises its output.
    pub fn call<'a>(&self, ctx: &'a ToolContext, args: JsonObject) -> BoxFuture<'a, Result<Value, ToolError>> {
        (self.invoke)(ctx, args)
    }
}

fn invoke<T: McpTool>(ctx: &ToolContext, args: JsonObject) -> BoxFuture<'_, Result<Value, ToolError>>
where
    T::Args: Send,
{
    let parsed = serde_json::from_value::<T::Args>(Value::Object(args));
    Box::pin(async move {
        let args =
            parsed.map_err(|e| ToolError::InvalidArguments(format!("invalid arguments for {}: {e}", T::NAME)))?;
        let output = T::run(ctx, args).await?;
        serde_json::to_value(output).map_err(|source| ToolError::from(OutputError { tool: T::NAME, source }))
    })
}

/// A tool's output that did not serialise: our bug, reported as internal.
#[derive(Debug, thiserror::Error)]
#[error("serialising the output of {tool}")]
struct OutputError {
    tool: &'static str,
    #[source]
    source: serde_json::Error,
}

impl crate::error::ServiceError for OutputError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Internal
    }
}

/// Every tool, in registration order.
pub struct Registry {
    tools: Vec<ToolDef>,
}

impl Registry {
    pub fn new(tools: Vec<ToolDef>) -> Self {
        Self { tools }
    }

    pub fn all(&self) -> &[ToolDef] {
        &self.tools
    }

    pub fn get(&self, name: &str) -> Option<&ToolDef> {
        self.tools.iter().find(|t| t.name == name)
    }

    pub fn in_toolset(&self, toolset: Toolset) -> impl Iterator<Item = &ToolDef> {
        self.tools.iter().filter(move |t| t.toolset == toolset)
    }
}
