//! `GET /v1/enrich`: a `gtms_` key (bearer header, else `?key=`; the header wins when both
//! are sent), the per-key rate limit with `X-RateLimit-*` headers, then the best receipted
//! signal of the company named by `domain` and/or `ticker`.

use std::collections::HashMap;

use serde::Serialize;
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::session::bearer_token;
use crate::auth::AuthError;
use crate::companies::enrich;
use crate::domain::{DomainName, Ticker};
use crate::limits::Decision;
use crate::state::AppState;

const PARAMS: [&str; 4] = ["key", "domain", "ticker", "tenant"];

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("v1" / "enrich")
        .and(warp::get())
        .and(warp::header::optional::<String>("authorization"))
        .and(super::filters::query_once())
        .and(super::filters::client_ip())
        .then(move |auth: Option<String>, query: HashMap<String, String>, client| {
            let state = state.clone();
            async move { enrich_route(state, auth, query, client).await }
        })
}

#[derive(Serialize)]
struct EnrichBody<'a> {
    company: CompanyRef<'a>,
    signal: Signal<'a>,
    tenant: &'a str,
    generated_at: String,
}

#[derive(Serialize)]
struct CompanyRef<'a> {
    account_id: &'a str,
    slug: &'a str,
    legal_name: &'a str,
    ticker: &'a str,
    domain: Option<&'a str>,
}

#[derive(Serialize)]
struct Signal<'a> {
    kind: &'static str,
    text: &'a str,
    receipt: &'a crate::domain::Receipt,
    score: f64,
}

/// The credential the request presents: the Authorization header when there is one.
fn presented_key<'a>(auth: Option<&'a str>, query: &'a HashMap<String, String>) -> Result<&'a str, ApiError> {
    let unauthorized = || ApiError::Unauthorized("missing or invalid API key".into());
    match auth {
        Some(header) => bearer_token(header).map_err(|_| unauthorized()),
        None => query.get("key").map(String::as_str).filter(|k| !k.is_empty()).ok_or_else(unauthorized),
    }
}

async fn enrich_route(
    state: AppState,
    auth: Option<String>,
    query: HashMap<String, String>,
    client: Option<std::net::IpAddr>,
) -> Response {
    let presented = match presented_key(auth.as_deref(), &query) {
        Ok(k) => k,
        Err(e) => return e.to_response(),
    };
    let key = match state.api_keys().verify_from(presented, client).await {
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
    let mut res = if decision.allowed {
        state.api_keys().record_use(&key.id, now as i64);
        match answer(&state, &key.tenant, &query) {
            Ok(res) => res,
            Err(e) => e.to_response(),
        }
    } else {
        ApiError::RateLimited { retry_after: decision.retry_after(now) }.to_response()
    };
    rate_limit_headers(&mut res, &decision);
    res
}

pub fn rate_limit_headers(res: &mut Response, d: &Decision) {
    let h = res.headers_mut();
    h.insert("x-ratelimit-limit", HeaderValue::from(d.limit));
    h.insert("x-ratelimit-remaining", HeaderValue::from(d.remaining));
    h.insert("x-ratelimit-reset", HeaderValue::from(d.reset));
}

fn answer(state: &AppState, key_tenant: &str, query: &HashMap<String, String>) -> Result<Response, ApiError> {
    let mut unknown: Vec<&str> = query.keys().map(String::as_str).filter(|k| !PARAMS.contains(k)).collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        return Err(ApiError::BadRequest(format!("unknown parameter(s): {}", unknown.join(", "))));
    }
    let tenant = match query.get("tenant") {
        Some(t) if t != key_tenant => {
            return Err(ApiError::Forbidden("this key does not belong to that tenant".into()));
        }
        _ => key_tenant,
    };
    let domain = match query.get("domain").filter(|d| !d.trim().is_empty()) {
        Some(d) => Some(DomainName::parse(d).map_err(|e| ApiError::BadRequest(e.to_string()))?),
        None => None,
    };
    let ticker = match query.get("ticker").filter(|t| !t.trim().is_empty()) {
        Some(t) => Some(Ticker::parse(t).map_err(|e| ApiError::BadRequest(e.to_string()))?),
        None => None,
    };
    let directory = state.directory();
    let company = enrich::resolve(directory, domain.as_ref(), ticker.as_ref())?;
    let best = enrich::best_signal(company)?;
    let card = &best.card;
    let body = EnrichBody {
        company: CompanyRef {
            account_id: &card.account_id,
            slug: &card.slug,
            legal_name: &card.legal_name,
            ticker: &card.ticker,
            domain: card.domain.as_deref(),
        },
        signal: Signal {
            kind: best.signal.value().kind.as_str(),
            text: &best.signal.value().text,
            receipt: best.signal.receipt(),
            score: best.score,
        },
        tenant,
        generated_at: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    };
    Ok(warp::reply::json(&body).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::StatusCode;

    #[test]
    fn the_header_wins_over_the_query_and_must_be_bearer() {
        let q: HashMap<String, String> = [("key".to_owned(), "from-query".to_owned())].into();
        assert_eq!(presented_key(Some("Bearer from-header"), &q).ok(), Some("from-header"));
        assert_eq!(presented_key(None, &q).ok(), Some("from-query"));
        assert!(presented_key(Some("Basic abc"), &q).is_err(), "a bad header is not rescued by the query");
        assert!(presented_key(Some("Bearer"), &q).is_err());
        assert!(presented_key(None, &HashMap::new()).is_err());
        assert_eq!(StatusCode::UNAUTHORIZED, ApiError::Unauthorized(String::new()).status());
    }
}
