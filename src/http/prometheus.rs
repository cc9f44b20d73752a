//! `GET /metrics`: the Prometheus exposition text. A scrape presents an admin workspace token
//! (bearer or cookie) or the configured `metrics_token` as bearer; nothing → 401, a viewer's
//! token → 403. The token is compared in constant time (over SHA-256 digests, so its length
//! does not leak either).

use sha2::{Digest, Sha256};
use warp::http::{HeaderMap, HeaderValue};
use warp::{Filter, Rejection, Reply};

use super::api_doc::EXPOSITION;
use super::error::ApiError;
use super::session::{bearer_token, principal_of};
use crate::domain::Role;
use crate::state::AppState;

/// Equality of two secrets in time independent of where they differ.
fn same_secret(presented: &str, expected: &str) -> bool {
    let (a, b) = (Sha256::digest(presented.as_bytes()), Sha256::digest(expected.as_bytes()));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether the request may scrape: the metrics token, else an admin principal.
fn authorize(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    if let Some(expected) = &state.config().metrics_token {
        let presented = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| bearer_token(v).ok());
        if presented.is_some_and(|p| same_secret(p, expected.expose())) {
            return Ok(());
        }
    }
    let principal = principal_of(state, headers)
        .map_err(|_| ApiError::Unauthorized("an admin token or the metrics token is required".into()))?;
    if principal.role.satisfies(Role::Admin) {
        Ok(())
    } else {
        Err(ApiError::Forbidden("metrics need the admin role or the metrics token".into()))
    }
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("metrics").and(warp::get()).and(warp::header::headers_cloned()).then(move |headers: HeaderMap| {
        let state = state.clone();
        async move { scrape(&state, &headers).await }
    })
}

async fn scrape(state: &AppState, headers: &HeaderMap) -> warp::reply::Response {
    if let Err(e) = authorize(state, headers) {
        return e.to_response();
    }
    if let Ok(workflows) = state.workflows() {
        match workflows.counts().await {
            Ok(counts) => {
                for ((kind, status), count) in counts {
                    crate::prometheus::set_workflows(kind.as_str(), status.as_str(), count);
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not count workflows for a scrape"),
        }
    }
    let budgets = crate::budgets::list_all(state.store(), &state.config().budgets).await.ok();
    for b in budgets.map(|l| l.budgets).unwrap_or_default() {
        let (scope, worker) = (b.scope.as_str(), b.worker.as_deref().unwrap_or_default());
        crate::prometheus::set_budget(scope, worker, "day", b.daily_tokens, b.spent_today);
        crate::prometheus::set_budget(scope, worker, "month", b.monthly_tokens, b.spent_this_month);
    }
    let text = crate::prometheus::render(&state.config().data, state.uptime_secs());
    let mut res = warp::reply::Response::new(text.into());
    res.headers_mut().insert("content-type", HeaderValue::from_static(EXPOSITION));
    res.headers_mut().insert("cache-control", HeaderValue::from_static("no-store"));
    res
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn secrets_compare_equal_only_when_identical() {
        assert!(same_secret("a-metrics-token-value", "a-metrics-token-value"));
        assert!(!same_secret("a-metrics-token-value", "a-metrics-token-valuE"));
        assert!(!same_secret("", "a-metrics-token-value"));
    }
}
