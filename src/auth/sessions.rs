//! Workspace sessions: invite codes (`inv_<id: 12 hex>_<secret: 32 hex>`, argon2id at rest,
//! one code = one user = the JWT `sub`, optionally on a team) exchanged for HS256 JWTs (`iss` "gtms", `iat`, `exp`,
//! `role`, and `ver`, the invite's token version). Verifying a token is an HMAC and a lookup
//! in the in-memory invite table, which create and revoke keep current; a revoke bumps the
//! version, so every token issued before it stops verifying. A failed login of a code not
//! seen before costs one argon2 verification whether or not its invite exists, so timing does
//! not tell which; but argon2 is guarded (`guard`): a code that failed recently fails at once,
//! one verification per invite id runs at a time, failed attempts per invite id are limited
//! (per client IP, the `/auth` limit of the accept loop applies first), and a code that
//! verified is remembered (as its SHA-256) so repeated logins cost no argon2.

use std::collections::HashMap;
use std::sync::{Mutex, RwLock};

use serde::{Deserialize, Serialize};

use sha2::{Digest as _, Sha256};

use super::AuthError;
use super::guard::{AttemptGuard, Digest};
use super::jwt::Hs256;
pub use super::principal::Principal;
use super::secrets::{Hasher, random_hex};
use crate::config::Secret;
use crate::domain::{Role, TeamId};
use crate::store::{InviteRecord, Store};

const ISSUER: &str = "gtms";
const CODE_PREFIX: &str = "inv_";
const ID_HEX: usize = 12;
const SECRET_HEX: usize = 32;
/// Session lifetime: 12 hours.
pub const SESSION_SECS: i64 = 12 * 60 * 60;

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub role: Role,
    pub ver: u32,
    pub iss: String,
    pub iat: i64,
    pub exp: i64,
}

/// What `gtms invites list` shows; never the hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteSummary {
    pub id: String,
    pub role: Role,
    pub name: String,
    pub created_at: i64,
    pub revoked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamId>,
}

#[derive(Debug, Clone)]
struct InviteState {
    role: Role,
    name: String,
    version: u32,
    revoked: bool,
    hash: String,
    /// Looked up by `sub` on every request, so the token need not carry it.
    team: Option<TeamId>,
}

pub struct Sessions {
    store: Store,
    hasher: Hasher,
    /// Signs and verifies the session tokens (the secret never leaves the server).
    jwt: Hs256,
    invites: RwLock<HashMap<String, InviteState>>,
    /// Hash verified against when a code names no live invite (equal timing): random bytes in
    /// the PHC form of our parameters (`Hasher::decoy`), so start-up hashes nothing (one argon2
    /// hash is 15 ms and a 7 MiB arena).
    decoy_hash: String,
    guard: AttemptGuard,
    /// Invite id -> SHA-256 of its code, once the code verified.
    verified: Mutex<HashMap<String, Digest>>,
}

fn summary(r: &InviteRecord) -> InviteSummary {
    InviteSummary {
        id: r.id.clone(),
        role: r.role,
        name: r.name.clone(),
        created_at: r.created_at,
        revoked: r.revoked_at.is_some(),
        team: r.team.clone(),
    }
}

