//! `/api/deals`: list (filters `stage`, `type`, `rep`; pages by `limit` and `cursor`),
//! `summary/pipeline`, detail, the CSV
//! export, and the admin writes: PATCH, create (`POST /api/deals`) and the CSV import.

use warp::http::{HeaderValue, StatusCode, header};
use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::{json_body, text_body};
use super::query::typed_query;
use super::session::require;
use crate::auth::Principal;
use crate::deals::{self, DealFilter, DealSummary, DealUpdate, NewDeal};
use crate::domain::paging::page_size;
use crate::domain::{CalendarDate, Role};
use crate::state::AppState;

const CSV: &str = "text/csv; charset=utf-8";

/// The query of `POST /api/deals/import`.
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ImportQuery {
    /// Check everything and answer what would be written, writing nothing.
    #[serde(default)]
    dry_run: bool,
}

pub(super) fn today(state: &AppState) -> CalendarDate {
    CalendarDate::from_naive(state.clock().utc().date_naive())
}

/// The answer of `GET /api/deals`: one page, and how many deals match in all.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DealList {
    deals: Vec<DealSummary>,
    /// Every matching deal, on this page or not.
    total: usize,
    /// The `cursor` of the next page; absent on the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

/// The query of `GET /api/deals`: the filters, and the page (`limit`, `cursor`).
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DealListQuery {
    stage: Option<crate::domain::Stage>,
    #[serde(rename = "type")]
    deal_type: Option<crate::domain::DealType>,
    /// A rep's name, exactly as deals carry it.
    rep: Option<String>,
    /// Deals per page, 1 to 1,000 (default 100).
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<usize>,
    /// The `nextCursor` of the previous page.
    cursor: Option<String>,
}

impl DealListQuery {
    /// The page this query asks for, from the deal index, or why it cannot be asked.
    fn page(self, store: &crate::store::Store) -> Result<DealList, ApiError> {
        let limit = page_size(self.limit, "deals").map_err(ApiError::BadRequest)?;
        let filter = DealFilter { stage: self.stage, deal_type: self.deal_type, rep: self.rep };
        let found = deals::page(store, &filter, self.cursor.as_deref(), limit);
        let total = usize::try_from(found.total).unwrap_or(usize::MAX);
        Ok(DealList { deals: found.deals, total, next_cursor: found.next })
    }
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let s = state.clone();
    let list = warp::path!("api" / "deals")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<DealListQuery>())
        .and_then(move |_, query: DealListQuery| {
            let state = s.clone();
            async move { Ok::<_, Rejection>(warp::reply::json(&query.page(state.store())?)) }
        });
    let s = state.clone();
    let summary = warp::path!("api" / "deals" / "summary" / "pipeline")
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |_| {
            let state = s.clone();
            async move { Ok::<_, Rejection>(warp::reply::json(&deals::summary(state.store()))) }
        });
    let s = state.clone();
    let detail = warp::path!("api" / "deals" / String)
        .and(warp::get())
        .and(require(state.clone(), Role::Viewer))
        .and_then(move |id: String, _| {
            let state = s.clone();
            async move {
                let deal = deals::get(state.store(), &id).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&deal))
            }
        });
    let s = state.clone();
    let patch = warp::path!("api" / "deals" / String)
        .and(warp::patch())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<DealUpdate>())
        .and_then(move |id: String, caller: Principal, update: DealUpdate| {
            let state = s.clone();
            async move {
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let deal =
                    deals::update(state.store(), admin, &id, update, today(&state)).await.map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&deal))
            }
        });
    let s = state.clone();
    let create = warp::path!("api" / "deals")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(json_body::<NewDeal>())
        .and_then(move |caller: Principal, new: NewDeal| {
            let state = s.clone();
            async move {
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let draft = new.draft().map_err(|p| ApiError::from(deals::DealError::from(p)))?;
                let known = |slug: &str| state.directory().by_slug(slug).is_some();
                let deal =
                    deals::create(state.store(), admin, draft, today(&state), known).await.map_err(ApiError::from)?;
                let location = HeaderValue::from_str(&format!("/api/deals/{}", deal.summary.id))
                    .map_err(|_| ApiError::BadRequest("unusable deal id".into()))?;
                let reply = warp::reply::with_status(warp::reply::json(&deal), StatusCode::CREATED);
                Ok::<_, Rejection>(warp::reply::with_header(reply, header::LOCATION, location))
            }
        });
    let s = state.clone();
    let import = warp::path!("api" / "deals" / "import")
        .and(warp::post())
        .and(require(state.clone(), Role::Viewer))
        .and(typed_query::<ImportQuery>())
        .and(text_body("text/csv", deals::IMPORT_BYTES))
        .and_then(move |caller: Principal, query: ImportQuery, text: String| {
            let state = s.clone();
            async move {
                let admin = caller.require_admin().map_err(ApiError::from)?;
                let report = deals::import(state.store(), admin, &text, query.dry_run, today(&state))
                    .await
                    .map_err(ApiError::from)?;
                Ok::<_, Rejection>(warp::reply::json(&report))
            }
        });
    let s = state.clone();
    let export = warp::path!("api" / "deals" / "export").and(warp::get()).and(require(state, Role::Viewer)).and_then(
        move |_| {
            let state = s.clone();
            async move {
                let all = state.store().deals().await.map_err(|e| ApiError::from(deals::DealError::from(e)))?;
                let mut res = warp::reply::Response::new(deals::export(&all).into());
                res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(CSV));
                res.headers_mut().insert(
                    header::CONTENT_DISPOSITION,
                    HeaderValue::from_static("attachment; filename=\"deals.csv\""),
                );
                Ok::<_, Rejection>(res)
            }
        },
    );
    summary.or(export).or(import).or(list).or(create).or(detail).or(patch)
}
