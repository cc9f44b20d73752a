//! Admission to `/mcp`, decided before the MCP layer sees a request, in this order: the
//! `Host` must be an allowed host (DNS-rebinding guard), a present `Origin` must be an allowed
//! origin (403 otherwise), the bearer credential must verify (401), and the toolset selection
//! (`X-MCP-Toolsets`, else `?toolsets=`) must name known toolsets the credential may use (400/403).

use std::net::{IpAddr, SocketAddr};

use http::{HeaderMap, Uri};

use super::context::{CallContext, Caller, Selection, SelectionError};
use super::error::Refusal;
use crate::auth::AuthError;
use crate::config::McpSettings;
use crate::state::AppState;

/// The prefix every API key carries; anything else is tried as a workspace token.
const API_KEY_PREFIX: &str = "gtms_";

/// The allowed `Host` and `Origin` values.
#[derive(Debug, Clone)]
pub struct Gate {
    hosts: Vec<String>,
    origins: Vec<String>,
}

impl Gate {
    /// From the settings, defaulting to the bound address's host plus loopback names, and to
    /// those hosts over http and https on the bound port.
    pub fn new(settings: &McpSettings, bound: SocketAddr) -> Self {
        let hosts = if settings.allowed_hosts.is_empty() {
            let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
            if !bound.ip().is_unspecified() && !hosts.contains(&bound.ip().to_string()) {
                hosts.push(bound.ip().to_string());
            }
            hosts
        } else {
            settings.allowed_hosts.iter().map(|h| h.to_ascii_lowercase()).collect()
        };
        let origins = if settings.allowed_origins.is_empty() {
            let port = bound.port();
            let bare = hosts.iter().filter(|h| split_host(h).1.is_none());
            bare.flat_map(|h| {
                let h = bracket(h);
                [format!("http://{h}:{port}"), format!("https://{h}:{port}")]
            })
            .collect()
        } else {
            settings.allowed_origins.iter().map(|o| o.to_ascii_lowercase()).collect()
        };
        Self { hosts, origins }
    }

    pub fn hosts(&self) -> &[String] {
        &self.hosts
    }

    pub fn origins(&self) -> &[String] {
        &self.origins
    }

    /// Whether the request's `Host` (or HTTP/2 authority) is allowed.
    pub fn host_allowed(&self, headers: &HeaderMap, uri: &Uri) -> bool {
        let presented = headers
            .get(http::header::HOST)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .or_else(|| uri.authority().map(|a| a.to_string()));
        let Some(presented) = presented else { return false };
        let presented = presented.to_ascii_lowercase();
        let (host, port) = split_host(&presented);
        self.hosts.iter().any(|entry| {
            let (h, p) = split_host(entry);
            h == host && (p.is_none() || p == port)
        })
    }

    /// Whether the request's `Origin`, when present, is allowed.
    pub fn origin_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(http::header::ORIGIN) else { return true };
        let Some(origin) = origin.to_str().ok().map(str::to_ascii_lowercase) else { return false };
        if origin == "null" {
            return self.origins.iter().any(|o| o == "null");
        }
        let Some((scheme, host, port)) = split_origin(&origin) else { return false };
        self.origins.iter().filter_map(|o| split_origin(o).map(|parts| (o, parts))).any(|(entry, (s, h, p))| {
            s == scheme && h == host && (p == port || entry.ends_with(":*") || !has_port(entry))
        })
    }
}

fn bracket(host: &str) -> String {
    if host.parse::<IpAddr>().is_ok_and(|ip| ip.is_ipv6()) { format!("[{host}]") } else { host.to_owned() }
}

/// `host[:port]`, `[v6]:port` or a bare v6 address into host (without brackets) and port.
fn split_host(value: &str) -> (&str, Option<&str>) {
    if let Some(rest) = value.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':')),
            None => (rest, None),
        };
    }
    if value.matches(':').count() > 1 {
        return (value, None); // a bare IPv6 address
    }
    match value.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (value, None),
    }
}

fn has_port(origin: &str) -> bool {
    origin.split_once("://").is_some_and(|(_, rest)| split_host(rest).1.is_some())
}

/// `scheme://host[:port]` into its parts, the port defaulted by scheme (`*` kept as is).
fn split_origin(origin: &str) -> Option<(&str, &str, String)> {
    let (scheme, rest) = origin.split_once("://")?;
    let rest = rest.trim_end_matches('/');
    let (host, port) = split_host(rest);
    let port = match (port, scheme) {
        (Some(p), _) => p.to_owned(),
        (None, "https") => "443".to_owned(),
        (None, _) => "80".to_owned(),
    };
    (!host.is_empty()).then_some((scheme, host, port))
}

