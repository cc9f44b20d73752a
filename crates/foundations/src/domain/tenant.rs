//! `Tenant`: the scope an API key belongs to — lowercase ASCII letters, digits, `-` and `_`,
//! 1 to 64 characters. Serialized as its string, so stored records keep their encoding.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a tenant is 1 to 64 lowercase letters, digits, '-' or '_'")]
pub struct TenantError;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tenant(String);

impl Tenant {
    pub fn parse(input: &str) -> Result<Self, TenantError> {
        let ok = !input.is_empty()
            && input.len() <= 64
            && input.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if ok { Ok(Self(input.to_owned())) } else { Err(TenantError) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Tenant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Tenant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Tenant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        Tenant::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Tenant {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Tenant".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[a-z0-9_-]{1,64}$" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenants_are_short_lowercase_names() {
        for ok in ["acme", "acme-eu_2", &"a".repeat(64)] {
            assert_eq!(Tenant::parse(ok).map(|t| t.to_string()), Ok(ok.to_owned()));
        }
        for bad in ["", "Acme", "acme corp", "acme/eu", &"a".repeat(65)] {
            assert_eq!(Tenant::parse(bad), Err(TenantError), "{bad:?}");
        }
    }
}
