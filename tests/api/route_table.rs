//! The route table (`gtms::http::api_doc::ROUTES`) against what is documented and what is
//! served: every table route is an operation of `/api/openapi.json` and nothing else is; every
//! table route reaches a handler on the live app (never the router's "no such route" 404);
//! and every route the sources declare (`warp::path!`, the keyless files, the MCP paths) is
//! in the table.

use gtms::domain::Role;
use gtms::http::api_doc::{Method, ROUTES, UNMATCHED, classify};
use gtms::http::error::NO_SUCH_ROUTE;

use crate::helpers::spawn_app;

fn method_name(m: Method) -> &'static str {
    m.as_str()
}

#[tokio::test]
async fn the_document_names_exactly_the_table_routes() {
    let app = spawn_app().await;
    let res = app.get("/api/openapi.json").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    let doc: serde_json::Value = res.json().await.expect("json");
    assert_eq!(doc["openapi"], "3.1.0");
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            documented.push((method.to_ascii_uppercase(), path.clone()));
        }
    }
    let mut table: Vec<(String, String)> =
        ROUTES.iter().map(|r| (method_name(r.method).to_owned(), r.pattern.to_owned())).collect();
    documented.sort();
    table.sort();
    assert_eq!(documented, table, "the document and the route table differ");
    let ids: std::collections::HashSet<&str> = ROUTES.iter().map(|r| r.operation_id).collect();
    assert_eq!(ids.len(), ROUTES.len(), "operation ids are unique");
    app.stop().await;
}

/// A concrete path for a pattern: each `{param}` becomes a plausible value.
fn instantiate(pattern: &str) -> String {
    let values = [
        ("{slug}", "apple"),
        ("{view}", "pipeline"),
        ("{scope}", "org"),
        ("{key}", "welcome"),
        ("{id}", "no-such-deal"),
        ("{workerId}", "sdr"),
        ("{workflowId}", "no-such-workflow"),
        ("{sector}", "health-care"),
        ("{letter}", "a"),
    ];
    let mut path = pattern.to_owned();
    for (param, value) in values {
        path = path.replace(param, value);
    }
    assert!(!path.contains('{'), "give {pattern} a sample value in this test");
    path
}

#[tokio::test]
async fn every_table_route_reaches_a_handler() {
    let app = spawn_app().await;
    let admin = app.token(Role::Admin).await;
    for route in ROUTES.iter() {
        let path = instantiate(route.pattern);
        let method = reqwest::Method::from_bytes(method_name(route.method).as_bytes()).expect("method");
        let mut req = app.authed(method, &path, &admin);
        if route.body.is_some() {
            req = req.json(&serde_json::json!({}));
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let body = res.text().await.unwrap_or_default();
        let fell_through = status == 404 && body.contains(&format!("\"message\":\"{NO_SUCH_ROUTE}\""));
        assert!(!fell_through, "{} {path} is in the table but no route serves it", method_name(route.method));
        assert!(status != 405, "{} {path} is in the table but its method is refused", method_name(route.method));
    }
    let res = app.get("/api/not-a-route").await;
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap_or_default().contains(NO_SUCH_ROUTE), "the fallthrough is recognisable");
    app.stop().await;
}

/// `warp::path!("api" / "deals" / String)` -> `["api", "deals", "{}"]`.
fn shape_of_macro(args: &str) -> Vec<String> {
    args.split('/')
        .map(|s| s.trim())
        .filter(|s| !s.is_empty() && *s != "..")
        .map(|s| if s.starts_with('"') { s.trim_matches('"').to_owned() } else { "{}".to_owned() })
        .collect()
}

fn shape_of_pattern(pattern: &str) -> Vec<String> {
    pattern
        .trim_start_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| if s.contains('{') { "{}".to_owned() } else { s.to_owned() })
        .collect()
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").map(|e| e.expect("entry").path()) {
        if entry.is_dir() {
            rust_files(&entry, out);
        } else if entry.extension().is_some_and(|e| e == "rs") {
            out.push(entry);
        }
    }
}

/// Every `warp::path!(…)` (and `warp::path::end()`) in `src/http`, with the method filter
/// that follows it.
fn declared_routes() -> Vec<(String, Vec<String>, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read source");
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        let starts: Vec<(usize, bool)> = text
            .match_indices("warp::path!(")
            .map(|(i, _)| (i, true))
            .chain(text.match_indices("warp::path::end()").map(|(i, _)| (i, false)))
            .collect();
        for (i, is_macro) in starts {
            let rest = &text[i..];
            let shape = if is_macro {
                let args = &rest["warp::path!(".len()..rest.find(')').expect("closing paren")];
                shape_of_macro(args)
            } else {
                Vec::new()
            };
            let next = rest[1..].find("warp::path").map_or(rest.len(), |n| n + 1);
            let scope = &rest[..next];
            let method = ["get", "post", "patch", "delete", "put"]
                .into_iter()
                .filter_map(|m| scope.find(&format!("warp::{m}()")).map(|at| (at, m)))
                .min()
                .map(|(_, m)| m.to_ascii_uppercase())
                .unwrap_or_else(|| "GET".to_owned());
            out.push((file.display().to_string(), shape, method));
        }
    }
    out
}

#[test]
fn every_declared_warp_route_is_in_the_table() {
    let declared = declared_routes();
    assert!(declared.len() >= 25, "the scan found the warp routes: {}", declared.len());
    for (file, shape, method) in declared {
        let found = ROUTES.iter().any(|r| method_name(r.method) == method && shape_of_pattern(r.pattern) == shape);
        assert!(found, "{file}: {method} /{} is served but missing from the route table", shape.join("/"));
    }
}

#[test]
fn every_path_served_beside_warp_has_a_table_route() {
    let assets = gtms::companies::assets::AssetTable::embedded();
    assert!(!assets.is_empty());
    for path in assets.paths() {
        assert_ne!(classify("GET", path).label, UNMATCHED, "{path} is served but matches no table route");
    }
    let resource = gtms::mcp::RESOURCE_METADATA_PATH;
    for (method, path) in [
        ("POST", "/mcp"),
        ("GET", "/mcp"),
        ("DELETE", "/mcp"),
        ("GET", "/mcp/guide"),
        ("GET", resource),
        ("GET", "/v1/enrich"),
    ] {
        let routed = ROUTES.iter().any(|r| method_name(r.method) == method && r.pattern == path);
        assert!(routed, "{method} {path} is served but missing from the route table");
    }
    assert!(ROUTES.iter().any(|r| r.pattern == format!("{resource}/mcp")));
}
