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

fn matches(route: &Compiled, parts: usize, path: &str) -> bool {
    route.segments.len() == parts
        && route.segments.iter().zip(path.split('/')).all(|(seg, part)| match seg {
            Segment::Literal(lit) => *lit == part,
            Segment::Param { prefix, suffix } => {
                part.len() > prefix.len() + suffix.len() && part.starts_with(prefix) && part.ends_with(suffix)
            }
        })
}

/// The table routes `path` matches, from one scan of the table.
fn matching(path: &str) -> impl Iterator<Item = &'static Compiled> + '_ {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let parts = trimmed.bytes().filter(|b| *b == b'/').count() + 1;
    COMPILED.iter().filter(move |r| matches(r, parts, trimmed))
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

/// What the route table says of a request: its label, and whether its path's most specific
/// patterns refuse its method (answered 405 with `allow(path)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Matched {
    pub label: &'static str,
    pub refused: bool,
}

/// The label of a request and whether its method is refused, in one scan without allocating
/// (every request asks both).
pub fn classify(method: &str, path: &str) -> Matched {
    let method = method_of(method);
    let mut best: Option<(&Compiled, bool)> = None;
    // The most literal segments any matching pattern has, and whether one of those takes the method.
    let mut most: Option<(usize, bool)> = None;
    for route in matching(path) {
        let same_method = Some(route.method) == method;
        let better = match best {
            None => true,
            Some((b, b_same)) => (same_method, route.literals) > (b_same, b.literals),
        };
        if better {
            best = Some((route, same_method));
        }
        most = match most {
            Some((m, served)) if route.literals < m => Some((m, served)),
            Some((m, served)) if route.literals == m => Some((m, served || same_method)),
            _ => Some((route.literals, same_method)),
        };
    }
    Matched { label: best.map_or(UNMATCHED, |(r, _)| r.pattern), refused: most.is_some_and(|(_, served)| !served) }
}

/// The `Allow` value of a path: the methods of its most specific pattern (GET implies HEAD),
/// or `None` for a path no route has.
pub fn allow(path: &str) -> Option<String> {
    let matching: Vec<&Compiled> = matching(path).collect();
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
            assert_eq!(classify(method, path).label, expected, "{method} {path}");
        }
    }

    #[test]
    fn allow_lists_the_methods_of_every_matching_route() {
        assert_eq!(allow("/api/brain/history").as_deref(), Some("GET, HEAD, DELETE"));
        assert_eq!(allow("/api/deals/d-1").as_deref(), Some("GET, HEAD, PATCH"));
        assert_eq!(allow("/nowhere"), None);
        assert_eq!(allow("/api/memory/compress/sdr").as_deref(), Some("POST"), "the documented path's methods");
        assert!(classify("GET", "/api/memory/compress/sdr").refused);
        assert!(!classify("HEAD", "/status").refused);
        assert!(!classify("PUT", "/nowhere").refused);
    }

    #[test]
    fn a_method_is_refused_exactly_where_the_allow_header_leaves_it_out() {
        for route in super::super::ROUTES.iter() {
            let path = route.pattern.replace('{', "x").replace('}', "");
            for method in ["GET", "HEAD", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"] {
                let listed = allow(&path).is_some_and(|a| a.split(", ").any(|m| m == method));
                assert_eq!(classify(method, &path).refused, !listed, "{method} {path}");
            }
        }
        assert_eq!(classify("GET", "/nowhere"), Matched { label: UNMATCHED, refused: false });
    }

    #[test]
    fn a_get_to_a_post_only_literal_prefers_a_get_pattern() {
        // GET /api/memory/compress/x is served by the `{scope}/{key}` GET route.
        assert_eq!(classify("GET", "/api/memory/compress/x").label, "/api/memory/{scope}/{key}");
    }
}
