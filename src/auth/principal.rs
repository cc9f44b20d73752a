//! Who a request speaks for once its credential verified, and permission as a type: every
//! write of a service takes an `AdminProof`, which only `Principal::require_admin` makes, so
//! a face that forgets the check does not compile. The appliance's own writes (workflow steps)
//! carry a `SystemProof` instead, which the faces never make (a test reads them for it).
//!
//! A write without the proof does not compile:
//!
//! ```compile_fail,E0308
//! # async fn face(store: &gtms::store::Store, caller: &gtms::auth::Principal, request: gtms::memory::WriteRequest) {
//! let _ = gtms::memory::write(store, caller, request).await;
//! # }
//! ```
//!
//! nor can a face make a proof of its own:
//!
//! ```compile_fail,E0451
//! # fn face(caller: &gtms::auth::Principal) {
//! let _ = gtms::auth::AdminProof { principal: caller };
//! # }
//! ```
//!
//! The check is the way in:
//!
//! ```
//! # async fn face(store: &gtms::store::Store, caller: &gtms::auth::Principal, request: gtms::memory::WriteRequest)
//! #     -> Result<(), Box<dyn std::error::Error>> {
//! let admin = caller.require_admin()?;
//! gtms::memory::write(store, admin, request).await?;
//! # Ok(())
//! # }
//! ```

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
    /// Where the request came from (what the audit log records as `from`).
    pub origin: Origin,
}

/// The face a request came through and, where the face knows it, the client's address.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Origin {
    pub channel: Channel,
    pub ip: Option<std::net::IpAddr>,
}

/// The faces a workspace caller uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Channel {
    #[default]
    Api,
    Console,
    Mcp,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Api => "api",
            Channel::Console => "console",
            Channel::Mcp => "mcp",
        }
    }
}

impl std::fmt::Display for Origin {
    /// `api 10.0.0.7`, or the channel alone when the address is not known.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ip {
            Some(ip) => write!(f, "{} {ip}", self.channel.as_str()),
            None => f.write_str(self.channel.as_str()),
        }
    }
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

/// This caller holds the admin role: what every write of a service takes.
#[derive(Debug, Clone, Copy)]
pub struct AdminProof<'a> {
    principal: &'a Principal,
}

impl<'a> AdminProof<'a> {
    /// The admin the write is made for (its author).
    pub fn principal(&self) -> &'a Principal {
        self.principal
    }
}

/// A write the appliance makes itself, recorded under `author` (a workflow step's tag).
#[derive(Debug, Clone)]
pub struct SystemProof {
    author: String,
}

impl SystemProof {
    /// For a step of a running workflow; `tag` names the workflow and the step.
    pub fn workflow_step(tag: String) -> Self {
        Self { author: tag }
    }

    /// For the demo's simulated team (`demo::simulate`).
    pub fn simulated_team() -> Self {
        Self { author: "simulated:teammate".into() }
    }

    pub fn author(&self) -> &str {
        &self.author
    }
}

impl Principal {
    /// The same caller, known to have come through `channel` from `ip`.
    pub fn via(self, channel: Channel, ip: Option<std::net::IpAddr>) -> Self {
        Self { origin: Origin { channel, ip }, ..self }
    }

    /// The proof a write needs, when this caller is an admin.
    pub fn require_admin(&self) -> Result<AdminProof<'_>, Forbidden> {
        if self.role.satisfies(Role::Admin) {
            Ok(AdminProof { principal: self })
        } else {
            Err(Forbidden { needed: Role::Admin, held: self.role })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn principal(role: Role) -> Principal {
        Principal { sub: "u".into(), role, name: "n".into(), team: None, origin: Origin::default() }
    }

    #[test]
    fn only_an_admin_gets_the_proof_a_write_needs() {
        let admin = principal(Role::Admin);
        assert_eq!(admin.require_admin().map(|p| p.principal().sub.clone()).ok(), Some("u".to_owned()));
        let refused = principal(Role::Viewer).require_admin().map(|_| ());
        assert_eq!(refused, Err(Forbidden { needed: Role::Admin, held: Role::Viewer }));
        let refused = refused.err().map(|e| (e.to_string(), e.kind()));
        let sentence = "this needs the admin role; you are signed in as viewer".to_owned();
        assert_eq!(refused, Some((sentence, ErrorKind::Forbidden)));
    }

    /// The faces authenticate and check roles; only workflow steps write as the system.
    #[test]
    fn no_face_makes_a_system_proof() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        for face in ["http", "mcp", "cli", "admin"] {
            let mut dirs = vec![src.join(face)];
            while let Some(dir) = dirs.pop() {
                for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        dirs.push(path);
                    } else if std::fs::read_to_string(&path).is_ok_and(|text| text.contains("SystemProof")) {
                        offenders.push(path.display().to_string());
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "a face makes a SystemProof: {offenders:?}");
    }
}
