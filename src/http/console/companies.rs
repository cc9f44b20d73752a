//! `/app/companies`: the company directory searched by name, ticker (any share class) or domain
//! (a bare domain, a URL or an e-mail address), each result linking to `/app/companies/{slug}`:
//! the company's card as `/company/data/{slug}.json` serves it — every why-now signal and every
//! executive with its verbatim sentence, the link to its filing, the filing date and its age
//! by the appliance's clock — and for admins "Add to pipeline", which creates a deal for the
//! company through the same service as `POST /api/deals` (`companySlug` set). Contact data is
//! never shown: the card holds none.

mod view;

use std::sync::Arc;

use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::page;
use super::{Answer, Page, Posted, admin_of, form_fields, form_post, get_page, pending, query_of, signed_in, writer};
use crate::auth::Principal;
use crate::companies::card::Card;
use crate::companies::directory::Directory;
use crate::companies::query;
use crate::deals::{self, DealDraft};
use crate::domain::{DomainName, Ticker};
use crate::http::deals::today;
use crate::http::error::ApiError;
use crate::state::AppState;

use super::deals::DealForm;

pub fn routes(state: AppState) -> Vec<Page> {
    let s = state.clone();
    let search = warp::path!("app" / "companies")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move { search_page(&state, &headers, &here).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let s = state.clone();
    let card = warp::path!("app" / "companies" / String)
        .and(get_page())
        .then(move |slug: String, headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                let who = match signed_in(&state, &headers, &here) {
                    Ok(who) => who,
                    Err(login) => return login,
                };
                match card_of(&state, &who, &slug) {
                    Ok(card) => card_page(&state, &who, &card, view::prefilled(&card), StatusCode::OK).await,
                    Err(missing) => missing,
                }
            }
        })
        .boxed();
    let add = warp::path!("app" / "companies" / String / "deal")
        .and(warp::post())
        .and(form_post())
        .then(move |slug: String, posted: Posted| {
            let state = state.clone();
            async move { add_to_pipeline(&state, &slug, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    vec![search, card, add]
}

/// The card of `slug`, or the console's 404 page.
fn card_of(state: &AppState, who: &Principal, slug: &str) -> Result<Arc<Card>, Answer> {
    let card = state.directory().by_slug(slug).and_then(|company| company.card().cloned());
    card.ok_or_else(|| {
        Answer::refused(
            Some(who),
            StatusCode::NOT_FOUND,
            "There is no company card by that name; search for the company.",
        )
    })
}

/// Cards matching `q`, best first: the company whose ticker (any share class) or domain `q`
/// names, then the name search the API and the MCP `company_search` use.
pub fn find<'a>(dir: &'a Directory, q: &str) -> Vec<&'a Arc<Card>> {
    let by_ticker = Ticker::parse(q).ok().and_then(|t| dir.by_ticker(&t));
    let by_domain = q.contains('.').then(|| DomainName::parse(q).ok().and_then(|d| dir.by_domain(&d))).flatten();
    let mut hits: Vec<&Arc<Card>> = Vec::new();
    for card in [by_ticker, by_domain].into_iter().flatten().filter_map(|c| c.card()) {
        if !hits.iter().any(|h| h.slug == card.slug) {
            hits.push(card);
        }
    }
    let exact = hits.len();
    for card in query::search(dir, q) {
        if !hits[..exact].iter().any(|h| h.slug == card.slug) {
            hits.push(card);
        }
    }
    hits
}

async fn search_page(state: &AppState, headers: &HeaderMap, here: &str) -> Result<Answer, Answer> {
    let who = signed_in(state, headers, here)?;
    let q = query_of(here).get("q").map(|q| q.trim().to_owned()).unwrap_or_default();
    let dir = state.directory();
    let hits = if q.is_empty() { None } else { Some(find(dir, &q)) };
    let main = view::search(dir, &q, hits.as_deref());
    Ok(Answer::ok(page("Companies", Some(&who), pending(state).await, "/app/companies", main)))
}

async fn card_page(state: &AppState, who: &Principal, card: &Card, form: DealForm, status: StatusCode) -> Answer {
    let admin = who.require_admin().is_ok();
    let today = state.clock().utc().date_naive();
    let main = view::card(card, today, admin.then_some(&form));
    Answer::Page(status, page(&card.legal_name, Some(who), pending(state).await, "/app/companies", main))
}

async fn add_to_pipeline(state: &AppState, slug: &str, posted: &Posted) -> Result<Answer, Answer> {
    let back = format!("/app/companies/{slug}");
    let who = writer(state, posted, &back)?;
    let admin = admin_of(&who)?;
    let card = card_of(state, &who, slug)?;
    let values = form_fields(&posted.body)?;
    let cell = |name: &str| values.get(name).map_or("", String::as_str);
    let (status, problems, message) = match DealDraft::from_cells(cell) {
        Err(problems) => (StatusCode::UNPROCESSABLE_ENTITY, problems, None),
        Ok(mut draft) => {
            draft.company_slug = Some(card.slug.clone());
            let known = |slug: &str| state.directory().by_slug(slug).is_some();
            match deals::create(state.store(), admin, draft, today(state), known).await {
                Ok(deal) => return Ok(Answer::SeeOther(format!("/app/deals/{}", deal.summary.id))),
                Err(e) => {
                    let (status, _, message) = ApiError::from(e).public();
                    (status, Vec::new(), Some(message))
                }
            }
        }
    };
    let form = DealForm { problems: problems.into_iter().map(|p| (p.field, p.reason)).collect(), values, message };
    Ok(card_page(state, &who, &card, form, status).await)
}
