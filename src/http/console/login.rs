//! `/app/login`: sign in with an invite code (the same session cookie `/auth/login` sets,
//! `SameSite=Strict`), then on to `next`; `/app/logout` clears the cookie.

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::{Answer, Page, Posted, form_fields, form_post, get_page, layout, query_of, safe_next};
use crate::auth::AuthError;
use crate::auth::sessions::SESSION_SECS;
use crate::http::error::ApiError;
use crate::http::login::{secure_cookies, set_cookie};
use crate::state::AppState;

/// The `next` of a sign-in page's address (`/app/login?next=/app/deals`), when it is safe.
fn next_of(here: &str) -> String {
    query_of(here)
        .get("next")
        .and_then(|next| safe_next(next).map(str::to_owned))
        .unwrap_or_else(|| "/app/deals".to_owned())
}

fn form(next: &str, problem: Option<&str>) -> Markup {
    let main = html! {
        h1 { "Sign in" }
        p { "Sign in with the invite code an admin gave you (the first start of the appliance prints the admin's)." }
        form.card method="post" action="/app/login" {
            input type="hidden" name="next" value=(next);
            label for="invite-code" { "Invite code" }
            @if let Some(problem) = problem {
                input #invite-code type="password" name="inviteCode" required autocomplete="off" aria-invalid="true"
                    aria-describedby="invite-code-error";
                span.field-error #invite-code-error role="alert" { (problem) }
            } @else {
                input #invite-code type="password" name="inviteCode" required autocomplete="off";
            }
            button type="submit" { "Sign in" }
        }
    };
    layout::page("Sign in", None, None, "", main)
}

pub fn routes(state: AppState) -> [Page; 3] {
    let show = warp::path!("app" / "login")
        .and(get_page())
        .map(|_headers: HeaderMap, here: String| Answer::ok(form(&next_of(&here), None)))
        .boxed();
    let s = state.clone();
    let submit = warp::path!("app" / "login")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = s.clone();
            async move { sign_in(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let logout = warp::path!("app" / "logout")
        .and(warp::post())
        .map(move || {
            let mut res = super::see_other("/app/login");
            set_cookie(&mut res, "", 0, secure_cookies(&state));
            Answer::Raw(Box::new(res))
        })
        .boxed();
    [show, submit, logout]
}

async fn sign_in(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let fields = form_fields(&posted.body)?;
    let next = fields.get("next").and_then(|n| safe_next(n)).unwrap_or("/app/deals").to_owned();
    if !super::same_origin(&posted.headers) {
        return Err(Answer::Page(
            StatusCode::FORBIDDEN,
            form(&next, Some("This sign-in form was sent from another site; use this one.")),
        ));
    }
    let code = fields.get("inviteCode").map(|c| c.trim()).unwrap_or_default();
    let now = state.clock().now_secs();
    match state.sessions().login(code, now).await {
        Ok((token, _role)) => {
            let mut res = super::see_other(&next);
            set_cookie(&mut res, &token, SESSION_SECS, secure_cookies(state));
            Ok(Answer::Raw(Box::new(res)))
        }
        Err(AuthError::InvalidCredentials) => {
            Err(Answer::Page(StatusCode::UNAUTHORIZED, form(&next, Some("That invite code is not valid."))))
        }
        Err(other) => {
            let (status, _, message) = ApiError::from(other).public();
            Err(Answer::Page(status, form(&next, Some(&message))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_is_only_ever_a_console_page() {
        assert_eq!(next_of("/app/login?next=%2Fapp%2Fdeals%3Fstage%3Dproposal"), "/app/deals?stage=proposal");
        for hostile in ["https://evil.example/app/", "//evil.example", "/app/..\\x", "/status", "/app//evil", ""] {
            let here = format!("/app/login?next={}", super::super::url_encode(hostile));
            assert_eq!(next_of(&here), "/app/deals", "{hostile}");
        }
    }
}
