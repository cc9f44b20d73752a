//! Who is calling `/mcp` and which tools they see: the verified `Caller` (a `gtms_` API key,
//! or a workspace user from a JWT) and the toolset `Selection` of the request. Both are
//! decided once per HTTP request by `access::admit` and travel to the MCP handler as a
//! request extension (`CallContext`).

use std::collections::BTreeSet;

use super::error::ToolError;
use super::toolset::Toolset;
use crate::auth::sessions::Principal;
use crate::domain::Tenant;

/// The name of the read-only preset in a toolset list.
pub const READONLY_PRESET: &str = "readonly";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    ApiKey { id: String, tenant: Tenant },
    Workspace(Principal),
}

impl Caller {
    /// The rate-limit and session-binding identity of the credential.
    pub fn id(&self) -> String {
        match self {
            Caller::ApiKey { id, .. } => format!("key:{id}"),
            Caller::Workspace(p) => format!("user:{}", p.sub),
        }
    }

    /// The workspace user of a JWT caller; an API key is no workspace user.
    pub fn principal(&self) -> Result<&Principal, ToolError> {
        match self {
            Caller::Workspace(p) => Ok(p),
            Caller::ApiKey { .. } => {
                Err(ToolError::NotPermitted("workspace tools need a workspace token, not an API key".into()))
            }
        }
    }

    /// Toolsets the credential may use: an API key reaches company data only.
    pub fn may_use(&self, toolset: Toolset) -> bool {
        match self {
            Caller::ApiKey { .. } => toolset == Toolset::Company,
            Caller::Workspace(_) => true,
        }
    }
}

/// Which tools a request sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    toolsets: BTreeSet<Toolset>,
    read_only: bool,
}

impl Selection {
    /// Every toolset the caller may use (the default when nothing is selected).
    pub fn default_for(caller: &Caller) -> Self {
        let toolsets = Toolset::DEFAULT.into_iter().filter(|t| caller.may_use(*t)).collect();
        Self { toolsets, read_only: false }
    }

    /// Parses `company,deals` or `readonly` (alone: every usable toolset, read-only tools
    /// only). Unknown names are an error naming them.
    pub fn parse(raw: &str, caller: &Caller) -> Result<Self, SelectionError> {
        let names: Vec<&str> = raw.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        let mut toolsets = BTreeSet::new();
        let mut read_only = false;
        let mut unknown = Vec::new();
        for name in names {
            let lower = name.to_ascii_lowercase();
            if lower == READONLY_PRESET {
                read_only = true;
            } else if lower == "all" {
                toolsets.extend(Toolset::DEFAULT.into_iter().filter(|t| caller.may_use(*t)));
            } else {
                match Toolset::parse(&lower) {
                    Some(t) => {
                        toolsets.insert(t);
                    }
                    None => unknown.push(name.to_owned()),
                }
            }
        }
        if !unknown.is_empty() {
            return Err(SelectionError::Unknown(unknown));
        }
        let denied: Vec<&str> = toolsets.iter().filter(|t| !caller.may_use(**t)).map(|t| t.as_str()).collect();
        if !denied.is_empty() {
            return Err(SelectionError::Denied(denied.join(", ")));
        }
        if toolsets.is_empty() {
            toolsets = Self::default_for(caller).toolsets;
        }
        Ok(Self { toolsets, read_only })
    }

    /// Whether a tool of `toolset` (read-only or not) is within the selection.
    pub fn admits(&self, toolset: Toolset, read_only: bool) -> bool {
        self.toolsets.contains(&toolset) && (!self.read_only || read_only)
    }

    pub fn toolsets(&self) -> impl Iterator<Item = Toolset> + '_ {
        self.toolsets.iter().copied()
    }

    pub fn read_only(&self) -> bool {
        self.read_only
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error(
        "unknown toolset(s): {}; choose from company, workers, deals, memory, brain, metrics, coordinator, all, readonly",
        .0.join(", ")
    )]
    Unknown(Vec<String>),
    #[error("an API key reaches the company toolset only (asked for {0}); use a workspace token for the others")]
    Denied(String),
}

/// What `access::admit` decided for one HTTP request; read by the MCP handler.
#[derive(Debug, Clone)]
pub struct CallContext {
    pub caller: Caller,
    pub selection: Selection,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Role;

    fn key() -> Caller {
        Caller::ApiKey { id: "k".into(), tenant: Tenant::parse("t").expect("tenant") }
    }

    fn admin() -> Caller {
        Caller::Workspace(Principal {
            sub: "u".into(),
            role: Role::Admin,
            name: "a".into(),
            team: None,
            origin: Default::default(),
        })
    }

    #[test]
    fn toolsets_parse_with_presets_and_refuse_unknown_names() {
        let s = Selection::parse("company, Deals", &admin()).unwrap();
        assert_eq!(s.toolsets().collect::<Vec<_>>(), vec![Toolset::Company, Toolset::Deals]);
        let ro = Selection::parse("readonly", &admin()).unwrap();
        assert!(ro.read_only() && ro.toolsets().count() == 7);
        assert_eq!(Selection::parse("company,nope", &admin()), Err(SelectionError::Unknown(vec!["nope".into()])));
        assert!(matches!(Selection::parse("deals", &key()), Err(SelectionError::Denied(_))));
        assert_eq!(Selection::parse("", &key()), Ok(Selection::default_for(&key())));
    }

    #[test]
    fn only_workspace_callers_have_a_principal() {
        assert!(key().principal().is_err());
        assert!(admin().principal().is_ok());
    }
}
