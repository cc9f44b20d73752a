//! Invite codes of the workspace: one record per code (= one user, the JWT `sub`), with its
//! role, team, argon2id hash, and a token version that revocation bumps to end every session.

use serde::{Deserialize, Serialize};

use super::codec::{CodecError, Record, decode_body};
use super::tables::INVITES;
use super::{Store, StoreError};
use crate::domain::{Role, TeamId};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteRecord {
    pub id: String,
    pub role: Role,
    pub name: String,
    /// argon2id PHC string of the whole code.
    pub hash: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
    /// Tokens carry this; a revoke bumps it so older tokens stop verifying.
    pub token_version: u32,
    /// The user's team (schema version 3); its `team:<id>` memory reaches the Brain.
    pub team: Option<TeamId>,
}

/// Schema version 2: as today, without the team.
#[derive(Deserialize)]
struct InviteRecordV2 {
    id: String,
    role: Role,
    name: String,
    hash: String,
    created_at: i64,
    revoked_at: Option<i64>,
    token_version: u32,
}

/// Schema version 1: the role was its name as a string.
#[derive(Deserialize)]
struct InviteRecordV1 {
    id: String,
    role: String,
    name: String,
    hash: String,
    created_at: i64,
    revoked_at: Option<i64>,
    token_version: u32,
}

impl Record for InviteRecord {
    /// Versions 1 and 2 had no team (None); version 1 held the role as its name. The layout
    /// has not changed since version 3.
    fn upgrade(version: u8, body: &[u8]) -> Result<Self, CodecError> {
        if version >= 3 {
            return decode_body(body);
        }
        let v2 = if version >= 2 { decode_body(body)? } else { InviteRecordV2::from_v1(version, decode_body(body)?)? };
        let InviteRecordV2 { id, role, name, hash, created_at, revoked_at, token_version } = v2;
        Ok(InviteRecord { id, role, name, hash, created_at, revoked_at, token_version, team: None })
    }
}

impl InviteRecordV2 {
    fn from_v1(version: u8, v1: InviteRecordV1) -> Result<Self, CodecError> {
        let role = Role::parse(&v1.role)
            .ok_or_else(|| CodecError::Upgrade { version, reason: format!("unknown invite role {:?}", v1.role) })?;
        let InviteRecordV1 { id, name, hash, created_at, revoked_at, token_version, .. } = v1;
        Ok(InviteRecordV2 { id, role, name, hash, created_at, revoked_at, token_version })
    }
}

impl Store {
    pub async fn insert_invite(&self, record: InviteRecord) -> Result<(), StoreError> {
        self.put_record(INVITES, record.id.clone(), record).await
    }

    pub async fn invites(&self) -> Result<Vec<InviteRecord>, StoreError> {
        self.all_records(INVITES).await
    }

    /// Revokes an invite and bumps its token version; `None` for an unknown id.
    pub async fn revoke_invite(&self, id: &str, now: i64) -> Result<Option<InviteRecord>, StoreError> {
        self.modify_record(INVITES, id.to_owned(), move |mut record: InviteRecord| {
            record.revoked_at.get_or_insert(now);
            record.token_version += 1;
            (Some(record.clone()), record)
        })
        .await
    }
}
