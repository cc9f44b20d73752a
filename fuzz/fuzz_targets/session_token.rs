//! The session path of every workspace request: `Authorization` and `Cookie` header values
//! -> `presented_token` (bearer scheme, cookie list) -> `Sessions::authenticate` (JWT decode,
//! HS256 only, issuer, expiry, invite state). Never panics, and nothing the fuzzer makes
//! without the signing secret is accepted.
#![no_main]

use std::sync::OnceLock;

use gtms::auth::guard::{AttemptGuard, AttemptLimits};
use gtms::auth::secrets::{HashCost, Hasher};
use gtms::auth::sessions::Sessions;
use gtms::http::session::{cookie, presented_token, COOKIE};
use http::{HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

fn sessions() -> &'static Sessions {
    static SESSIONS: OnceLock<Sessions> = OnceLock::new();
    SESSIONS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gtms-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let store = gtms::store::Store::open(&dir.join("fuzz.redb")).expect("store");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let hasher = Hasher::new(HashCost { memory_kib: 8, iterations: 1 });
        let limits = AttemptLimits { per_ip: 10, per_credential: 10, window_secs: 60 };
        let guard = AttemptGuard::new(limits, std::sync::Arc::new(gtms::limits::SystemClock));
        runtime.block_on(Sessions::load(store, hasher, None, guard)).expect("sessions")
    })
}

fuzz_target!(|data: &[u8]| {
    let (authorization, cookies) = match data.iter().position(|&b| b == 0) {
        Some(i) => (Some(&data[..i]), &data[i + 1..]),
        None => (None, data),
    };
    let mut headers = HeaderMap::new();
    if let Some(value) = authorization.and_then(|a| HeaderValue::from_bytes(a).ok()) {
        headers.insert("authorization", value);
    }
    if let Ok(value) = HeaderValue::from_bytes(cookies) {
        headers.insert("cookie", value);
    }
    let _ = cookie(&headers, COOKIE);
    if let Ok(Some(token)) = presented_token(&headers) {
        assert!(!token.is_empty());
        assert!(sessions().authenticate(&token).is_err(), "a forged token was accepted: {token:?}");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        assert!(sessions().authenticate(text).is_err());
    }
});
