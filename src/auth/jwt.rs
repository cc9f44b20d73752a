//! HS256 JSON Web Tokens (RFC 7519, RFC 7515's compact form): what the workspace sessions sign
//! and verify, and nothing else. The header must say `"alg": "HS256"` (`none` and every other
//! algorithm are refused before anything is trusted); the signature is checked in constant
//! time before the payload is read; base64url without padding, as the RFC writes it, is the
//! only encoding read. Claims and their meaning (issuer, expiry on the store's clock) are the
//! caller's. The test suite checks these tokens against an independent implementation
//! (the `jsonwebtoken` crate signs what this verifies).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Why a token does not verify. Callers answer all of them the same way (no oracle).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwtError {
    #[error("not three base64url parts")]
    Malformed,
    #[error("the header does not name HS256")]
    Algorithm,
    #[error("the signature does not verify")]
    Signature,
    #[error("the claims cannot be read: {0}")]
    Claims(String),
}

#[derive(Serialize, serde::Deserialize)]
struct JoseHeader {
    alg: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    typ: Option<String>,
}

/// A signing key: HMAC-SHA-256 keyed once with the secret.
pub struct Hs256 {
    keyed: HmacSha256,
}

impl Hs256 {
    pub fn new(secret: &[u8]) -> Self {
        // HMAC takes a key of any length (a longer one is hashed first), so this cannot fail.
        let keyed = HmacSha256::new_from_slice(secret).unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        Self { keyed }
    }

    fn mac(&self) -> HmacSha256 {
        self.keyed.clone()
    }

    /// `header.payload.signature` for `claims`.
    pub fn sign<T: Serialize>(&self, claims: &T) -> Result<String, JwtError> {
        let header = JoseHeader { alg: "HS256".into(), typ: Some("JWT".into()) };
        let header = serde_json::to_vec(&header).map_err(|e| JwtError::Claims(e.to_string()))?;
        let claims = serde_json::to_vec(claims).map_err(|e| JwtError::Claims(e.to_string()))?;
        let signing_input = format!("{}.{}", URL_SAFE_NO_PAD.encode(header), URL_SAFE_NO_PAD.encode(claims));
        let mut mac = self.mac();
        mac.update(signing_input.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        Ok(format!("{signing_input}.{signature}"))
    }

    /// The claims of a token this key signed with HS256.
    pub fn verify<T: DeserializeOwned>(&self, token: &str) -> Result<T, JwtError> {
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(JwtError::Malformed);
        };
        let decode = |part: &str| URL_SAFE_NO_PAD.decode(part).map_err(|_| JwtError::Malformed);
        let jose: JoseHeader = serde_json::from_slice(&decode(header)?).map_err(|_| JwtError::Malformed)?;
        if jose.alg != "HS256" {
            return Err(JwtError::Algorithm);
        }
        let mut mac = self.mac();
        mac.update(&token.as_bytes()[..header.len() + 1 + payload.len()]);
        mac.verify_slice(&decode(signature)?).map_err(|_| JwtError::Signature)?;
        serde_json::from_slice(&decode(payload)?).map_err(|e| JwtError::Claims(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn key() -> Hs256 {
        Hs256::new(b"a-test-secret-of-some-length")
    }

    #[test]
    fn a_signed_token_verifies_and_any_change_does_not() {
        let token = key().sign(&json!({ "sub": "abc", "exp": 5 })).expect("sign");
        assert_eq!(key().verify::<Value>(&token), Ok(json!({ "sub": "abc", "exp": 5 })));
        assert_eq!(Hs256::new(b"another").verify::<Value>(&token), Err(JwtError::Signature));
        let (head, _) = token.rsplit_once('.').expect("three parts");
        let forged_payload = URL_SAFE_NO_PAD.encode(br#"{"sub":"admin","exp":5}"#);
        let parts: Vec<&str> = token.split('.').collect();
        let swapped = format!("{}.{forged_payload}.{}", parts[0], parts[2]);
        assert_eq!(key().verify::<Value>(&swapped), Err(JwtError::Signature));
        assert_eq!(key().verify::<Value>(&format!("{head}.")), Err(JwtError::Signature));
        assert_eq!(key().verify::<Value>(&format!("{token}.x")), Err(JwtError::Malformed));
        assert_eq!(key().verify::<Value>(&format!("{token}=")), Err(JwtError::Malformed), "no padding");
    }

    #[test]
    fn alg_none_and_other_algorithms_are_refused() {
        let claims = URL_SAFE_NO_PAD.encode(br#"{"sub":"admin"}"#);
        for alg in ["none", "HS512", "RS256", "hs256"] {
            let header = URL_SAFE_NO_PAD.encode(format!(r#"{{"alg":"{alg}","typ":"JWT"}}"#));
            assert_eq!(key().verify::<Value>(&format!("{header}.{claims}.")), Err(JwtError::Algorithm), "{alg}");
        }
    }
}
