//! The route table: every HTTP route the appliance serves (warp, the keyless files, the MCP
//! face, `/metrics`), declared once with its method, pattern, auth, query, body and responses.
//! warp cannot list its routes, so this table is the list, and three things read it: the
//! OpenAPI 3.1 document at `/api/openapi.json` (`openapi`), the Prometheus route label of each
//! request (`label`), and the tests that hold it equal to what is served. Adding a route is
//! one entry in `table.rs`. The schemas come from the handlers' own types through `schemars`.
//! This module reads no state and serves nothing but the document.
//!
//! The document is built by a test (`openapi`, compiled only for the tests) and embedded
//! (`openapi.json`; `make openapi` writes it, and the test fails while it is stale): built at
//! run time it was about 1 MB of the binary — the builder, schemars' generator and every
//! handler type's `JsonSchema` code — for bytes that never change between builds of the same
//! source (issue 27). So outside the tests the table's schema functions build nothing.

mod console_routes;
mod label;
#[cfg(test)]
mod openapi;
mod table;

use std::sync::OnceLock;

pub use label::{Matched, UNMATCHED, allow, classify};
pub use table::{EXPOSITION, ROUTES};

use schemars::{JsonSchema, Schema, SchemaGenerator};
use warp::{Filter, Rejection, Reply};

/// The document as the test derived it (pretty-printed, so that a change reads as a diff).
const DOCUMENT: &str = include_str!("openapi.json");

/// `GET /api/openapi.json`: the document, open to everyone.
pub fn routes() -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("api" / "openapi.json").and(warp::get()).map(|| {
        let mut res = warp::reply::Response::new(document_json().into());
        res.headers_mut().insert("content-type", warp::http::HeaderValue::from_static("application/json"));
        res
    })
}

/// The document as `/api/openapi.json` serves it: the embedded file, compacted on first use.
pub fn document_json() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        serde_json::from_str::<serde_json::Value>(DOCUMENT).map_or_else(|_| DOCUMENT.to_owned(), |doc| doc.to_string())
    })
}

/// A schema of a Rust type, produced on demand by the document builder.
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// The schema of `T`, by reference to `#/components/schemas` (named types) or inline. Outside
/// the tests, where the document is embedded, nothing calls a schema function, and each answers
/// an empty schema so that no type's schema code stays in the binary (`metric_view` too).
pub fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    if !cfg!(test) {
        return Schema::default();
    }
    generator.subschema_for::<T>()
}

/// The schema of `T` itself (a query struct, whose properties become parameters).
pub fn inline<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    if !cfg!(test) {
        return Schema::default();
    }
    T::json_schema(generator)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// No credential.
    Open,
    /// A workspace token (bearer or the `gtms_session` cookie), any role.
    Session,
    /// A workspace token of the admin role (viewers get 403).
    Admin,
    /// A `gtms_` API key (bearer, or `?key=`).
    ApiKey,
    /// A `gtms_` API key or a workspace token (the MCP endpoint).
    Mcp,
    /// An admin workspace token or the configured `metrics_token` as bearer.
    Metrics,
}

/// What a successful response carries.
#[derive(Debug, Clone, Copy)]
pub enum Content {
    Json(SchemaFn),
    /// A text body of this media type (HTML, plain text, XML, the exposition format).
    Text(&'static str),
    /// A keyless file: this media type, ETag and `If-None-Match` -> 304.
    File(&'static str, Option<SchemaFn>),
    /// The MCP transport: a JSON-RPC reply or an event stream.
    Rpc,
    /// No body (a WebSocket upgrade, an accepted notification).
    Empty,
}

/// One HTTP route. Built with the `const` helpers below so the table reads as a list.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    pub method: Method,
    /// The path with `{name}` parameters, as OpenAPI writes it (`/api/memory/{scope}/{key}`).
    pub pattern: &'static str,
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub tag: &'static str,
    pub auth: Auth,
    pub query: Option<SchemaFn>,
    pub body: Option<SchemaFn>,
    /// The media type of the body (JSON unless a route reads another, as the CSV import does).
    pub body_media: &'static str,
    pub success: &'static [u16],
    pub content: Content,
    /// Error statuses beyond those the auth, rate limit, query, body and path parameters imply.
    pub errors: &'static [u16],
    /// Why schemathesis must not fuzz this route, when it must not.
    pub no_fuzz: Option<&'static str>,
}

impl Route {
    pub const fn new(method: Method, pattern: &'static str, operation_id: &'static str, summary: &'static str) -> Self {
        Route {
            method,
            pattern,
            operation_id,
            summary,
            tag: "",
            auth: Auth::Open,
            query: None,
            body: None,
            body_media: "application/json",
            success: &[200],
            content: Content::Empty,
            errors: &[],
            no_fuzz: None,
        }
    }
    pub const fn tag(self, tag: &'static str) -> Self {
        Route { tag, ..self }
    }
    pub const fn auth(self, auth: Auth) -> Self {
        Route { auth, ..self }
    }
    pub const fn query(self, query: SchemaFn) -> Self {
        Route { query: Some(query), ..self }
    }
    pub const fn body(self, body: SchemaFn) -> Self {
        Route { body: Some(body), ..self }
    }
    /// A body of another media type than JSON (its schema describes the text).
    pub const fn body_as(self, media: &'static str, body: SchemaFn) -> Self {
        Route { body: Some(body), body_media: media, ..self }
    }
    pub const fn json(self, schema: SchemaFn) -> Self {
        Route { content: Content::Json(schema), ..self }
    }
    pub const fn content(self, content: Content) -> Self {
        Route { content, ..self }
    }
    pub const fn success(self, success: &'static [u16]) -> Self {
        Route { success, ..self }
    }
    pub const fn errors(self, errors: &'static [u16]) -> Self {
        Route { errors, ..self }
    }
    pub const fn no_fuzz(self, reason: &'static str) -> Self {
        Route { no_fuzz: Some(reason), ..self }
    }

    /// The `{name}` parameters of the pattern, in order.
    pub fn path_params(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut rest = self.pattern;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else { break };
            out.push(&rest[open + 1..open + close]);
            rest = &rest[open + close + 1..];
        }
        out
    }

    /// Every error status the route can answer with: the declared ones plus those its auth,
    /// rate limit, query, body and path parameters imply. Sorted, without repeats.
    pub fn error_statuses(&self) -> Vec<u16> {
        let mut out = self.errors.to_vec();
        match self.auth {
            Auth::Open => {}
            Auth::Session | Auth::ApiKey => out.push(401),
            Auth::Admin | Auth::Mcp | Auth::Metrics => out.extend([401, 403]),
        }
        if self.rate_limited() {
            out.push(429);
        }
        if self.query.is_some() {
            out.push(400);
        }
        if self.body.is_some() {
            out.extend([400, 413, 415]);
        }
        if !self.path_params().is_empty() {
            out.push(404);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `/auth/*`, `/api/*` (but health) and `/v1/enrich` count against a rate limit.
    pub fn rate_limited(&self) -> bool {
        (self.pattern.starts_with("/api/") && self.pattern != "/api/health")
            || self.pattern.starts_with("/auth/")
            || self.pattern == "/v1/enrich"
    }
}
