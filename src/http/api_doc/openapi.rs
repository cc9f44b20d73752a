//! The OpenAPI 3.1 document, built from the route table by the tests (the binary embeds what
//! they built, `openapi.json`): parameters from the patterns and the query types, bodies and
//! responses from the handlers' types (schemars, JSON Schema draft 2020-12, which OpenAPI 3.1
//! uses as is), and the error envelope for every error status.

use std::sync::OnceLock;

use schemars::SchemaGenerator;
use schemars::generate::{Contract, SchemaSettings};
use serde_json::{Map, Value, json};

use super::{Auth, Content, ROUTES, Route};
use crate::http::error::ErrorEnvelope;

/// The document as JSON, built on first use.
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(build)
}

/// Schemas of what clients send (the `Deserialize` contract) and of what the server answers
/// (the `Serialize` contract: a field skipped when empty is not required).
struct Generators {
    input: SchemaGenerator,
    output: SchemaGenerator,
}

fn generator(contract: Contract) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
            s.contract = contract;
        })
        .into_generator()
}

impl Generators {
    /// Both contracts' named schemas in one map, and the names whose two forms differ (none
    /// may: one component name, one shape).
    fn definitions(mut self) -> (Map<String, Value>, Vec<String>) {
        let mut all = self.output.take_definitions(true);
        let mut conflicts = Vec::new();
        for (name, schema) in self.input.take_definitions(true) {
            match all.get(&name) {
                Some(existing) if *existing != schema => conflicts.push(name),
                Some(_) => {}
                None => drop(all.insert(name, schema)),
            }
        }
        (all, conflicts)
    }
}

fn build() -> Value {
    build_checked().0
}

/// The document, and the component names whose input and output forms differ.
fn build_checked() -> (Value, Vec<String>) {
    let mut g = Generators { input: generator(Contract::Deserialize), output: generator(Contract::Serialize) };
    let envelope = g.output.subschema_for::<ErrorEnvelope>();
    let mut paths = Map::new();
    let mut errors: Vec<u16> = Vec::new();
    for route in ROUTES.iter() {
        let statuses = route.error_statuses();
        errors.extend(&statuses);
        let op = operation(&mut g, route, &statuses);
        let item = paths.entry(route.pattern).or_insert_with(|| json!({}));
        if let Some(item) = item.as_object_mut() {
            item.insert(route.method.as_str().to_ascii_lowercase(), op);
        }
    }
    errors.sort_unstable();
    errors.dedup();
    let responses: Map<String, Value> =
        errors.iter().map(|s| (format!("Error{s}"), error_response(*s, &envelope))).collect();
    let (schemas, conflicts) = g.definitions();
    let doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "gtms",
            "version": crate::state::VERSION,
            "description": "Receipted company intelligence and the workspace platform of an AI go-to-market team. \
                Every non-2xx answer is the envelope {error, message, status}.",
        },
        "tags": tags(),
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": responses,
            "securitySchemes": security_schemes(),
        },
    });
    (doc, conflicts)
}

fn tags() -> Vec<Value> {
    let mut seen: Vec<&str> = Vec::new();
    for r in ROUTES.iter() {
        if !seen.contains(&r.tag) {
            seen.push(r.tag);
        }
    }
    seen.into_iter().map(|t| json!({ "name": t })).collect()
}

fn security_schemes() -> Value {
    json!({
        "bearerJwt": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
            "description": "A workspace token from POST /auth/login." },
        "sessionCookie": { "type": "apiKey", "in": "cookie", "name": crate::http::session::COOKIE,
            "description": "The session cookie POST /auth/login sets." },
        "apiKey": { "type": "http", "scheme": "bearer",
            "description": "A gtms_ API key (gtms keys create); the header wins over ?key=." },
        "apiKeyQuery": { "type": "apiKey", "in": "query", "name": "key", "description": "A gtms_ API key." },
        "metricsToken": { "type": "http", "scheme": "bearer",
            "description": "The configured metrics_token (GTMS_METRICS_TOKEN)." },
    })
}

