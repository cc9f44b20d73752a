//! The route label of a request: the table pattern its path matches (never the raw path, so
//! ids and slugs cannot multiply the series), or `UNMATCHED`. A pattern segment is a literal,
//! or a `{param}` with an optional literal prefix and suffix (`{slug}.json`). When several
//! patterns match, the one with the most literal segments wins (`/api/memory/tree` over
//! `/api/memory/{scope}/{key}`), preferring a route of the request's method.

use std::sync::LazyLock;

use super::{Method, ROUTES};

/// The label of a request no route matches.
pub const UNMATCHED: &str = "unmatched";

enum Segment {
    Literal(&'static str),
    Param { prefix: &'static str, suffix: &'static str },
}

struct Compiled {
    method: Method,
    pattern: &'static str,
    segments: Vec<Segment>,
    literals: usize,
}

fn compile(pattern: &'static str) -> Vec<Segment> {
    let path = pattern.strip_prefix('/').unwrap_or(pattern);
    path.split('/')
        .map(|seg| match (seg.find('{'), seg.find('}')) {
            (Some(open), Some(close)) if open < close => {
                Segment::Param { prefix: &seg[..open], suffix: &seg[close + 1..] }
            }
            _ => Segment::Literal(seg),
        })
        .collect()
}

static COMPILED: LazyLock<Vec<Compiled>> = LazyLock::new(|| {
    ROUTES
        .iter()
        .map(|r| {
            let segments = compile(r.pattern);
            let literals = segments.iter().filter(|s| matches!(s, Segment::Literal(_))).count();
            Compiled { method: r.method, pattern: r.pattern, segments, literals }
        })
        .collect()
});

fn matches(route: &Compiled, parts: &[&str]) -> bool {
    route.segments.len() == parts.len()
        && route.segments.iter().zip(parts).all(|(seg, part)| match seg {
            Segment::Literal(lit) => lit == part,
            Segment::Param { prefix, suffix } => {
                part.len() > prefix.len() + suffix.len() && part.starts_with(prefix) && part.ends_with(suffix)
            }
        })
}

fn method_of(method: &str) -> Option<Method> {
    match method {
        "GET" | "HEAD" => Some(Method::Get),
        "POST" => Some(Method::Post),
        "PATCH" => Some(Method::Patch),
        "DELETE" => Some(Method::Delete),
        _ => None,
    }
}

/// The table pattern of `path` (a request of `method`), or `UNMATCHED`.
pub fn label(method: &str, path: &str) -> &'static str {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let parts: Vec<&str> = trimmed.split('/').collect();
    let method = method_of(method);
    let mut best: Option<(&Compiled, bool)> = None;
    for route in COMPILED.iter().filter(|r| matches(r, &parts)) {
        let same_method = Some(route.method) == method;
        let better = match best {
            None => true,
            Some((b, b_same)) => (same_method, route.literals) > (b_same, b.literals),
        };
        if better {
            best = Some((route, same_method));
        }
    }
    best.map_or(UNMATCHED, |(r, _)| r.pattern)
}

/// The `Allow` value of a path: the methods of its most specific pattern (GET implies HEAD),
/// or `None` for a path no route has.
pub fn allow(path: &str) -> Option<String> {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let parts: Vec<&str> = trimmed.split('/').collect();
    let matching: Vec<&Compiled> = COMPILED.iter().filter(|r| matches(r, &parts)).collect();
    let most = matching.iter().map(|r| r.literals).max()?;
    let mut methods: Vec<&str> = Vec::new();
    for route in matching.into_iter().filter(|r| r.literals == most) {
        let names: &[&str] = if route.method == Method::Get { &["GET", "HEAD"] } else { &[route.method.as_str()] };
        for name in names {
            if !methods.contains(name) {
                methods.push(name);
            }
        }
    }
    (!methods.is_empty()).then(|| methods.join(", "))
}

/// `Some(allow)` when `path` is a table route that does not take `method` (the caller
/// answers 405 with that `Allow`); `None` when the method is served or the path is unknown.
pub fn refused_method(method: &str, path: &str) -> Option<String> {
    let allow = allow(path)?;
    let method = if method == "HEAD" { "GET" } else { method };
    (!allow.split(", ").any(|m| m == method)).then_some(allow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_labelled_by_their_most_specific_pattern() {
        let cases = [
            ("GET", "/", "/"),
            ("GET", "/api/memory/tree", "/api/memory/tree"),
            ("GET", "/api/memory/org/launch-plan", "/api/memory/{scope}/{key}"),
            ("GET", "/api/memory/team%3Asales/k/history", "/api/memory/{scope}/{key}/history"),
            ("GET", "/api/memory/health/sdr", "/api/memory/health/{workerId}"),
            ("POST", "/api/memory/compress/sdr", "/api/memory/compress/{workerId}"),
            ("GET", "/api/deals/summary/pipeline", "/api/deals/summary/pipeline"),
            ("PATCH", "/api/deals/d-17", "/api/deals/{id}"),
            ("GET", "/company/data/apple.json", "/company/data/{slug}.json"),
            ("HEAD", "/company/data/index.json", "/company/data/index.json"),
            ("GET", "/company/data/.json", UNMATCHED),
            ("GET", "/api/nothing-here", UNMATCHED),
            ("GET", "/api/health/", UNMATCHED),
            ("PUT", "/api/health", "/api/health"),
        ];
        for (method, path, expected) in cases {
            assert_eq!(label(method, path), expected, "{method} {path}");
        }
    }

    #[test]
    fn allow_lists_the_methods_of_every_matching_route() {
        assert_eq!(allow("/api/brain/history").as_deref(), Some("GET, HEAD, DELETE"));
        assert_eq!(allow("/api/deals/d-1").as_deref(), Some("GET, HEAD, PATCH"));
        assert_eq!(allow("/nowhere"), None);
        assert_eq!(allow("/api/memory/compress/sdr").as_deref(), Some("POST"), "the documented path's methods");
        assert_eq!(refused_method("GET", "/api/memory/compress/sdr").as_deref(), Some("POST"));
        assert_eq!(refused_method("HEAD", "/status"), None);
        assert_eq!(refused_method("PUT", "/nowhere"), None);
    }

    #[test]
    fn a_get_to_a_post_only_literal_prefers_a_get_pattern() {
        // GET /api/memory/compress/x is served by the `{scope}/{key}` GET route.
        assert_eq!(label("GET", "/api/memory/compress/x"), "/api/memory/{scope}/{key}");
    }
}
