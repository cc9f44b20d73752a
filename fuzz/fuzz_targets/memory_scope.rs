//! Memory addresses: `MemoryScope::parse`, `MemoryKey::parse` and `TeamId::parse` never panic;
//! a parsed scope prints back to its input and parses again to itself; a team's scope is a
//! scope; and each parser accepts exactly what its documented pattern (`SCOPE_PATTERN`,
//! `KEY_PATTERN`, `ID_PATTERN`, published in the OpenAPI document) matches.
#![no_main]

use std::sync::LazyLock;

use gtms::domain::{ID_PATTERN, KEY_PATTERN, MemoryKey, MemoryScope, SCOPE_PATTERN, TeamId};
use libfuzzer_sys::fuzz_target;
use regex::Regex;

static PATTERNS: LazyLock<[Regex; 3]> = LazyLock::new(|| {
    [SCOPE_PATTERN, KEY_PATTERN, ID_PATTERN].map(|p| Regex::new(p).expect("the documented patterns compile"))
});

fuzz_target!(|input: &str| {
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
});
