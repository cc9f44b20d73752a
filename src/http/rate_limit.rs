//! The workspace rate limits, applied in the accept loop ahead of routing so every response
//! under `/auth/` and `/api/` — 404s and 401s included — carries `X-RateLimit-*`:
//! `/auth/*` per client IP, `/api/*` per signed-in user (per IP before login). `/api/health`
//! is exempt: load balancers and the status page poll it.

use std::net::{IpAddr, SocketAddr};

use warp::http::{HeaderMap, HeaderValue};

use crate::auth::Principal;
use crate::limits::{Decision, FixedWindow};
use crate::state::AppState;

/// The client's address: the socket peer, unless that peer is a trusted proxy, in which case
/// the right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
pub fn client_ip(peer: SocketAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer.ip()) {
        return peer.ip();
    }
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    forwarded.iter().rev().find(|ip| !trusted.contains(ip)).or(forwarded.first()).copied().unwrap_or(peer.ip())
}

/// Which limiter and key a request counts against, if any.
fn scope<'a>(
    state: &'a AppState,
    path: &str,
    caller: Option<&Principal>,
    ip: IpAddr,
) -> Option<(&'a FixedWindow, String)> {
    if path.starts_with("/auth/") {
        return Some((state.auth_limiter(), format!("ip:{ip}")));
    }
    if path.starts_with("/api/") && path != "/api/health" {
        let user = caller.map(|p| format!("user:{}", p.sub));
        return Some((state.api_limiter(), user.unwrap_or_else(|| format!("ip:{ip}"))));
    }
    None
}

/// Counts the request of client `ip` (signed in as `caller`, as the accept loop verified it);
/// `None` when no limit applies. Time is the state's clock.
pub fn check(state: &AppState, path: &str, caller: Option<&Principal>, ip: IpAddr) -> Option<(Decision, u64)> {
    let (limiter, key) = scope(state, path, caller, ip)?;
    let now = state.clock().now();
    Some((limiter.check(&key, now), now))
}

pub fn headers(h: &mut HeaderMap, d: &Decision) {
    h.insert("x-ratelimit-limit", HeaderValue::from(d.limit));
    h.insert("x-ratelimit-remaining", HeaderValue::from(d.remaining));
    h.insert("x-ratelimit-reset", HeaderValue::from(d.reset));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", HeaderValue::from_static("203.0.113.9, 10.0.0.2"));
        let proxy: SocketAddr = "10.0.0.1:555".parse().unwrap();
        let trusted: Vec<IpAddr> = vec![
            "10.0.0.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0])),
            "10.0.0.2".parse().unwrap_or(IpAddr::from([0, 0, 0, 0])),
        ];
        assert_eq!(client_ip(proxy, &h, &trusted).to_string(), "203.0.113.9");
        assert_eq!(client_ip(proxy, &h, &[]).to_string(), "10.0.0.1", "untrusted peers are taken at their word");
    }
}
