//! Who is calling: the workspace token from `Authorization: Bearer` (which wins when sent) or
//! the `gtms_session` cookie, verified into a `Principal`. Routes declare what they need with
//! `require(state, Role::Viewer | Role::Admin)` after their path filters; the role check lives
//! here and nowhere else. The accept loop verifies a request's token once and hands the result
//! on as the `Authenticated` extension; `require` reads it (and verifies the headers itself
//! only where no accept loop ran: filter tests).

use warp::http::HeaderMap;
use warp::{Filter, Rejection};

use super::error::ApiError;
use crate::auth::sessions::Principal;
use crate::domain::Role;
use crate::state::AppState;

pub const COOKIE: &str = "gtms_session";

/// An `Authorization` header that is not `Bearer <token>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedAuthorization;

/// The token of an `Authorization: Bearer <token>` value (scheme case-insensitive).
pub fn bearer_token(value: &str) -> Result<&str, MalformedAuthorization> {
    let (scheme, token) = value.trim().split_once(' ').ok_or(MalformedAuthorization)?;
    let token = token.trim();
    if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() { Ok(token) } else { Err(MalformedAuthorization) }
}

/// The token a request presents, if any: the Authorization header when sent, else the cookie.
pub fn presented_token(headers: &HeaderMap) -> Result<Option<String>, MalformedAuthorization> {
    match headers.get("authorization") {
        Some(value) => {
            let value = value.to_str().map_err(|_| MalformedAuthorization)?;
            bearer_token(value).map(|t| Some(t.to_owned()))
        }
        None => Ok(cookie(headers, COOKIE)),
    }
}

/// A cookie's value from every `Cookie` header of the request.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// The caller of one request as the accept loop verified it: `Some` for a valid workspace
/// token, `None` for a missing or invalid one (both answer 401 where a route needs one).
#[derive(Debug, Clone)]
pub struct Authenticated(pub Option<Principal>);

/// Whether the accept loop verifies the caller of `path` up front (the routes that take a
/// workspace token, and `/api/*`'s per-user rate limit).
pub fn verified_up_front(path: &str) -> bool {
    path.starts_with("/api/") || path == "/ws"
}

fn unauthorized() -> ApiError {
    ApiError::Unauthorized("sign in: a valid workspace token is required".into())
}

/// The verified caller of a request, from its headers.
pub fn principal_of(state: &AppState, headers: &HeaderMap) -> Result<Principal, ApiError> {
    let token = presented_token(headers).map_err(|_| unauthorized())?.ok_or_else(unauthorized)?;
    state.sessions().authenticate(&token).map_err(|_| unauthorized())
}

/// The caller: the accept loop's verdict when there is one, else the headers, verified here.
pub fn caller(
    state: &AppState,
    authenticated: Option<Authenticated>,
    headers: &HeaderMap,
) -> Result<Principal, ApiError> {
    match authenticated {
        Some(Authenticated(principal)) => principal.ok_or_else(unauthorized),
        None => principal_of(state, headers),
    }
}

/// Whether a request comes from a page of this appliance: its `Origin` names the host the
/// request was sent to (`Host`, or `X-Forwarded-Host` behind a proxy). A browser sends
/// `Origin` with every cross-site and every same-site write; a page elsewhere cannot set it.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let Some((_, authority)) = origin.split_once("://") else {
        return false;
    };
    ["host", "x-forwarded-host"]
        .into_iter()
        .filter_map(|name| headers.get(name).and_then(|v| v.to_str().ok()))
        .any(|host| host.eq_ignore_ascii_case(authority))
}

/// A write that carries only the session cookie must come from this appliance's own pages
/// (`same_origin`): the cookie is sent by the browser on its own, a bearer token is not.
pub fn cookie_write_allowed(method: &warp::http::Method, headers: &HeaderMap) -> bool {
    method.is_safe() || headers.contains_key("authorization") || same_origin(headers)
}

/// The refusal of a cookie-authenticated write from another origin.
pub fn cross_site() -> ApiError {
    ApiError::Forbidden("this write came from another site: sign in on this appliance's own pages".into())
}

/// Passes requests whose caller holds at least `role`: 401 without a valid token, 403 with
/// a token of a lesser role, and 403 for a write authenticated by the cookie alone that does
/// not come from this appliance's pages (`cookie_write_allowed`).
pub fn require(state: AppState, role: Role) -> impl Filter<Extract = (Principal,), Error = Rejection> + Clone {
    warp::ext::optional::<Authenticated>().and(warp::method()).and(warp::header::headers_cloned()).and_then(
        move |authenticated: Option<Authenticated>, method: warp::http::Method, headers: HeaderMap| {
            let state = state.clone();
            async move {
                let principal = caller(&state, authenticated, &headers).map_err(warp::reject::custom)?;
                if !cookie_write_allowed(&method, &headers) {
                    return Err(warp::reject::custom(cross_site()));
                }
                if principal.role.satisfies(role) {
                    Ok(principal)
                } else {
                    Err(warp::reject::custom(ApiError::Forbidden(format!(
                        "this needs the {} role; you are signed in as {}",
                        role.as_str(),
                        principal.role.as_str()
                    ))))
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::HeaderValue;

    #[test]
    fn the_bearer_header_wins_over_the_cookie() {
        let mut h = HeaderMap::new();
        h.insert("cookie", HeaderValue::from_static("a=1; gtms_session=from-cookie"));
        assert_eq!(presented_token(&h), Ok(Some("from-cookie".into())));
        h.insert("authorization", HeaderValue::from_static("Bearer from-header"));
        assert_eq!(presented_token(&h), Ok(Some("from-header".into())));
        h.insert("authorization", HeaderValue::from_static("Basic x"));
        assert_eq!(presented_token(&h), Err(MalformedAuthorization));
        assert_eq!(presented_token(&HeaderMap::new()), Ok(None));
    }

    #[test]
    fn a_cookie_write_needs_this_appliance_as_its_origin() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, HeaderValue::from_static(v));
            }
            h
        };
        let post = warp::http::Method::POST;
        let own = headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000")]);
        assert!(cookie_write_allowed(&post, &own));
        let proxied =
            headers(&[("host", "10.0.0.2"), ("x-forwarded-host", "gtms.example"), ("origin", "https://gtms.example")]);
        assert!(cookie_write_allowed(&post, &proxied));
        for refused in [
            headers(&[("host", "127.0.0.1:3000")]),
            headers(&[("host", "127.0.0.1:3000"), ("origin", "http://evil.example")]),
            headers(&[("host", "127.0.0.1:3000"), ("origin", "null")]),
            headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3001")]),
        ] {
            assert!(!cookie_write_allowed(&post, &refused), "{refused:?}");
        }
        let bearer = headers(&[("host", "127.0.0.1:3000"), ("authorization", "Bearer t")]);
        assert!(cookie_write_allowed(&post, &bearer), "a bearer token is not sent by the browser on its own");
        assert!(cookie_write_allowed(&warp::http::Method::GET, &headers(&[])), "reads are not writes");
    }
}
