//! `GET /mcp/guide`: one self-contained HTML page (inline CSS, no scripts, no external
//! assets) rendered once at start-up from the registry: how to connect and authenticate, the
//! toolsets, and every tool with its description, annotations, input and output schemas and
//! an example `tools/call` request.

use std::fmt::Write;

use super::registry::{Registry, ToolDef, Toolset};

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;\
color:#1a1a1a}code,pre{font:13px ui-monospace,monospace}pre{background:#f5f5f4;padding:.75rem;overflow:auto;\
border-radius:4px}section{border-top:1px solid #ddd;margin-top:1.5rem}h3{margin-bottom:.25rem}\
.tag{display:inline-block;font-size:12px;padding:0 .4rem;border:1px solid #bbb;border-radius:3px;margin-right:.3rem}\
details{margin:.4rem 0}nav a{margin-right:.6rem}";

pub fn render(registry: &Registry) -> String {
    let mut s = String::with_capacity(128 * 1024);
    let _ = write!(
        s,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width,initial-scale=1\"><title>gtms MCP tools</title><style>{STYLE}</style></head><body>"
    );
    s.push_str("<h1>gtms MCP tools</h1>");
    s.push_str(
        "<p>The MCP server is at <code>/mcp</code> on this host (Streamable HTTP, protocol 2025-06-18 or \
         2025-11-25). Authenticate with <code>Authorization: Bearer gtms_…</code> (an API key: company tools) or a \
         workspace token (every toolset; tools that change data need the admin role). Select toolsets with \
         <code>?toolsets=company,deals</code> or the <code>X-MCP-Toolsets</code> header; <code>readonly</code> \
         keeps only read-only tools. Tool calls are rate limited per credential; over the limit a call returns an \
         <code>isError</code> result saying when to retry.</p>",
    );
    s.push_str(
        "<p>Every statement, executive and subsidiary comes with <code>receipt {quote, url, form, filed, \
         accession}</code>: the verbatim sentence and the EDGAR address of its filing. Lists take \
         <code>limit</code> (1–100, default 20) and <code>offset</code> and report <code>page.truncated</code>.</p>",
    );
    s.push_str("<nav>");
    for tool in registry.all() {
        let _ = write!(s, "<a href=\"#{0}\">{0}</a>", tool.name);
    }
    s.push_str("</nav>");
    for toolset in Toolset::ALL {
        let tools: Vec<&ToolDef> = registry.in_toolset(toolset).collect();
        let _ = write!(
            s,
            "<h2 id=\"toolset-{0}\">Toolset <code>{0}</code> ({1} tools)</h2>",
            toolset.as_str(),
            tools.len()
        );
        if tools.is_empty() {
            s.push_str("<p>Not available in this build yet.</p>");
        }
        for tool in tools {
            tool_section(&mut s, tool);
        }
    }
    s.push_str("</body></html>\n");
    s
}

fn tool_section(s: &mut String, tool: &ToolDef) {
    let _ = write!(s, "<section id=\"{0}\"><h3><code>{0}</code></h3><p>", tool.name);
    let tags = [
        if tool.read_only() { "read-only" } else { "writes (admin)" },
        if tool.idempotent { "idempotent" } else { "not idempotent" },
        "not destructive",
        "closed world",
    ];
    for tag in tags {
        let _ = write!(s, "<span class=\"tag\">{tag}</span>");
    }
    let _ = write!(s, "</p><p>{}</p>", escape(tool.description));
    let call = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool.name, "arguments": tool.example },
    });
    let _ = write!(s, "<p>Example call:</p><pre>{}</pre>", escape(&pretty(&call)));
    let input = serde_json::Value::Object(tool.input_schema.as_ref().clone());
    let output = serde_json::Value::Object(tool.output_schema.as_ref().clone());
    let _ = write!(s, "<details><summary>Input schema</summary><pre>{}</pre></details>", escape(&pretty(&input)));
    let _ = write!(s, "<details><summary>Output schema</summary><pre>{}</pre></details>", escape(&pretty(&output)));
    s.push_str("</section>");
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_lists_every_tool_without_external_assets() {
        let registry = Registry::new(super::super::tools::all());
        let html = render(&registry);
        for tool in registry.all() {
            assert!(html.contains(&format!("id=\"{}\"", tool.name)), "{}", tool.name);
        }
        assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"));
    }
}
