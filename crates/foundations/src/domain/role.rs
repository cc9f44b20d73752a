//! Workspace roles: `admin` may change things; `viewer` is read-only.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    Viewer,
}

impl Role {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "admin" => Some(Role::Admin),
            "viewer" => Some(Role::Viewer),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Viewer => "viewer",
        }
    }

    /// Whether this role may do what `required` demands.
    pub fn satisfies(self, required: Role) -> bool {
        self == Role::Admin || required == Role::Viewer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admins_do_everything_viewers_only_read() {
        assert!(Role::Admin.satisfies(Role::Admin) && Role::Admin.satisfies(Role::Viewer));
        assert!(Role::Viewer.satisfies(Role::Viewer) && !Role::Viewer.satisfies(Role::Admin));
        assert_eq!(Role::parse("admin"), Some(Role::Admin));
        assert_eq!(Role::parse("root"), None);
    }
}
