//! Invite codes of the workspace: one record per code (= one user, the JWT `sub`), with its
//! role, argon2id hash, and a token version that revocation bumps to end every session.

use redb::{ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::tables::INVITES;
use super::{Store, StoreError, codec};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InviteRecord {
    pub id: String,
    /// `admin` or `viewer`.
    pub role: String,
    pub name: String,
    /// argon2id PHC string of the whole code.
    pub hash: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
    /// Tokens carry this; a revoke bumps it so older tokens stop verifying.
    pub token_version: u32,
}

impl Store {
    pub async fn insert_invite(&self, record: InviteRecord) -> Result<(), StoreError> {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(INVITES)?.insert(record.id.as_str(), codec::encode(&record)?.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    pub async fn invites(&self) -> Result<Vec<InviteRecord>, StoreError> {
        self.blocking(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(INVITES)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                out.push(codec::decode(entry?.1.value())?);
            }
            Ok(out)
        })
        .await
    }

    /// Revokes an invite and bumps its token version; `None` for an unknown id.
    pub async fn revoke_invite(&self, id: &str, now: i64) -> Result<Option<InviteRecord>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let updated = {
                let mut table = txn.open_table(INVITES)?;
                let current: Option<InviteRecord> = match table.get(id.as_str())? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                match current {
                    Some(mut record) => {
                        record.revoked_at.get_or_insert(now);
                        record.token_version += 1;
                        table.insert(id.as_str(), codec::encode(&record)?.as_slice())?;
                        Some(record)
                    }
                    None => None,
                }
            };
            txn.commit()?;
            Ok(updated)
        })
        .await
    }
}
