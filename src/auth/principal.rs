//! Who a request speaks for once its credential verified, and the one permission check every
//! service runs on it: `principal.require(Role::Admin)?` before a write. Faces authenticate;
//! services decide what a role may do.

use crate::domain::{Role, TeamId};
use crate::error::{ErrorKind, ServiceError};

/// A verified workspace caller (the JWT `sub`, its role and display name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub sub: String,
    pub role: Role,
    pub name: String,
    /// The user's team, whose `team:<id>` memory the Brain injects.
    pub team: Option<TeamId>,
}

/// A caller whose role does not allow the operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("this needs the {} role; you are signed in as {}", .needed.as_str(), .held.as_str())]
pub struct Forbidden {
    pub needed: Role,
    pub held: Role,
}

impl ServiceError for Forbidden {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Forbidden
    }
}

impl Principal {
    /// Ok when this caller holds at least `role`.
    pub fn require(&self, role: Role) -> Result<(), Forbidden> {
        if self.role.satisfies(role) { Ok(()) } else { Err(Forbidden { needed: role, held: self.role }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn principal(role: Role) -> Principal {
        Principal { sub: "u".into(), role, name: "n".into(), team: None }
    }

    #[test]
    fn a_viewer_is_refused_what_needs_an_admin() {
        assert!(principal(Role::Admin).require(Role::Admin).is_ok());
        assert!(principal(Role::Viewer).require(Role::Viewer).is_ok());
        let refused = principal(Role::Viewer).require(Role::Admin);
        assert_eq!(refused, Err(Forbidden { needed: Role::Admin, held: Role::Viewer }));
        let refused = refused.err().map(|e| (e.to_string(), e.kind()));
        let sentence = "this needs the admin role; you are signed in as viewer".to_owned();
        assert_eq!(refused, Some((sentence, ErrorKind::Forbidden)));
    }
}
