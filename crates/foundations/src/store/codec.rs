//! Record encoding: one schema-version byte, then bincode 2 (serde). Every stored type is a
//! `Record`; a body written under an older version goes through that type's `upgrade`, so
//! each migration sits beside the type it migrates (e.g. `DealRecord` in `workspace.rs`).
//!
//! Versions: 1 — the first; 2 — deal stages lost `discovery` (such deals become
//! `qualification`) and invite roles became the `Role` enum; 3 — invites name the user's team
//! (`Option<TeamId>`, None for older invites); 4 — deals carry the `external_id` they were
//! imported under (None for older deals); 5 — chat messages carry the tokens of the answer
//! (0 for older messages).

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The version written with every record today.
pub const SCHEMA_VERSION: u8 = 5;

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("empty record")]
    Empty,
    #[error("record schema version {0} is newer than this binary understands")]
    UnknownVersion(u8),
    #[error("encode: {0}")]
    Encode(#[from] bincode::error::EncodeError),
    #[error("decode: {0}")]
    Decode(#[from] bincode::error::DecodeError),
    #[error("{0} bytes left over after the record: read with the wrong layout")]
    TrailingBytes(usize),
    #[error("record of schema version {version} cannot be upgraded: {reason}")]
    Upgrade { version: u8, reason: String },
}

/// A type stored in the database.
pub trait Record: Serialize + DeserializeOwned {
    /// Decodes a body this type wrote under an older schema `version`. The default says the
    /// type's layout has not changed since that version.
    fn upgrade(version: u8, body: &[u8]) -> Result<Self, CodecError> {
        let _ = version;
        decode_body(body)
    }
}

/// Types whose layout never changed.
macro_rules! unchanged_records {
    ($($t:ty),* $(,)?) => { $( impl $crate::store::codec::Record for $t {} )* };
}
pub(crate) use unchanged_records;

unchanged_records!(bool, String);

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, CodecError> {
    let mut out = vec![SCHEMA_VERSION];
    out.extend(bincode::serde::encode_to_vec(value, bincode::config::standard())?);
    Ok(out)
}

pub fn decode<T: Record>(bytes: &[u8]) -> Result<T, CodecError> {
    match bytes.split_first() {
        None => Err(CodecError::Empty),
        Some((&SCHEMA_VERSION, body)) => decode_body(body),
        Some((&version, body)) if (1..SCHEMA_VERSION).contains(&version) => T::upgrade(version, body),
        Some((&version, _)) => Err(CodecError::UnknownVersion(version)),
    }
}

/// Decodes a bincode body as `T` (no version byte).
/// Decodes a whole body: bytes left over mean it was read with the wrong layout (an upgrade
/// that forgot a version), an error rather than a record with fields silently dropped.
pub fn decode_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, CodecError> {
    let (value, read) = bincode::serde::decode_from_slice(body, bincode::config::standard())?;
    if read != body.len() {
        return Err(CodecError::TrailingBytes(body.len() - read));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Pair = (String, u64);
    impl Record for Pair {}

    #[test]
    fn records_round_trip_behind_a_version_byte() {
        let bytes = encode(&("x".to_owned(), 7u64)).unwrap_or_default();
        assert_eq!(bytes[0], SCHEMA_VERSION);
        let back: Pair = decode(&bytes).unwrap_or_default();
        assert_eq!(back, ("x".to_owned(), 7));
    }

    #[test]
    fn unknown_versions_and_empty_records_are_errors() {
        assert!(matches!(decode::<bool>(&[]), Err(CodecError::Empty)));
        assert!(matches!(decode::<bool>(&[9, 1]), Err(CodecError::UnknownVersion(9))));
        assert!(matches!(decode::<bool>(&[0, 1]), Err(CodecError::UnknownVersion(0))));
    }
}
