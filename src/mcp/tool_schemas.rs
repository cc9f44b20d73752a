//! The tools' input and output JSON schemas, derived from their types by a test and embedded
//! (`tool_schemas.json`), so the binary reads them instead of generating them at start-up
//! (issue 27: the generation was 0.54 MB of code in one function, plus each type's `JsonSchema`
//! code, for bytes that never change between builds of the same source). The test
//! `the_embedded_schemas_are_the_types_own` derives every tool's schemas (rmcp's
//! `schema_for_input` and `schema_for_output`, as before) and fails when the file differs;
//! `make tool-schemas` writes it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::handler::server::common::schema_for_empty_input as empty;
use rmcp::model::JsonObject;
use serde_json::Value;

const SCHEMAS: &str = include_str!("tool_schemas.json");

/// One tool's schemas.
#[derive(Clone)]
pub struct ToolSchemas {
    pub input: Arc<JsonObject>,
    pub output: Arc<JsonObject>,
}

/// The schemas of the tool `name`: what the file holds, or an object with no properties for a
/// tool it does not name (the test keeps that from shipping).
pub fn of(name: &str) -> ToolSchemas {
    static ALL: OnceLock<HashMap<String, ToolSchemas>> = OnceLock::new();
    let all = ALL.get_or_init(|| parse(SCHEMAS));
    all.get(name).cloned().unwrap_or_else(|| ToolSchemas { input: empty(), output: empty() })
}

fn parse(text: &str) -> HashMap<String, ToolSchemas> {
    let Ok(Value::Object(tools)) = serde_json::from_str::<Value>(text) else { return HashMap::new() };
    let object = |v: Option<&Value>| match v {
        Some(Value::Object(o)) => Arc::new(o.clone()),
        _ => empty(),
    };
    tools
        .iter()
        .map(|(name, t)| (name.clone(), ToolSchemas { input: object(t.get("input")), output: object(t.get("output")) }))
        .collect()
}

#[cfg(test)]
mod tests {
    use rmcp::handler::server::common::{schema_for_input, schema_for_output};
    use serde_json::json;

    use super::*;
    use crate::mcp::registry::McpTool;
    use crate::mcp::tools::{Visit, visit};

    /// Every tool's schemas derived from its types, by name, in registration order.
    struct Derived(serde_json::Map<String, Value>);

    impl Visit for Derived {
        fn tool<T: McpTool>(&mut self)
        where
            T::Args: Send,
        {
            let input = schema_for_input::<T::Args>().unwrap_or_else(|_| empty());
            let output = schema_for_output::<T::Output>();
            self.0.insert(T::NAME.to_owned(), json!({ "input": &*input, "output": &*output }));
        }
    }

    /// Fails when a tool's types changed and the file did not; `GTMS_WRITE_TOOL_SCHEMAS=1`
    /// (`make tool-schemas`) writes the file instead.
    #[test]
    fn the_embedded_schemas_are_the_types_own() {
        let mut derived = Derived(serde_json::Map::new());
        visit(&mut derived);
        let derived = Value::Object(derived.0);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/mcp/tool_schemas.json");
        if std::env::var_os("GTMS_WRITE_TOOL_SCHEMAS").is_some() {
            // One tool per line: compact (the file is embedded), and a change shows as its tool.
            let lines: Vec<String> = derived
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, schemas)| format!("{}:{schemas}", Value::from(name.as_str())))
                .collect();
            let text = format!("{{\n{}\n}}\n", lines.join(",\n"));
            std::fs::write(path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
            return;
        }
        let embedded: Value = serde_json::from_str(SCHEMAS).unwrap_or_default();
        assert!(embedded == derived, "src/mcp/tool_schemas.json is stale: run `make tool-schemas`");
        let tools = derived.as_object().map_or(0, serde_json::Map::len);
        assert_eq!(parse(SCHEMAS).len(), tools);
        for name in derived.as_object().into_iter().flat_map(serde_json::Map::keys) {
            let schemas = of(name);
            assert_eq!(Value::Object((*schemas.input).clone()), derived[name]["input"], "{name}");
            assert_eq!(Value::Object((*schemas.output).clone()), derived[name]["output"], "{name}");
        }
    }

    #[test]
    fn a_tool_the_file_does_not_name_takes_no_arguments() {
        let schemas = of("no_such_tool");
        assert_eq!(Value::Object((*schemas.input).clone()), json!({"type": "object", "properties": {}}));
        assert!(parse("not json").is_empty());
    }
}
