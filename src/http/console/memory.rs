//! `/app/memory`: the org/team/worker tree (as `GET /api/memory/tree`), word search (as
//! `GET /api/memory/search`), one entry with its versions, and for admins the edit of an entry
//! through the same service and version check as `POST /api/memory`.
//!
//! An entry's address travels in the query, percent-encoded:
//! `/app/memory/entry?scope=team%3Asales&key=icp.v2`. A key may be `.` or `..`, which a browser
//! folds away as a path segment (even percent-encoded), so a path scheme cannot name every key.
//! An edit carries the version its editor read; when the entry has moved on since, the page
//! answers 409 with both values (yours as typed, theirs as stored, with its version) and a
//! form holding yours and theirs' version, so saving it overwrites knowingly.

mod view;

use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::{
    Answer, Page, Posted, admin_of, form_fields, form_post, get_page, pending, query_of, signed_in, url_encode, writer,
};
use crate::auth::Principal;
use crate::http::error::ApiError;
use crate::memory::{self, MemoryError, WriteRequest};
use crate::state::AppState;

use view::{Conflict, Edit, Search};

pub fn routes(state: AppState) -> Vec<Page> {
    let s = state.clone();
    let tree = warp::path!("app" / "memory")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move { tree_page(&state, &headers, &here).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let s = state.clone();
    let entry = warp::path!("app" / "memory" / "entry")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move { entry_page(&state, &headers, &here).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let edit = warp::path!("app" / "memory" / "entry")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = state.clone();
            async move { edit_entry(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    vec![tree, entry, edit]
}

/// The console address of one entry.
pub fn entry_url(scope: &str, key: &str) -> String {
    format!("/app/memory/entry?scope={}&key={}", url_encode(scope), url_encode(key))
}

fn failed(who: &Principal, error: MemoryError) -> Answer {
    Answer::error(Some(who), &ApiError::from(error))
}

async fn tree_page(state: &AppState, headers: &HeaderMap, here: &str) -> Result<Answer, Answer> {
    let who = signed_in(state, headers, here)?;
    let query = query_of(here);
    let tree = memory::tree(state.store(), &memory::TreePage::default()).map_err(|e| failed(&who, e))?;
    let mut search = Search {
        q: query.get("q").map_or("", |q| q.trim()).to_owned(),
        scope: query.get("scope").cloned().unwrap_or_default(),
        ..Search::default()
    };
    let mut status = StatusCode::OK;
    if !search.q.is_empty() {
        match memory::search(state.store(), &search.q, Some(search.scope.as_str())).await {
            Ok(found) => search.results = Some(found),
            Err(e) => {
                let (code, _, message) = ApiError::from(e).public();
                status = code;
                search.problem = Some(message);
            }
        }
    }
    let main = view::tree(&tree, &search);
    Ok(Answer::Page(status, page("Memory", Some(&who), pending(state).await, "/app/memory", main)))
}

async fn entry_page(state: &AppState, headers: &HeaderMap, here: &str) -> Result<Answer, Answer> {
    let who = signed_in(state, headers, here)?;
    let query = query_of(here);
    let field = |name: &str| query.get(name).map_or("", String::as_str);
    let saved = field("saved").parse::<u64>().ok();
    let entry = memory::get(state.store(), field("scope"), field("key")).await.map_err(|e| failed(&who, e))?;
    let edit = who.require_admin().is_ok().then(|| Edit::of(&entry));
    render_entry(state, &who, entry, edit, saved, StatusCode::OK).await
}

async fn render_entry(
    state: &AppState,
    who: &Principal,
    entry: memory::MemoryEntry,
    edit: Option<Edit>,
    saved: Option<u64>,
    status: StatusCode,
) -> Result<Answer, Answer> {
    let history = memory::history(state.store(), &entry.scope, &entry.key).await.map_err(|e| failed(who, e))?;
    let title = format!("{}/{}", entry.scope, entry.key);
    let main = view::entry(&entry, &history, edit.as_ref(), saved);
    Ok(Answer::Page(status, page(&title, Some(who), pending(state).await, "/app/memory", main)))
}

async fn edit_entry(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let who = writer(state, posted, "/app/memory")?;
    let admin = admin_of(&who)?;
    let fields = form_fields(&posted.body)?;
    let field = |name: &str| fields.get(name).map_or("", String::as_str);
    let (scope, key) = (field("scope").to_owned(), field("key").to_owned());
    // A browser sends a textarea's line breaks as CRLF; the value keeps the LF it was shown with.
    let value = field("value").replace("\r\n", "\n");
    let seen = field("version").trim().parse::<u64>().map_err(|_| {
        Answer::refused(
            Some(&who),
            StatusCode::BAD_REQUEST,
            "The form does not say which version it edits; open the entry again and edit it there.",
        )
    })?;
    let request = WriteRequest {
        scope: scope.clone(),
        key: key.clone(),
        value: value.clone(),
        pinned: None,
        tags: None,
        if_version: Some(seen),
    };
    match memory::write(state.store(), admin, request).await {
        Ok((entry, _)) => {
            Ok(Answer::SeeOther(format!("{}&saved={}", entry_url(&entry.scope, &entry.key), entry.version)))
        }
        Err(MemoryError::Stale { current, .. }) => {
            let theirs = match memory::get(state.store(), &scope, &key).await {
                Ok(entry) => Some(entry),
                Err(MemoryError::NotFound(_)) => None,
                Err(e) => return Err(failed(&who, e)),
            };
            let version = theirs.as_ref().map_or(current, |t| t.version);
            let conflict = Conflict { scope, key, yours: value, seen, theirs, version };
            let title = format!("Conflict: {}/{}", conflict.scope, conflict.key);
            let main = view::conflict(&conflict);
            Ok(Answer::Page(StatusCode::CONFLICT, page(&title, Some(&who), pending(state).await, "/app/memory", main)))
        }
        Err(e @ MemoryError::TooLarge(_)) => {
            let (status, _, message) = ApiError::from(e).public();
            let entry = memory::get(state.store(), &scope, &key).await.map_err(|e| failed(&who, e))?;
            let edit = Edit { value, version: seen, problem: Some(message) };
            render_entry(state, &who, entry, Some(edit), None, status).await
        }
        Err(e) => Err(failed(&who, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_address_survives_every_key_character() {
        let url = entry_url("team:sales", "..");
        assert_eq!(url, "/app/memory/entry?scope=team%3Asales&key=%2E%2E");
        let query = query_of(&url);
        assert_eq!(query.get("scope").map(String::as_str), Some("team:sales"));
        assert_eq!(query.get("key").map(String::as_str), Some(".."));
        assert!(super::super::safe_next(&url).is_some(), "a signed-out visitor comes back to it");
    }
}
