//! `POST /auth/login {inviteCode}` -> `{token, role}` plus the `gtms_session` cookie
//! (HttpOnly, SameSite=Strict, Path=/, 12 h; Secure over TLS or when configured), and
//! `POST /auth/logout`, which clears it.

use serde::{Deserialize, Serialize};
use warp::http::{HeaderValue, header};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::session::COOKIE;
use crate::auth::AuthError;
use crate::auth::sessions::SESSION_SECS;
use crate::domain::Role;
use crate::state::AppState;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct LoginRequest {
    /// The code `gtms invites create` printed.
    invite_code: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct LoginReply {
    /// A JWT for `Authorization: Bearer`; the same value is set as the `gtms_session` cookie.
    token: String,
    role: Role,
}

/// The answer of `POST /auth/logout`.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct SignedOut {
    status: &'static str,
    message: &'static str,
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let login_state = state.clone();
    let login = warp::path!("auth" / "login").and(warp::post()).and(json_body::<LoginRequest>()).and_then(
        move |body: LoginRequest| {
            let state = login_state.clone();
            async move { login(state, body).await.map_err(warp::reject::custom) }
        },
    );
    let logout = warp::path!("auth" / "logout").and(warp::post()).map(move || {
        let mut res = warp::reply::json(&SignedOut { status: "ok", message: "signed out" }).into_response();
        set_cookie(&mut res, "", 0, secure_cookies(&state));
        res
    });
    login.or(logout)
}

pub(super) fn secure_cookies(state: &AppState) -> bool {
    state.config().tls.is_some() || state.config().secure_cookies
}

async fn login(state: AppState, body: LoginRequest) -> Result<Response, ApiError> {
    let now = state.clock().now_secs();
    let (token, role) = state.sessions().login(body.invite_code.trim(), now).await.map_err(|e| match e {
        AuthError::InvalidCredentials => ApiError::Unauthorized("that invite code is not valid".into()),
        other => other.into(),
    })?;
    let mut res = warp::reply::json(&LoginReply { token: token.clone(), role }).into_response();
    set_cookie(&mut res, &token, SESSION_SECS, secure_cookies(&state));
    Ok(res)
}

pub(super) fn set_cookie(res: &mut Response, value: &str, max_age: i64, secure: bool) {
    let secure = if secure { "; Secure" } else { "" };
    let cookie = format!("{COOKIE}={value}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}{secure}");
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
}