fn code_id(code: &str) -> Option<&str> {
    let rest = code.strip_prefix(CODE_PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (hex(id, ID_HEX) && hex(secret, SECRET_HEX)).then_some(id)
}

impl Sessions {
    /// Loads the signing secret (configured, or generated once and kept in redb) and the invites.
    pub async fn load(
        store: Store,
        hasher: Hasher,
        configured: Option<&Secret>,
        guard: AttemptGuard,
    ) -> Result<Self, AuthError> {
        let secret = match configured {
            Some(s) => s.expose().to_owned(),
            None => store.jwt_secret_or_init(|| random_hex(32)).await?,
        };
        let invites = store
            .invites()
            .await?
            .into_iter()
            .map(|r| {
                let state = InviteState {
                    role: r.role,
                    name: r.name.clone(),
                    version: r.token_version,
                    revoked: r.revoked_at.is_some(),
                    hash: r.hash.clone(),
                    team: r.team.clone(),
                };
                (r.id, state)
            })
            .collect();
        let decoy_hash = hasher.decoy()?;
        Ok(Self {
            store,
            hasher,
            jwt: Hs256::new(secret.as_bytes()),
            invites: RwLock::new(invites),
            decoy_hash,
            guard,
            verified: Mutex::new(HashMap::new()),
        })
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, InviteState>> {
        self.invites.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, InviteState>> {
        self.invites.write().unwrap_or_else(|p| p.into_inner())
    }

    pub fn has_invites(&self) -> bool {
        !self.read().is_empty()
    }

    /// Issues an invite code (shown once) for a new user, on `team` when given.
    pub async fn create_invite(
        &self,
        role: Role,
        name: &str,
        team: Option<TeamId>,
        now: i64,
    ) -> Result<(String, InviteSummary), AuthError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
            return Err(AuthError::BadInput("name: 1 to 100 printable characters".into()));
        }
        let id = random_hex(ID_HEX / 2);
        let code = format!("{CODE_PREFIX}{id}_{}", random_hex(SECRET_HEX / 2));
        let hash = self.hasher.hash(code.clone()).await?;
        let record = InviteRecord {
            id: id.clone(),
            role,
            name: name.to_owned(),
            hash: hash.clone(),
            created_at: now,
            revoked_at: None,
            token_version: 0,
            team: team.clone(),
        };
        self.store.insert_invite(record.clone()).await?;
        let state = InviteState { role, name: name.to_owned(), version: 0, revoked: false, hash, team };
        self.write().insert(id, state);
        Ok((code, summary(&record)))
    }

    pub async fn list_invites(&self) -> Result<Vec<InviteSummary>, AuthError> {
        let mut out: Vec<InviteSummary> = self.store.invites().await?.iter().map(summary).collect();
        out.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(out)
    }

    /// Revokes an invite and ends every session issued for it.
    pub async fn revoke_invite(&self, id: &str, now: i64) -> Result<InviteSummary, AuthError> {
        let record = self.store.revoke_invite(id, now).await?.ok_or(AuthError::NotFound("invite"))?;
        self.verified.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        if let Some(state) = self.write().get_mut(id) {
            state.revoked = true;
            state.version = record.token_version;
        }
        Ok(summary(&record))
    }

    /// Exchanges an invite code for a signed token (the code is never logged).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn login(&self, code: &str, now: i64) -> Result<(String, Role), AuthError> {
        let digest: Digest = Sha256::digest(code.as_bytes()).into();
        if self.guard.failed_recently(&digest) {
            return Err(AuthError::InvalidCredentials);
        }
        let live = self.live_invite(code);
        let (id, state) = match live {
            Some((id, state)) => {
                let _flight = self.guard.flight(&id).await;
                if !self.code_verified(&id, &digest) {
                    self.verify_code(code, &id, &state.hash, digest).await?;
                }
                (id, state)
            }
            None => {
                // Same cost as a real check, so a missing invite is not told apart by timing.
                self.hasher.verify(code.to_owned(), self.decoy_hash.clone()).await?;
                self.guard.remember_failure(digest);
                return Err(AuthError::InvalidCredentials);
            }
        };
        self.token(id, &state, now).map(|token| (token, state.role))
    }

    /// The live invite a code names, if any.
    fn live_invite(&self, code: &str) -> Option<(String, InviteState)> {
        let id = code_id(code)?;
        self.read().get(id).filter(|s| !s.revoked).map(|s| (id.to_owned(), s.clone()))
    }

    fn code_verified(&self, id: &str, digest: &Digest) -> bool {
        self.verified.lock().unwrap_or_else(|p| p.into_inner()).get(id) == Some(digest)
    }

    /// One guarded argon2 check of `code` against its invite's hash.
    async fn verify_code(&self, code: &str, id: &str, hash: &str, digest: Digest) -> Result<(), AuthError> {
        let attempt = self.guard.admit(None, id)?;
        if !self.hasher.verify(code.to_owned(), hash.to_owned()).await? {
            self.guard.failed(attempt, digest);
            return Err(AuthError::InvalidCredentials);
        }
        self.guard.succeeded(attempt);
        self.verified.lock().unwrap_or_else(|p| p.into_inner()).insert(id.to_owned(), digest);
        Ok(())
    }

    fn token(&self, id: String, state: &InviteState, now: i64) -> Result<String, AuthError> {
        let claims = Claims {
            sub: id,
            role: state.role,
            ver: state.version,
            iss: ISSUER.into(),
            iat: now,
            exp: now + SESSION_SECS,
        };
        self.jwt.sign(&claims).map_err(|e| AuthError::Hash(e.to_string()))
    }

    /// The failed-attempt guard of logins.
    pub fn guard(&self) -> &AttemptGuard {
        &self.guard
    }

    /// Verifies a token: signature (HS256 only), every claim present, issuer, expiry (on the
    /// store's clock, no leeway), and that its invite is live at the token's version.
    pub fn authenticate(&self, token: &str) -> Result<Principal, AuthError> {
        let claims: Claims = self.jwt.verify(token).map_err(|_| AuthError::InvalidCredentials)?;
        if claims.iss != ISSUER || claims.exp <= self.store.clock().now_secs() {
            return Err(AuthError::InvalidCredentials);
        }
        let invites = self.read();
        let state = invites.get(&claims.sub).ok_or(AuthError::InvalidCredentials)?;
        if state.revoked || state.version != claims.ver || state.role != claims.role {
            return Err(AuthError::InvalidCredentials);
        }
        Ok(Principal {
            sub: claims.sub,
            role: claims.role,
            name: state.name.clone(),
            team: state.team.clone(),
            origin: super::Origin::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invite_codes_have_one_shape() {
        let good = format!("inv_{}_{}", "ab".repeat(6), "cd".repeat(16));
        assert_eq!(code_id(&good), Some("abababababab"));
        for bad in ["", "inv_", "inv_x_y", &good.to_uppercase(), &format!("{good}f")] {
            assert_eq!(code_id(bad), None, "{bad}");
        }
    }
}
