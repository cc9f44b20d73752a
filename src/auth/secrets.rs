//! Secrets at rest: argon2id PHC strings and random tokens from the OS generator.
//!
//! argon2 is the one expensive thing an unauthenticated client can make us do, so its work is
//! bounded here: at most `concurrency` hashes run at once (on the blocking pool), at most
//! `queue` more wait for a turn (for at most `wait`), and anything beyond is refused at once
//! with `AuthError::Busy` (503 + `Retry-After`). Each running hash fills a memory arena of its
//! own mapping (`ARENA_CAPACITY`): while callers wait, a finished hash hands its arena to the
//! next; the last one of a burst unmaps it, so an idle server holds none of the 7 MiB of argon2
//! state (a pool that kept one per slot for the life of the process was a quarter of a fresh
//! start's idle RSS, issue 27), and a burst never leaves it in glibc's per-thread heaps (which
//! kept it resident after the blocking threads finished when it was allocated per attempt).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::RngCore;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::AuthError;

/// argon2id cost settings; tests configure lighter ones. The default is one of the settings the
/// OWASP Password Storage Cheat Sheet lists as equal in defence (m=7 MiB, t=5, p=1; beside
/// 19 MiB with t=2), the one that trades RAM for CPU: each concurrent hash holds a third of the
/// memory for about the same time, which keeps idle and hostile-load RSS small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashCost {
    pub memory_kib: u32,
    pub iterations: u32,
}

impl Default for HashCost {
    fn default() -> Self {
        Self { memory_kib: 7 * 1024, iterations: 5 }
    }
}

/// How much argon2 work may be under way or waiting at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashLimits {
    /// Hashes running at once (each holds one memory arena).
    pub concurrency: usize,
    /// Callers that may wait for a free slot; more are refused at once.
    pub queue: usize,
    /// Longest a caller waits for a slot before it is refused.
    pub wait: Duration,
}

impl Default for HashLimits {
    /// As many hashes as cores, 16 waiting per core, 5 s of waiting at most.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        Self { concurrency: cores, queue: cores * 16, wait: Duration::from_secs(5) }
    }
}

/// The largest argon2 memory a stored hash may ask for (256 MiB); a record asking for more
/// is treated as not matching rather than allowed to allocate without bound.
const MAX_BLOCKS: usize = 256 * 1024;
/// An arena's capacity in blocks (1 KiB each): past glibc's largest mmap threshold (32 MiB), so
/// glibc gives it a mapping of its own, unmapped when the arena is dropped, whatever sizes were
/// freed before. Only the blocks a hash uses are ever touched, so only they are resident.
const ARENA_CAPACITY: usize = 32 * 1024 + 1;
const SALT_LEN: usize = 16;
const OUTPUT_LEN: usize = 32;

struct Pool {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    limits: HashLimits,
    /// Arenas handed from a finished hash to a waiting one; never more than
    /// `limits.concurrency` exist, and none once nobody waits.
    arenas: Mutex<Vec<Vec<Block>>>,
    /// Hashes computed since start (verifications included): evidence for tests and metrics.
    runs: AtomicU64,
}

/// The one argon2 engine of the process; clones share its slots and arenas.
#[derive(Clone)]
pub struct Hasher {
    cost: HashCost,
    pool: Arc<Pool>,
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hasher").field("cost", &self.cost).field("limits", &self.pool.limits).finish()
    }
}

impl Hasher {
    pub fn new(cost: HashCost) -> Self {
        Self::with_limits(cost, HashLimits::default())
    }

    pub fn with_limits(cost: HashCost, limits: HashLimits) -> Self {
        let limits = HashLimits { concurrency: limits.concurrency.max(1), ..limits };
        let pool = Pool {
            slots: Arc::new(Semaphore::new(limits.concurrency)),
            waiting: AtomicUsize::new(0),
            limits,
            arenas: Mutex::new(Vec::new()),
            runs: AtomicU64::new(0),
        };
        Self { cost, pool: Arc::new(pool) }
    }

    /// How many argon2 hashes this process has computed (hashing and verifying).
    pub fn runs(&self) -> u64 {
        self.pool.runs.load(Ordering::Relaxed)
    }