/// Verifies the bearer credential: a `gtms_` API key, or a workspace JWT (the caller then known
/// to come through MCP from `client`, what the audit log records as `from`).
pub async fn authenticate(state: &AppState, token: Option<&str>, client: std::net::IpAddr) -> Result<Caller, Refusal> {
    let unauthorized =
        || Refusal::Unauthorized("send Authorization: Bearer with a gtms_ API key or a workspace token".into());
    let token = token.ok_or_else(unauthorized)?;
    if token.starts_with(API_KEY_PREFIX) {
        return match state.api_keys().verify(token).await {
            Ok(key) => Ok(Caller::ApiKey { id: key.id, tenant: key.tenant }),
            Err(AuthError::InvalidCredentials) => Err(unauthorized()),
            Err(e) => Err(Refusal::Service(Box::new(e))),
        };
    }
    state
        .sessions()
        .authenticate(token)
        .map(|p| Caller::Workspace(p.via(crate::auth::Channel::Mcp, Some(client))))
        .map_err(|_| unauthorized())
}

/// The raw toolset selection: the `X-MCP-Toolsets` header wins over `?toolsets=`.
pub fn requested_toolsets(headers: &HeaderMap, uri: &Uri) -> Option<String> {
    if let Some(v) = headers.get("x-mcp-toolsets") {
        return Some(v.to_str().unwrap_or("\u{fffd}").to_owned());
    }
    uri.query()?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == "toolsets")
            .then(|| percent_encoding::percent_decode_str(&v.replace('+', " ")).decode_utf8_lossy().into_owned())
    })
}

/// Everything `/mcp` checks before MCP: host, origin, credential, toolsets.
pub async fn admit(
    state: &AppState,
    gate: &Gate,
    headers: &HeaderMap,
    uri: &Uri,
    token: Option<&str>,
    client: std::net::IpAddr,
) -> Result<CallContext, Refusal> {
    if !gate.host_allowed(headers, uri) {
        return Err(Refusal::Forbidden("this Host is not allowed to reach /mcp (see mcp_allowed_hosts)".into()));
    }
    if !gate.origin_allowed(headers) {
        return Err(Refusal::Forbidden("requests from this Origin are not allowed (see mcp_allowed_origins)".into()));
    }
    let caller = authenticate(state, token, client).await?;
    let selection = match requested_toolsets(headers, uri) {
        None => Selection::default_for(&caller),
        Some(raw) => Selection::parse(&raw, &caller).map_err(|e| match e {
            SelectionError::Unknown(_) => Refusal::BadRequest(e.to_string()),
            SelectionError::Denied(_) => Refusal::Forbidden(e.to_string()),
        })?,
    };
    Ok(CallContext { caller, selection })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn gate() -> Gate {
        let settings = McpSettings { allowed_hosts: vec![], allowed_origins: vec![], rate_limit: 1 };
        Gate::new(&settings, "127.0.0.1:4000".parse().unwrap())
    }

    fn headers(name: &'static str, value: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(name, HeaderValue::from_static(value));
        h
    }

    #[test]
    fn hosts_default_to_loopback_names_on_any_port() {
        let uri = Uri::from_static("/mcp");
        assert!(gate().host_allowed(&headers("host", "127.0.0.1:4000"), &uri));
        assert!(gate().host_allowed(&headers("host", "LOCALHOST"), &uri));
        assert!(gate().host_allowed(&headers("host", "[::1]:4000"), &uri));
        assert!(!gate().host_allowed(&headers("host", "evil.example:4000"), &uri));
    }

    #[test]
    fn origins_default_to_the_allowed_hosts_on_the_bound_port() {
        assert!(gate().origin_allowed(&HeaderMap::new()), "non-browser clients send no Origin");
        assert!(gate().origin_allowed(&headers("origin", "http://localhost:4000")));
        assert!(gate().origin_allowed(&headers("origin", "https://[::1]:4000")));
        assert!(!gate().origin_allowed(&headers("origin", "http://localhost:4001")));
        assert!(!gate().origin_allowed(&headers("origin", "https://evil.example")));
        assert!(!gate().origin_allowed(&headers("origin", "null")));
        let any_port = McpSettings {
            allowed_hosts: vec![],
            allowed_origins: vec!["https://app.example.com:*".into()],
            rate_limit: 1,
        };
        let g = Gate::new(&any_port, "127.0.0.1:4000".parse().unwrap());
        assert!(g.origin_allowed(&headers("origin", "https://app.example.com:8443")));
        assert!(!g.origin_allowed(&headers("origin", "http://app.example.com:8443")));
    }

    #[test]
    fn the_toolsets_header_wins_over_the_query() {
        let uri = Uri::from_static("/mcp?toolsets=company%2Cdeals");
        assert_eq!(requested_toolsets(&HeaderMap::new(), &uri).as_deref(), Some("company,deals"));
        assert_eq!(requested_toolsets(&headers("x-mcp-toolsets", "memory"), &uri).as_deref(), Some("memory"));
        assert_eq!(requested_toolsets(&HeaderMap::new(), &Uri::from_static("/mcp")), None);
    }
}
