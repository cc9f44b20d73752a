//! What each fuzz target checks, as plain functions over one input. The cargo-fuzz targets
//! (`fuzz_targets/`) call them on libFuzzer's inputs (`make fuzz`); the test suite replays the
//! committed seeds, any local corpus and a fixed set of mutations of them through the same
//! functions on every `make test` (`tests/api/fuzz_replay.rs`), so CI needs no second build.
//! A function panics when its property fails.

use std::sync::{LazyLock, OnceLock};

use gtms::admin::AdminRequest;
use gtms::auth::guard::{AttemptGuard, AttemptLimits};
use gtms::auth::secrets::{HashCost, Hasher};
use gtms::auth::sessions::Sessions;
use gtms::deals::DealUpdate;
use gtms::domain::{DomainName, ID_PATTERN, KEY_PATTERN, MemoryKey, MemoryScope, SCOPE_PATTERN, Slug, TeamId, Ticker};
use gtms::http::filters::parse_json;
use gtms::http::session::{COOKIE, cookie, presented_token};
use http::{HeaderMap, HeaderValue};
use regex::Regex;

/// A property over one raw input; it panics when the property fails.
pub type Property = fn(&[u8]);

/// Every target by name, over raw bytes (the `&str` targets skip input that is not UTF-8, as
/// libFuzzer's `&str` targets do).
pub const TARGETS: &[(&str, Property)] = &[
    ("slug", |b| text(b, slug)),
    ("domain", |b| text(b, domain)),
    ("ticker", |b| text(b, ticker)),
    ("memory_scope", |b| text(b, memory_scope)),
    ("session_token", session_token),
    ("json_body", json_body),
];

fn text(data: &[u8], check: fn(&str)) {
    if let Ok(input) = std::str::from_utf8(data) {
        check(input);
    }
}

/// `Slug::parse` and `Slug::from_name`: never panic; a parsed slug is its input; what
/// `from_name` makes parses.
pub fn slug(input: &str) {
    if let Ok(slug) = Slug::parse(input) {
        assert_eq!(slug.as_str(), input, "a parsed slug is its input");
    }
    if let Some(slug) = Slug::from_name(input) {
        let again = Slug::parse(slug.as_str());
        assert!(again.is_ok(), "from_name made {:?}, which does not parse", slug.as_str());
    }
}

/// `DomainName::parse` (IDNA, public-suffix rules): never panics; its output is a fixed point.
pub fn domain(input: &str) {
    if let Ok(domain) = DomainName::parse(input) {
        let again = DomainName::parse(domain.as_str());
        assert_eq!(again.as_ref().map(|d| d.as_str()).ok(), Some(domain.as_str()), "from {input:?}");
    }
}

/// `Ticker::parse`: never panics; its output is a fixed point.
pub fn ticker(input: &str) {
    if let Ok(ticker) = Ticker::parse(input) {
        let again = Ticker::parse(ticker.as_str());
        assert_eq!(again.as_ref().map(|t| t.as_str()).ok(), Some(ticker.as_str()), "from {input:?}");
    }
}

static PATTERNS: LazyLock<[Regex; 3]> = LazyLock::new(|| {
    [SCOPE_PATTERN, KEY_PATTERN, ID_PATTERN].map(|p| Regex::new(p).expect("the documented patterns compile"))
});

/// Memory addresses: `MemoryScope::parse`, `MemoryKey::parse` and `TeamId::parse` never panic;
/// a parsed scope prints back to its input and parses again to itself; a team's scope is a
/// scope; and each parser accepts exactly what its documented pattern (`SCOPE_PATTERN`,
/// `KEY_PATTERN`, `ID_PATTERN`, published in the OpenAPI document) matches.
pub fn memory_scope(input: &str) {
    let [scope_re, key_re, id_re] = &*PATTERNS;
    let scope = MemoryScope::parse(input);
    assert_eq!(scope.is_ok(), scope_re.is_match(input), "scope {input:?}: parser and SCOPE_PATTERN disagree");
    if let Ok(scope) = scope {
        assert_eq!(scope.to_string(), input, "a parsed scope prints as its input");
        assert_eq!(MemoryScope::parse(&scope.to_string()).ok(), Some(scope.clone()));
        if let Some(id) = scope.worker_id() {
            assert_eq!(MemoryScope::worker(id).ok(), Some(scope.clone()));
        }
    }
    let key = MemoryKey::parse(input);
    assert_eq!(key.is_ok(), key_re.is_match(input), "key {input:?}: parser and KEY_PATTERN disagree");
    if let Ok(key) = key {
        assert_eq!(key.as_str(), input);
        assert!(!key.as_str().contains('/'), "a key is one path segment");
    }
    let team = TeamId::parse(input);
    assert_eq!(team.is_ok(), id_re.is_match(input), "team {input:?}: parser and ID_PATTERN disagree");
    if let Ok(team) = team {
        let scope = team.scope().to_string();
        assert_eq!(MemoryScope::parse(&scope).ok(), Some(team.scope()), "team:{input} is a scope");
    }
}

fn sessions() -> &'static Sessions {
    static SESSIONS: OnceLock<Sessions> = OnceLock::new();
    SESSIONS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gtms-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let store = gtms::store::Store::open(&dir.join("fuzz.redb")).expect("store");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let hasher = Hasher::new(HashCost { memory_kib: 8, iterations: 1 });
        let limits = AttemptLimits { per_ip: 10, per_credential: 10, window_secs: 60 };
        let guard = AttemptGuard::new(limits, std::sync::Arc::new(gtms::clock::SystemClock));
        runtime.block_on(Sessions::load(store, hasher, None, guard)).expect("sessions")
    })
}

/// The session path of every workspace request: `Authorization` and `Cookie` header values
/// (split at the first NUL byte) -> `presented_token` (bearer scheme, cookie list) ->
/// `Sessions::authenticate` (JWT decode, HS256 only, issuer, expiry, invite state). Never
/// panics, and nothing made without the signing secret is accepted.
pub fn session_token(data: &[u8]) {
    let (authorization, cookies) = match data.iter().position(|&b| b == 0) {
        Some(i) => (Some(&data[..i]), &data[i + 1..]),
        None => (None, data),
    };
    let mut headers = HeaderMap::new();
    if let Some(value) = authorization.and_then(|a| HeaderValue::from_bytes(a).ok()) {
        headers.insert("authorization", value);
    }
    if let Ok(value) = HeaderValue::from_bytes(cookies) {
        headers.insert("cookie", value);
    }
    let _ = cookie(&headers, COOKIE);
    if let Ok(Some(token)) = presented_token(&headers) {
        assert!(!token.is_empty());
        assert!(sessions().authenticate(&token).is_err(), "a forged token was accepted: {token:?}");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        assert!(sessions().authenticate(text).is_err());
    }
}

/// JSON bodies: `parse_json` (the body filter's parser, with its error messages) into the
/// request types the routes take, and the admin channel's request lines. Never panics; a stage
/// that parses serializes to its name and parses back to itself.
pub fn json_body(data: &[u8]) {
    if let Ok(update) = parse_json::<DealUpdate>(data)
        && let Some(stage) = update.stage
    {
        let name = serde_json::to_value(stage).expect("a stage serializes");
        assert_eq!(serde_json::from_value(name).ok(), Some(stage), "a stage round-trips");
    }
    let _ = parse_json::<serde_json::Value>(data);
    if let Ok(line) = std::str::from_utf8(data) {
        let _ = serde_json::from_str::<AdminRequest>(line);
    }
}