fn security(auth: Auth) -> Option<Value> {
    let schemes: &[&str] = match auth {
        Auth::Open => return None,
        Auth::Session | Auth::Admin => &["bearerJwt", "sessionCookie"],
        Auth::ApiKey => &["apiKey", "apiKeyQuery"],
        Auth::Mcp => &["apiKey", "bearerJwt"],
        Auth::Metrics => &["bearerJwt", "sessionCookie", "metricsToken"],
    };
    Some(schemes.iter().map(|s| json!({ *s: [] })).collect())
}

fn operation(g: &mut Generators, route: &Route, errors: &[u16]) -> Value {
    let mut op = Map::new();
    op.insert("operationId".into(), json!(route.operation_id));
    op.insert("summary".into(), json!(route.summary));
    op.insert("tags".into(), json!([route.tag]));
    if route.auth == Auth::Admin {
        op.insert("description".into(), json!("Needs the admin role; a viewer's token gets 403."));
    }
    if let Some(sec) = security(route.auth) {
        op.insert("security".into(), sec);
    }
    let params = parameters(&mut g.input, route);
    if !params.is_empty() {
        op.insert("parameters".into(), Value::Array(params));
    }
    if let Some(body) = route.body {
        let schema = body(&mut g.input).to_value();
        op.insert(
            "requestBody".into(),
            json!({ "required": true, "content": { route.body_media: { "schema": schema } } }),
        );
    }
    let mut responses = Map::new();
    for status in route.success {
        responses.insert(status.to_string(), success(&mut g.output, route, *status));
    }
    if let Content::File(..) = route.content {
        responses.insert("304".into(), json!({ "description": "Not modified (If-None-Match matched the ETag)" }));
    }
    for status in errors {
        responses.insert(status.to_string(), json!({ "$ref": format!("#/components/responses/Error{status}") }));
    }
    op.insert("responses".into(), Value::Object(responses));
    Value::Object(op)
}

fn success(g: &mut SchemaGenerator, route: &Route, status: u16) -> Value {
    let description = match status {
        101 => "Switching protocols",
        201 => "Created",
        202 => "Accepted",
        303 => return json!({ "description": "See other (the next page; signed out, /app/login)" }),
        _ => "OK",
    };
    let text = json!({ "type": "string" });
    let content = match route.content {
        Content::Json(schema) => json!({ "application/json": { "schema": schema(g).to_value() } }),
        Content::Text(mime) => json!({ mime: { "schema": text } }),
        Content::File(mime, schema) => {
            let schema =
                schema.map(|s| s(g).to_value()).unwrap_or(if mime.contains("json") { json!({}) } else { text });
            json!({ mime: { "schema": schema } })
        }
        Content::Rpc if status == 200 => json!({
            "application/json": { "schema": { "type": "object" } },
            "text/event-stream": { "schema": { "type": "string" } },
        }),
        Content::Rpc | Content::Empty => return json!({ "description": description }),
    };
    json!({ "description": description, "content": content })
}

fn parameters(g: &mut SchemaGenerator, route: &Route) -> Vec<Value> {
    let mut out: Vec<Value> = route
        .path_params()
        .into_iter()
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": path_param_schema(name) }))
        .collect();
    if let Some(query) = route.query {
        let schema = query(g).to_value();
        let required: Vec<&str> =
            schema["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if let Some(props) = schema["properties"].as_object() {
            for (name, prop) in props {
                let mut param = json!({
                    "name": name, "in": "query", "required": required.contains(&name.as_str()),
                    "schema": non_null(prop.clone()),
                });
                if let Some(d) = prop.get("description") {
                    param["description"] = d.clone();
                }
                out.push(param);
            }
        }
    }
    out
}

