//! The web console under `/app/` (docs/console.md): server-rendered pages (maud) for a person
//! in a browser, working with JavaScript off (forms post, the server answers 303 to the page or
//! re-renders the form with each field's problem) and made smoother by one small script of our
//! own. Every page and every write is authorised here by the same services the API uses; a
//! write also needs this appliance as its `Origin`. Errors are HTML pages with the status the
//! API would answer (DESIGN.md, "Error envelope": the exception for people).

mod approvals;
mod assets;
mod audit;
mod chat;
mod companies;
mod deals;
mod layout;
mod login;
mod markdown;
mod memory;
mod metrics;
mod workers;

use std::collections::BTreeMap;

use maud::Markup;
use warp::filters::BoxedFilter;
use warp::http::{HeaderMap, HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::text_body;
use super::session::{principal_of, same_origin};
use crate::auth::{AdminProof, Principal};
use crate::state::AppState;

/// The policy of every console page: nothing from elsewhere, no inline script or style.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

/// Largest form body (a pasted CSV import, percent-encoded, fits).
const FORM_BYTES: usize = 3 * crate::deals::IMPORT_BYTES + 64 * 1024;

/// What a console route answers: a page with its status, or a redirect (303, so a form post
/// is followed by a GET).
pub enum Answer {
    Page(StatusCode, Markup),
    SeeOther(String),
    /// A ready response (an asset, or a redirect that also sets the cookie).
    Raw(Box<Response>),
}

impl Answer {
    fn ok(page: Markup) -> Self {
        Answer::Page(StatusCode::OK, page)
    }

    /// An error page for `error`, with the status the API would answer.
    fn error(who: Option<&Principal>, error: &ApiError) -> Self {
        let (status, _, message) = error.public();
        Answer::Page(status, layout::error_page(who, status, &message))
    }

    fn refused(who: Option<&Principal>, status: StatusCode, message: &str) -> Self {
        Answer::Page(status, layout::error_page(who, status, message))
    }
}

impl Reply for Answer {
    fn into_response(self) -> Response {
        let mut res = match self {
            Answer::Page(status, markup) => {
                let mut res = Response::new(markup.into_string().into());
                *res.status_mut() = status;
                res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
                res
            }
            Answer::SeeOther(to) => see_other(&to),
            Answer::Raw(res) => return *res,
        };
        let headers = res.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
        res
    }
}

fn see_other(to: &str) -> Response {
    let mut res = Response::new(Default::default());
    *res.status_mut() = StatusCode::SEE_OTHER;
    let location = HeaderValue::from_str(to).unwrap_or_else(|_| HeaderValue::from_static("/app/"));
    res.headers_mut().insert(header::LOCATION, location);
    res
}

/// A path this console may send a person back to: one of its own pages, nothing else (no
/// `//host`, no backslash, no scheme).
pub fn safe_next(next: &str) -> Option<&str> {
    let ok = next.starts_with("/app/") && !next.contains("//") && !next.contains('\\') && !next.contains(':');
    ok.then_some(next)
}

/// The page a signed-out visitor of `path` is sent to.
fn to_login(path: &str) -> Answer {
    let next = safe_next(path).unwrap_or("/app/deals");
    let encoded: String = url_encode(next);
    Answer::SeeOther(format!("/app/login?next={encoded}"))
}

fn url_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// The signed-in person, or the redirect to the sign-in page.
fn signed_in(state: &AppState, headers: &HeaderMap, path: &str) -> Result<Principal, Answer> {
    principal_of(state, headers).map(|p| p.via(crate::auth::Channel::Console, None)).map_err(|_| to_login(path))
}

/// The signed-in person who may write: signed in, and the form came from this appliance.
/// (The role is the service's to check, as for the API.)
fn writer(state: &AppState, posted: &Posted, back: &str) -> Result<Principal, Answer> {
    let who = signed_in(state, &posted.headers, back)?.via(crate::auth::Channel::Console, posted.client);
    if !same_origin(&posted.headers) {
        return Err(Answer::refused(
            Some(&who),
            StatusCode::FORBIDDEN,
            "This form was sent from another site. Open the console on this appliance and try again.",
        ));
    }
    Ok(who)
}

/// A posted form's fields in order (a name may repeat: checkboxes), or a 400 page.
fn form_pairs(body: &str) -> Result<Vec<(String, String)>, Answer> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(body).map_err(|_| {
        Answer::refused(None, StatusCode::BAD_REQUEST, "The form could not be read; reload the page and try again.")
    })
}