    /// Hashes `secret` into a PHC string (salt and parameters included).
    pub async fn hash(&self, secret: String) -> Result<String, AuthError> {
        let params =
            Params::new(self.cost.memory_kib, self.cost.iterations, 1, Some(OUTPUT_LEN)).map_err(hash_error)?;
        let mut salt = [0u8; SALT_LEN];
        rand::rng().fill_bytes(&mut salt);
        let run_params = params.clone();
        let output = self
            .with_arena(move |arena| {
                let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, run_params.clone());
                compute(&argon, &run_params, secret.as_bytes(), &salt, arena)
            })
            .await??;
        phc_string(&params, &salt, &output)
    }

    /// A PHC string with this hasher's parameters, a random salt and a random output: verifying
    /// any secret against it costs exactly one hash and never matches. What a code that names
    /// no invite is checked against (equal timing), made without hashing anything.
    pub fn decoy(&self) -> Result<String, AuthError> {
        let params =
            Params::new(self.cost.memory_kib, self.cost.iterations, 1, Some(OUTPUT_LEN)).map_err(hash_error)?;
        let (mut salt, mut output) = ([0u8; SALT_LEN], [0u8; OUTPUT_LEN]);
        rand::rng().fill_bytes(&mut salt);
        rand::rng().fill_bytes(&mut output);
        phc_string(&params, &salt, &output)
    }

    /// Checks `secret` against a PHC string, with the parameters stored in it. A string that
    /// does not parse (or asks for unbounded memory) simply does not match.
    pub async fn verify(&self, secret: String, phc: String) -> Result<bool, AuthError> {
        let Some(stored) = Stored::parse(&phc) else { return Ok(false) };
        self.with_arena(move |arena| {
            let argon = Argon2::new(stored.algorithm, stored.version, stored.params.clone());
            let computed = compute(&argon, &stored.params, secret.as_bytes(), &stored.salt, arena);
            computed.is_ok_and(|out| constant_time_eq(&out, &stored.expected))
        })
        .await
    }

    /// Runs `work` on the blocking pool with a memory arena, once a slot is free.
    async fn with_arena<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> R + Send + 'static,
    ) -> Result<R, AuthError> {
        let permit = self.pool.admit().await?;
        let pool = Arc::clone(&self.pool);
        tokio::task::spawn_blocking(move || {
            let mut arena = pool.take_arena();
            pool.runs.fetch_add(1, Ordering::Relaxed);
            let result = work(&mut arena);
            pool.put_arena(arena);
            drop(permit);
            result
        })
        .await
        .map_err(hash_error)
    }
}

impl Pool {
    /// A slot for one hash: at once when one is free, after a bounded wait when the queue has
    /// room, otherwise `Busy`.
    async fn admit(&self) -> Result<OwnedSemaphorePermit, AuthError> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.limits.queue {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(AuthError::Busy);
        }
        let waited = tokio::time::timeout(self.limits.wait, Arc::clone(&self.slots).acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        match waited {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(AuthError::Busy),
        }
    }

    fn take_arena(&self) -> Vec<Block> {
        let kept = self.arenas.lock().unwrap_or_else(|p| p.into_inner()).pop();
        kept.unwrap_or_else(|| Vec::with_capacity(ARENA_CAPACITY))
    }

    /// Keeps a finished hash's arena for a caller waiting for a slot; with none waiting it is
    /// dropped (unmapped), and so are the kept ones: the burst is over.
    fn put_arena(&self, arena: Vec<Block>) {
        let mut arenas = self.arenas.lock().unwrap_or_else(|p| p.into_inner());
        if self.waiting.load(Ordering::Acquire) > 0 {
            arenas.push(arena);
        } else {
            arenas.clear();
        }
    }
}

/// The parts of a stored PHC string a verification needs.
struct Stored {
    algorithm: Algorithm,
    version: Version,
    params: Params,
    salt: Vec<u8>,
    expected: Vec<u8>,
}

impl Stored {
    fn parse(phc: &str) -> Option<Stored> {
        let parsed = PasswordHash::new(phc).ok()?;
        let algorithm = Algorithm::try_from(parsed.algorithm.as_str()).ok()?;
        let version = parsed.version.map(Version::try_from).transpose().ok()?.unwrap_or_default();
        let params = Params::try_from(&parsed).ok()?;
        if params.block_count() > MAX_BLOCKS {
            return None;
        }
        let salt = parsed.salt?.as_ref().to_vec();
        let expected = parsed.hash?.as_bytes().to_vec();
        Some(Stored { algorithm, version, params, salt, expected })
    }
}

