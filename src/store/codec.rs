//! Record encoding: one schema-version byte, then bincode 2 (serde). `decode` passes
//! older versions through `migrate`, the single place where record upgrades live.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The version written with every record today.
pub const SCHEMA_VERSION: u8 = 1;

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
}

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, CodecError> {
    let mut out = vec![SCHEMA_VERSION];
    out.extend(bincode::serde::encode_to_vec(value, bincode::config::standard())?);
    Ok(out)
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    let (&version, body) = bytes.split_first().ok_or(CodecError::Empty)?;
    let body = migrate(version, body)?;
    let (value, _) = bincode::serde::decode_from_slice(&body, bincode::config::standard())?;
    Ok(value)
}

/// Brings a record body written under `version` up to `SCHEMA_VERSION`. Version 1 is the
/// first; a future version adds an arm that rewrites older bodies.
fn migrate(version: u8, body: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, CodecError> {
    match version {
        SCHEMA_VERSION => Ok(std::borrow::Cow::Borrowed(body)),
        other => Err(CodecError::UnknownVersion(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_behind_a_version_byte() {
        let bytes = encode(&("x".to_owned(), 7u64)).unwrap_or_default();
        assert_eq!(bytes[0], SCHEMA_VERSION);
        let back: (String, u64) = decode(&bytes).unwrap_or_default();
        assert_eq!(back, ("x".to_owned(), 7));
    }

    #[test]
    fn unknown_versions_and_empty_records_are_errors() {
        assert!(matches!(decode::<u64>(&[]), Err(CodecError::Empty)));
        assert!(matches!(decode::<u64>(&[9, 1]), Err(CodecError::UnknownVersion(9))));
    }
}