/// A posted form's fields by name (the last value of a repeated name wins), or a 400 page.
fn form_fields(body: &str) -> Result<BTreeMap<String, String>, Answer> {
    form_pairs(body).map(|pairs| pairs.into_iter().collect())
}

/// The signed-in admin behind a form post, or the 403 page that refuses a viewer.
fn admin_of(who: &Principal) -> Result<AdminProof<'_>, Answer> {
    who.require_admin()
        .map_err(|e| Answer::refused(Some(who), StatusCode::FORBIDDEN, &format!("{e}: viewers can look, not change")))
}

/// The query of a page's address (`here`) by name (the last value of a repeated name wins).
fn query_of(here: &str) -> BTreeMap<String, String> {
    let query = here.split_once('?').map_or("", |(_, q)| q);
    serde_urlencoded::from_str::<Vec<(String, String)>>(query).unwrap_or_default().into_iter().collect()
}

/// How many approvals wait, for the navigation (`None` when the workflows cannot be read:
/// the page still renders).
async fn pending(state: &AppState) -> Option<usize> {
    let workflows = state.workflows().ok()?;
    let first = crate::workflows::listing::PageQuery { limit: Some(1), cursor: None };
    workflows.approvals(&first).await.ok().map(|list| list.total)
}

/// The path and query of a request, for `next`.
fn here(path: &warp::path::FullPath, query: &str) -> String {
    if query.is_empty() { path.as_str().to_owned() } else { format!("{}?{query}", path.as_str()) }
}

/// One console route, boxed: every route answers an `Answer`, so the routes combine into one
/// flat filter instead of a type nested once per route (which the compiler would build, and
/// instantiate, for each).
type Page = BoxedFilter<(Answer,)>;

/// A GET page: the request's headers and where it was made (path and query).
fn get_page() -> BoxedFilter<(HeaderMap, String)> {
    warp::get()
        .or(warp::head())
        .unify()
        .and(warp::header::headers_cloned())
        .and(warp::path::full())
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .map(|headers, path: warp::path::FullPath, query: String| (headers, here(&path, &query)))
        .untuple_one()
        .boxed()
}

/// A form post: its headers, its body (`application/x-www-form-urlencoded`, at most
/// `FORM_BYTES`) and the client's address (behind a trusted proxy, the one it forwards), which
/// the audit log records as `from`.
pub(super) struct Posted {
    pub headers: HeaderMap,
    pub body: String,
    pub client: Option<std::net::IpAddr>,
}

/// A form post (the method filter is the route's own).
fn form_post() -> BoxedFilter<(Posted,)> {
    warp::header::headers_cloned()
        .and(text_body("application/x-www-form-urlencoded", FORM_BYTES))
        .and(crate::http::filters::client_ip())
        .map(|headers, body, client| Posted { headers, body, client })
        .boxed()
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let home = warp::path!("app")
        .and(get_page())
        .map({
            let state = state.clone();
            move |headers: HeaderMap, _here: String| match signed_in(&state, &headers, "/app/deals") {
                Ok(_) => Answer::SeeOther("/app/deals".into()),
                Err(login) => login,
            }
        })
        .boxed();
    let pages = assets::routes()
        .into_iter()
        .chain(login::routes(state.clone()))
        .chain(chat::routes(state.clone()))
        .chain(workers::routes(state.clone()))
        .chain(approvals::routes(state.clone()))
        .chain(audit::routes(state.clone()))
        .chain(deals::routes(state.clone()))
        .chain(memory::routes(state.clone()))
        .chain(metrics::routes(state.clone()))
        .chain(companies::routes(state));
    pages.fold(home, |all, next| all.or(next).unify().boxed())
}
