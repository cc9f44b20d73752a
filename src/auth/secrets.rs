//! Secrets at rest: argon2id PHC strings, computed and checked on the blocking pool (a hash
//! costs ~50 ms in release builds), and random tokens from the OS generator.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::RngCore;

use super::AuthError;

/// argon2id cost settings (OWASP's minimum by default; tests configure lighter ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashCost {
    pub memory_kib: u32,
    pub iterations: u32,
}

impl Default for HashCost {
    fn default() -> Self {
        Self { memory_kib: 19 * 1024, iterations: 2 }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Hasher {
    cost: HashCost,
}

impl Hasher {
    pub fn new(cost: HashCost) -> Self {
        Self { cost }
    }

    /// Hashes `secret` into a PHC string (salt and parameters included).
    pub async fn hash(&self, secret: String) -> Result<String, AuthError> {
        let cost = self.cost;
        tokio::task::spawn_blocking(move || {
            let params =
                Params::new(cost.memory_kib, cost.iterations, 1, None).map_err(|e| AuthError::Hash(e.to_string()))?;
            let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
            argon.hash_password(secret.as_bytes()).map(|h| h.to_string()).map_err(|e| AuthError::Hash(e.to_string()))
        })
        .await
        .map_err(|e| AuthError::Hash(e.to_string()))?
    }

    /// Checks `secret` against a PHC string, with the parameters stored in it.
    pub async fn verify(&self, secret: String, phc: String) -> Result<bool, AuthError> {
        tokio::task::spawn_blocking(move || {
            let Ok(parsed) = PasswordHash::new(&phc) else { return false };
            Argon2::default().verify_password(secret.as_bytes(), &parsed).is_ok()
        })
        .await
        .map_err(|e| AuthError::Hash(e.to_string()))
    }
}

/// `n` random bytes from the OS generator, hex encoded.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_secret_only() {
        let hasher = Hasher::new(HashCost { memory_kib: 64, iterations: 1 });
        let phc = hasher.hash("s3cret".into()).await.unwrap_or_default();
        assert!(phc.starts_with("$argon2id$"));
        assert!(!phc.contains("s3cret"));
        assert!(hasher.verify("s3cret".into(), phc.clone()).await.unwrap_or(false));
        assert!(!hasher.verify("other".into(), phc).await.unwrap_or(true));
        assert!(!hasher.verify("s3cret".into(), "not a hash".into()).await.unwrap_or(true));
    }
}
