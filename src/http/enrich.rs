//! `GET /v1/enrich`: a `gtms_` key (bearer header, else `?key=`; the header wins when both
//! are sent), the failed-attempt guard and the per-key rate limit with `X-RateLimit-*`
//! headers, then the enrichment service's answer for the company named by `domain` and/or
//! `ticker`, optionally only a signal at most `max_age_days` old. The query is one typed
//! struct: unknown or repeated parameters are 400.

use std::net::IpAddr;

use serde::Deserialize;
use warp::http::header::AUTHORIZATION;
use warp::http::{HeaderMap, HeaderValue};
use warp::reply::Response;

use super::error::ApiError;
use super::query::parse_query;
use super::session::bearer_token;
use crate::auth::AuthError;
use crate::companies::enrich;
use crate::domain::{DomainName, Tenant, Ticker};
use crate::limits::Decision;
use crate::state::AppState;

/// The query string of `/v1/enrich`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnrichQuery {
    /// A `gtms_` API key, when no `Authorization` header is sent.
    key: Option<String>,
    /// The company's web domain (scheme, `www.`, port, path and case are ignored).
    domain: Option<String>,
    /// The company's ticker; with `domain`, both must name the same company.
    ticker: Option<String>,
    /// Defaults to the key's tenant; naming another is 403.
    tenant: Option<String>,
    /// Only a signal at most this many days old on the day of the request (its `age_days`);
    /// none that fresh is 404 `no_signal`.
    max_age_days: Option<u32>,
}

/// Whether a request is the enrichment route's (served by `server::Router` directly, beside
/// the keyless files: it is the keyed hot path, and warp's filters took about 5 of its 38 µs of
/// server CPU per request — docs/decisions.md).
pub fn owns(path: &str) -> bool {
    path == "/v1/enrich"
}

/// Answers `GET /v1/enrich` (the router refused other methods, and serves `HEAD` as `GET`): the
/// query is checked first (400 names the problem), then the key, as every route does.
pub async fn respond(state: &AppState, headers: &HeaderMap, raw_query: Option<&str>, client: IpAddr) -> Response {
    let query = match parse_query::<EnrichQuery>(raw_query.unwrap_or_default()) {
        Ok(query) => query,
        Err(e) => return e.to_response(),
    };
    let auth = match headers.get(AUTHORIZATION).map(HeaderValue::to_str).transpose() {
        Ok(auth) => auth,
        Err(_) => return ApiError::BadRequest("Invalid request header \"authorization\"".into()).to_response(),
    };
    enrich_route(state, auth, query, client).await
}

/// The credential the request presents: the Authorization header when there is one.
fn presented_key<'a>(auth: Option<&'a str>, query: &'a EnrichQuery) -> Result<&'a str, ApiError> {
    let unauthorized = || ApiError::Unauthorized("missing or invalid API key".into());
    match auth {
        Some(header) => bearer_token(header).map_err(|_| unauthorized()),
        None => query.key.as_deref().filter(|k| !k.is_empty()).ok_or_else(unauthorized),
    }
}

async fn enrich_route(state: &AppState, auth: Option<&str>, query: EnrichQuery, client: IpAddr) -> Response {
    let presented = match presented_key(auth, &query) {
        Ok(k) => k,
        Err(e) => return e.to_response(),
    };
    let key = match state.api_keys().verify_from(presented, Some(client)).await {
        Ok(key) => key,
        Err(AuthError::InvalidCredentials) => {
            return ApiError::Unauthorized("missing or invalid API key".into()).to_response();
        }
        Err(AuthError::TooManyAttempts { decision, retry_after }) => {
            let mut res = ApiError::RateLimited { retry_after }.to_response();
            rate_limit_headers(&mut res, &decision);
            return res;
        }
        Err(e) => return ApiError::from(e).to_response(),
    };
    let now = state.clock().now();
    let decision = state.enrich_limiter().check(&key.id, now);
    let tenant = key.tenant.to_string();
    let (mut res, outcome) = if decision.allowed {
        state.api_keys().record_use(&key.id, now as i64);
        match answer(state, key.tenant, &query) {
            Ok(res) => (res, "ok"),
            Err(e) => (e.to_response(), e.code()),
        }
    } else {
        (ApiError::RateLimited { retry_after: decision.retry_after(now) }.to_response(), "rate_limited")
    };
    crate::prometheus::enrich_call(&tenant, outcome);
    rate_limit_headers(&mut res, &decision);
    res
}

pub fn rate_limit_headers(res: &mut Response, d: &Decision) {
    let h = res.headers_mut();
    h.insert("x-ratelimit-limit", HeaderValue::from(d.limit));
    h.insert("x-ratelimit-remaining", HeaderValue::from(d.remaining));
    h.insert("x-ratelimit-reset", HeaderValue::from(d.reset));
}

fn answer(state: &AppState, key_tenant: Tenant, query: &EnrichQuery) -> Result<Response, ApiError> {
    if let Some(named) = &query.tenant {
        let named = Tenant::parse(named).map_err(|e| ApiError::BadRequest(format!("tenant: {e}")))?;
        if named != key_tenant {
            return Err(ApiError::Forbidden("this key does not belong to that tenant".into()));
        }
    }
    let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
    let domain = nonempty(&query.domain).map(|d| DomainName::parse(&d)).transpose();
    let domain = domain.map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let ticker = nonempty(&query.ticker).map(|t| Ticker::parse(&t)).transpose();
    let ticker = ticker.map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let now = state.clock().utc();
    let asked =
        enrich::EnrichQuery { domain: domain.as_ref(), ticker: ticker.as_ref(), max_age_days: query.max_age_days };
    let body = enrich::enrich_json(state.directory(), asked, Some(key_tenant), now)?;
    let mut res = Response::new(body.into());
    res.headers_mut().insert(warp::http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::StatusCode;

    #[test]
    fn the_header_wins_over_the_query_and_must_be_bearer() {
        let q = EnrichQuery { key: Some("from-query".into()), ..EnrichQuery::default() };
        assert_eq!(presented_key(Some("Bearer from-header"), &q).ok(), Some("from-header"));
        assert_eq!(presented_key(None, &q).ok(), Some("from-query"));
        assert!(presented_key(Some("Basic abc"), &q).is_err(), "a bad header is not rescued by the query");
        assert!(presented_key(Some("Bearer"), &q).is_err());
        assert!(presented_key(None, &EnrichQuery::default()).is_err());
        assert_eq!(StatusCode::UNAUTHORIZED, ApiError::Unauthorized(String::new()).status());
    }
}
