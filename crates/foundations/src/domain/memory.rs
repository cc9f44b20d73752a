//! Memory addresses, parsed once at the edge: `MemoryScope` (`org`, `team:<id>`,
//! `worker:<id>`), `MemoryKey`, and `TeamId` (a user's team, named on the invite). Inside, a scope or key is always valid, and both are safe
//! as one URL path segment and as part of a store key (neither holds `/`).

use std::fmt;

/// A scope or key that does not parse; the message says which form is expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryAddressError {
    #[error("unknown scope {0:?}: a scope is org, team:<id> or worker:<id> (id: 1-64 of a-z, 0-9, - and _)")]
    Scope(String),
    #[error("invalid key {0:?}: 1-128 characters of letters, digits, '.', '_', '-' and ':'")]
    Key(String),
    #[error("invalid team {0:?}: 1-64 of a-z, 0-9, - and _")]
    Team(String),
}

/// A team id, as in the `team:<id>` memory scope (1-64 of a-z, 0-9, `-`, `_`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TeamId(String);

impl TeamId {
    pub fn parse(input: &str) -> Result<Self, MemoryAddressError> {
        if valid_id(input) { Ok(Self(input.to_owned())) } else { Err(MemoryAddressError::Team(input.to_owned())) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The team's memory scope, `team:<id>`.
    pub fn scope(&self) -> MemoryScope {
        MemoryScope::Team(self.0.clone())
    }
}

impl TryFrom<String> for TeamId {
    type Error = MemoryAddressError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<TeamId> for String {
    fn from(t: TeamId) -> Self {
        t.0
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `MemoryScope::parse` as a regular expression (for API documents).
pub const SCOPE_PATTERN: &str = "^(org|team:[a-z0-9_-]{1,64}|worker:[a-z0-9_-]{1,64})$";
/// A scope, or nothing (an optional filter given empty).
pub const SCOPE_OR_EMPTY_PATTERN: &str = "^(|org|team:[a-z0-9_-]{1,64}|worker:[a-z0-9_-]{1,64})$";
/// A team or worker id as a regular expression.
pub const ID_PATTERN: &str = "^[a-z0-9_-]{1,64}$";
/// `MemoryKey::parse` as a regular expression.
pub const KEY_PATTERN: &str = "^[A-Za-z0-9._:-]{1,128}$";

/// Where a memory entry lives: the whole organisation, one team, or one worker.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryScope {
    Org,
    Team(String),
    Worker(String),
}

fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

impl MemoryScope {
    pub fn parse(input: &str) -> Result<Self, MemoryAddressError> {
        let bad = || MemoryAddressError::Scope(input.to_owned());
        match input.split_once(':') {
            None if input == "org" => Ok(Self::Org),
            Some(("team", id)) if valid_id(id) => Ok(Self::Team(id.to_owned())),
            Some(("worker", id)) if valid_id(id) => Ok(Self::Worker(id.to_owned())),
            _ => Err(bad()),
        }
    }

    /// The worker scope of `id`, checked like any other input.
    pub fn worker(id: &str) -> Result<Self, MemoryAddressError> {
        Self::parse(&format!("worker:{id}"))
    }

    pub fn worker_id(&self) -> Option<&str> {
        match self {
            Self::Worker(id) => Some(id),
            _ => None,
        }
    }
}

impl fmt::Display for MemoryScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Org => f.write_str("org"),
            Self::Team(id) => write!(f, "team:{id}"),
            Self::Worker(id) => write!(f, "worker:{id}"),
        }
    }
}

/// The name of an entry within its scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemoryKey(String);

impl MemoryKey {
    pub fn parse(input: &str) -> Result<Self, MemoryAddressError> {
        let ok = (1..=128).contains(&input.len())
            && input.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b':'));
        if ok { Ok(Self(input.to_owned())) } else { Err(MemoryAddressError::Key(input.to_owned())) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MemoryKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_have_three_forms() {
        assert_eq!(MemoryScope::parse("org"), Ok(MemoryScope::Org));
        assert_eq!(MemoryScope::parse("team:sales"), Ok(MemoryScope::Team("sales".into())));
        assert_eq!(MemoryScope::parse("worker:sdr-1"), Ok(MemoryScope::Worker("sdr-1".into())));
        for bad in ["", "Org", "org:x", "team:", "team:Sales", "user:x", "worker:a/b", "team:a:b", "tree"] {
            assert!(MemoryScope::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(MemoryScope::Team("ops".into()).to_string(), "team:ops");
    }

    #[test]
    fn team_ids_follow_the_scope_id_rules() {
        let sales = TeamId::parse("sales-emea_2").map(|t| t.scope().to_string());
        assert_eq!(sales, Ok("team:sales-emea_2".to_owned()));
        for bad in ["", "Sales", "a b", "a:b", "a/b", "ä", &"t".repeat(65)] {
            assert_eq!(TeamId::parse(bad), Err(MemoryAddressError::Team(bad.to_owned())), "{bad}");
        }
        let json = serde_json::to_string(&TeamId::parse("ops").ok()).unwrap_or_default();
        assert_eq!(json, "\"ops\"");
        assert!(serde_json::from_str::<TeamId>("\"Bad\"").is_err(), "deserialising parses too");
    }

    #[test]
    fn keys_are_one_path_segment() {
        assert!(MemoryKey::parse("icp.v2:notes_1-a").is_ok());
        for bad in ["", "a/b", "a b", "ä", &"k".repeat(129)] {
            assert!(MemoryKey::parse(bad).is_err(), "{bad}");
        }
    }
}