/// A query value is never JSON `null`: `Option<T>`'s null alternative is dropped.
fn non_null(mut schema: Value) -> Value {
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        schema["type"] = if kept.len() == 1 { kept[0].clone() } else { Value::Array(kept) };
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        let kept: Vec<&Value> = any.iter().filter(|s| s.get("type") != Some(&json!("null"))).collect();
        if let [only] = kept.as_slice() {
            return (*only).clone();
        }
    }
    schema
}

/// The schema of a path parameter, by its name (the domain's rules where it has them).
fn path_param_schema(name: &str) -> Value {
    match name {
        "slug" => json!({ "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 80 }),
        "view" => json!({ "type": "string", "enum": crate::metrics::VIEWS }),
        "scope" => json!({ "type": "string", "pattern": crate::domain::SCOPE_PATTERN }),
        "key" => json!({ "type": "string", "pattern": crate::domain::KEY_PATTERN }),
        "workerId" => json!({ "type": "string", "pattern": crate::domain::ID_PATTERN }),
        _ => json!({ "type": "string", "minLength": 1 }),
    }
}

fn error_response(status: u16, envelope: &schemars::Schema) -> Value {
    let reason = warp::http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    let schema = json!({ "allOf": [envelope, { "properties": { "status": { "const": status } } }] });
    let mut response = json!({ "description": reason, "content": { "application/json": { "schema": schema } } });
    if status == 429 {
        response["headers"] = json!({ "Retry-After": { "description": "Seconds until a retry may pass", "schema": { "type": "integer" } } });
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::api_doc::{DOCUMENT, document_json};

    /// Fails when a route or a type changed and the embedded document did not;
    /// `GTMS_WRITE_OPENAPI=1` (`make openapi`) writes the file instead.
    #[test]
    fn the_embedded_document_is_the_tables_own() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/http/api_doc/openapi.json");
        let derived = serde_json::to_string_pretty(document()).unwrap_or_default() + "\n";
        if std::env::var_os("GTMS_WRITE_OPENAPI").is_some() {
            std::fs::write(path, derived).unwrap_or_else(|e| panic!("{path}: {e}"));
            return;
        }
        assert!(DOCUMENT == derived, "src/http/api_doc/openapi.json is stale: run `make openapi`");
        assert_eq!(document_json(), document().to_string(), "served compact, as built");
    }

    #[test]
    fn every_route_is_an_operation_with_its_error_envelopes() {
        let doc = document();
        assert_eq!(doc["openapi"], "3.1.0");
        for route in ROUTES.iter() {
            let op = &doc["paths"][route.pattern][route.method.as_str().to_ascii_lowercase()];
            assert_eq!(op["operationId"], route.operation_id, "{}", route.pattern);
            for status in route.error_statuses() {
                let name = format!("Error{status}");
                assert!(op["responses"][status.to_string()]["$ref"].as_str().is_some_and(|r| r.ends_with(&name)));
                assert_eq!(
                    doc["components"]["responses"][&name]["content"]["application/json"]["schema"]["allOf"][1]["properties"]
                        ["status"]["const"],
                    status
                );
            }
        }
    }

    #[test]
    fn input_and_output_forms_of_a_component_agree() {
        assert_eq!(build_checked().1, Vec::<String>::new());
    }

    #[test]
    fn references_resolve_and_query_parameters_are_never_null() {
        let text = document_json();
        let doc = document();
        for name in text.split("\"#/components/schemas/").skip(1).filter_map(|s| s.split('"').next()) {
            assert!(doc["components"]["schemas"].get(name).is_some(), "dangling $ref {name}");
        }
        let deals = &doc["paths"]["/api/deals"]["get"]["parameters"];
        let stage = deals.as_array().and_then(|p| p.iter().find(|p| p["name"] == "stage")).cloned().unwrap_or_default();
        assert_eq!(stage["schema"]["$ref"], "#/components/schemas/Stage", "{stage}");
        assert!(!text.contains("\"in\":\"query\",\"required\":false,\"schema\":{\"type\":[\"string\",\"null\"]"));
    }
}