/// One argon2 computation into `arena`, grown (once) to the size `params` needs.
fn compute(
    argon: &Argon2<'_>,
    params: &Params,
    secret: &[u8],
    salt: &[u8],
    arena: &mut Vec<Block>,
) -> Result<Vec<u8>, AuthError> {
    let blocks = params.block_count();
    if arena.len() < blocks {
        arena.resize(blocks, Block::new());
    }
    let mut out = vec![0u8; params.output_len().unwrap_or(OUTPUT_LEN)];
    argon.hash_password_into_with_memory(secret, salt, &mut out, &mut arena[..blocks]).map_err(hash_error)?;
    Ok(out)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The PHC string of an argon2id output with its parameters and salt.
fn phc_string(params: &Params, salt: &[u8], output: &[u8]) -> Result<String, AuthError> {
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params).map_err(hash_error)?,
        salt: Some(Salt::new(salt).map_err(hash_error)?),
        hash: Some(Output::new(output).map_err(hash_error)?),
    };
    Ok(phc.to_string())
}

fn hash_error(e: impl std::fmt::Display) -> AuthError {
    AuthError::Hash(e.to_string())
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
    use argon2::password_hash::PasswordVerifier;

    const LIGHT: HashCost = HashCost { memory_kib: 64, iterations: 1 };

    #[tokio::test]
    async fn a_hash_verifies_its_secret_only() {
        let hasher = Hasher::new(LIGHT);
        let phc = hasher.hash("s3cret".into()).await.unwrap_or_default();
        assert!(phc.starts_with("$argon2id$"));
        assert!(!phc.contains("s3cret"));
        assert!(hasher.verify("s3cret".into(), phc.clone()).await.unwrap_or(false));
        assert!(!hasher.verify("other".into(), phc).await.unwrap_or(true));
        assert!(!hasher.verify("s3cret".into(), "not a hash".into()).await.unwrap_or(true));
        assert_eq!(hasher.runs(), 3, "an unparsable hash costs no argon2 run");
    }

    #[tokio::test]
    async fn a_decoy_costs_one_verification_and_matches_nothing() {
        let hasher = Hasher::new(LIGHT);
        let decoy = hasher.decoy().unwrap_or_default();
        assert_eq!(hasher.runs(), 0, "making a decoy hashes nothing");
        let real = hasher.hash("x".into()).await.unwrap_or_default();
        assert_eq!(decoy.split('$').nth(3), real.split('$').nth(3), "the same parameters: {decoy} {real}");
        assert!(!hasher.verify("x".into(), decoy).await.unwrap_or(true));
        assert_eq!(hasher.runs(), 2, "one hash, one verification");
    }

    #[tokio::test]
    async fn hashes_interoperate_with_the_argon2_crate() {
        let hasher = Hasher::new(LIGHT);
        let ours = hasher.hash("pw".into()).await.unwrap_or_default();
        let parsed = PasswordHash::new(&ours).expect("parses");
        assert!(Argon2::default().verify_password(b"pw", &parsed).is_ok(), "{ours}");
        let params = Params::new(64, 1, 1, None).expect("params");
        let theirs = argon2::password_hash::PasswordHasher::hash_password(
            &Argon2::new(Algorithm::Argon2id, Version::V0x13, params),
            b"pw",
        )
        .expect("hash")
        .to_string();
        assert!(hasher.verify("pw".into(), theirs).await.unwrap_or(false), "hashes made before this change verify");
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once_and_arenas_stay_bounded() {
        let limits = HashLimits { concurrency: 1, queue: 0, wait: Duration::from_secs(5) };
        let hasher = Hasher::with_limits(LIGHT, limits);
        let held = Arc::clone(&hasher.pool.slots).try_acquire_owned().expect("the only slot");
        assert!(matches!(hasher.hash("x".into()).await, Err(AuthError::Busy)));
        drop(held);
        let phcs = futures_util::future::join_all((0..8).map(|_| hasher.hash("x".into()))).await;
        assert!(phcs.iter().filter(|r| r.is_ok()).count() >= 1);
        assert!(hasher.pool.arenas.lock().map(|a| a.len()).unwrap_or(0) <= 1, "one arena per slot");
    }

    #[tokio::test]
    async fn an_idle_hasher_holds_no_arena() {
        let hasher = Hasher::new(LIGHT);
        let phc = hasher.hash("x".into()).await.unwrap_or_default();
        assert!(hasher.verify("x".into(), phc).await.unwrap_or(false));
        assert_eq!(hasher.pool.arenas.lock().map(|a| a.len()).unwrap_or(1), 0, "nobody waited: dropped");
    }
}
