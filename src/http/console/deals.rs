//! `/app/deals`: the pipeline summary over a board of the six stages (or a filtered list),
//! each deal's detail with its history, and for admins the writes: create, move (through the
//! same service as `PATCH /api/deals/{id}`, so the move is in the deal's history) and the CSV
//! import with its dry run. The export is the API's (`/api/deals/export`, the cookie suffices).

use std::collections::BTreeMap;

use maud::{Markup, html};
use warp::Filter;
use warp::http::{HeaderMap, StatusCode};

use super::layout::{field_error, page};
use super::{Answer, Page, Posted, admin_of, form_fields, form_post, get_page, pending, safe_next, signed_in, writer};
use crate::auth::Principal;
use crate::deals::{
    self, DealDetail, DealDraft, DealError, DealFilter, DealSummary, DealUpdate, ImportReport, RowError,
};
use crate::domain::{DealType, Stage, usd};
use crate::http::deals::today;
use crate::http::error::ApiError;
use crate::state::AppState;

/// Deals a board column or the list shows before it says how many more there are.
const SHOWN: usize = 200;

/// The create form's fields: (name, label, input type, required).
const FIELDS: [(&str, &str, &str, bool); 10] = [
    ("accountName", "Account", "text", true),
    ("value", "Value (USD)", "number", true),
    ("stage", "Stage", "stage", true),
    ("type", "Type", "type", true),
    ("rep", "Rep", "text", true),
    ("champion", "Champion", "text", false),
    ("closeDate", "Close date", "date", true),
    ("probability", "Probability (%)", "number", false),
    ("nextStep", "Next step", "text", false),
    ("externalId", "External id", "text", false),
];

/// A deal form as typed (or prefilled), and what was wrong with it.
#[derive(Default)]
pub(super) struct DealForm {
    pub values: BTreeMap<String, String>,
    pub problems: BTreeMap<&'static str, String>,
    pub message: Option<String>,
}

/// The import form as sent, and what came of it.
#[derive(Default)]
struct ImportForm {
    csv: String,
    dry_run: bool,
    report: Option<ImportReport>,
    errors: Vec<RowError>,
    message: Option<String>,
}

/// Which deals the page shows, from its query.
#[derive(Default)]
struct View {
    filter: DealFilter,
    list: bool,
}

impl View {
    fn of(here: &str) -> View {
        let query = here.split_once('?').map_or("", |(_, q)| q);
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
        let mut view = View::default();
        for (k, v) in pairs {
            match k.as_str() {
                "stage" => view.filter.stage = Stage::parse(&v),
                "type" => view.filter.deal_type = DealType::parse(&v),
                "rep" if !v.trim().is_empty() => view.filter.rep = Some(v.trim().to_owned()),
                "view" => view.list = v == "list",
                _ => {}
            }
        }
        view.list |= view.filter.stage.is_some() || view.filter.deal_type.is_some() || view.filter.rep.is_some();
        view
    }
}

pub fn routes(state: AppState) -> [Page; 5] {
    let s = state.clone();
    let board = warp::path!("app" / "deals")
        .and(get_page())
        .then(move |headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                match signed_in(&state, &headers, &here) {
                    Ok(who) => {
                        let view = View::of(&here);
                        render(&state, &who, &view, DealForm::default(), ImportForm::default(), StatusCode::OK).await
                    }
                    Err(login) => login,
                }
            }
        })
        .boxed();
    let s = state.clone();
    let create = warp::path!("app" / "deals")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = s.clone();
            async move { create_deal(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let s = state.clone();
    let import = warp::path!("app" / "deals" / "import")
        .and(warp::post())
        .and(form_post())
        .then(move |posted: Posted| {
            let state = s.clone();
            async move { import_deals(&state, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    let s = state.clone();
    let detail = warp::path!("app" / "deals" / String)
        .and(get_page())
        .then(move |id: String, headers: HeaderMap, here: String| {
            let state = s.clone();
            async move {
                let who = match signed_in(&state, &headers, &here) {
                    Ok(who) => who,
                    Err(login) => return login,
                };
                match deals::get(state.store(), &id).await {
                    Ok(deal) => Answer::ok(detail_page(&who, pending(&state).await, &deal)),
                    Err(e) => Answer::error(Some(&who), &ApiError::from(e)),
                }
            }
        })
        .boxed();
    let move_deal = warp::path!("app" / "deals" / String / "move")
        .and(warp::post())
        .and(form_post())
        .then(move |id: String, posted: Posted| {
            let state = state.clone();
            async move { move_deal(&state, &id, &posted).await.unwrap_or_else(|answer| answer) }
        })
        .boxed();
    [board, create, import, detail, move_deal]
}

async fn create_deal(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let who = writer(state, posted, "/app/deals")?;
    let admin = admin_of(&who)?;
    let values = form_fields(&posted.body)?;
    let cell = |name: &str| values.get(name).map_or("", String::as_str);
    let (status, problems, message) = match DealDraft::from_cells(cell) {
        Err(problems) => (StatusCode::UNPROCESSABLE_ENTITY, problems, None),
        Ok(draft) => {
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
    Ok(render(state, &who, &View::default(), form, ImportForm::default(), status).await)
}

async fn import_deals(state: &AppState, posted: &Posted) -> Result<Answer, Answer> {
    let who = writer(state, posted, "/app/deals")?;
    let admin = admin_of(&who)?;
    let fields = form_fields(&posted.body)?;
    let csv = fields.get("csv").cloned().unwrap_or_default();
    let dry_run = fields.get("dryRun").is_some_and(|v| v == "on" || v == "true");
    let mut form = ImportForm { csv, dry_run, ..ImportForm::default() };
    let status = match deals::import(state.store(), admin, &form.csv, dry_run, today(state)).await {
        Ok(report) => {
            form.report = Some(report);
            if !dry_run {
                form.csv.clear();
            }
            StatusCode::OK
        }
        Err(DealError::Rows { count, errors }) => {
            form.message = Some(format!("Nothing was imported: {count} problem(s), listed below."));
            form.errors = errors;
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Err(other) => {
            let (status, _, message) = ApiError::from(other).public();
            form.message = Some(format!("Nothing was imported: {message}"));
            status
        }
    };
    Ok(render(state, &who, &View::default(), DealForm::default(), form, status).await)
}

async fn move_deal(state: &AppState, id: &str, posted: &Posted) -> Result<Answer, Answer> {
    let back = format!("/app/deals/{id}");
    let who = writer(state, posted, &back)?;
    let admin = admin_of(&who)?;
    let fields = form_fields(&posted.body)?;
    let to = fields.get("back").and_then(|b| safe_next(b)).unwrap_or(&back).to_owned();
    let stage = fields
        .get("stage")
        .and_then(|s| Stage::parse(s))
        .ok_or_else(|| Answer::refused(Some(&who), StatusCode::BAD_REQUEST, "Choose the stage to move the deal to."))?;
    let update = DealUpdate { stage: Some(stage), ..DealUpdate::default() };
    match deals::update(state.store(), admin, id, update, today(state)).await {
        Ok(_) => Ok(Answer::SeeOther(to)),
        Err(e) => Err(Answer::error(Some(&who), &ApiError::from(e))),
    }
}

async fn render(
    state: &AppState,
    who: &Principal,
    view: &View,
    create: DealForm,
    import: ImportForm,
    status: StatusCode,
) -> Answer {
    let listed = deals::list(state.store(), &view.filter);
    let summary = deals::summary(state.store());
    let admin = who.require_admin().is_ok();
    let by_stage = |stage: Stage| -> (u64, u64) {
        let bucket = summary.by_stage.get(stage);
        (bucket.value, bucket.count)
    };
    let main = html! {
        h1 { "Deals" }
        section #pipeline-summary aria-label="Pipeline summary" {
            p.total { strong { (usd(summary.total)) } " in " (summary.deal_count) " deals" }
            ul.stages {
                @for stage in Stage::ALL {
                    @let (value, count) = by_stage(stage);
                    li data-stage=(stage.as_str()) { span.stage-name { (stage.label()) } " " (usd(value)) " · " (count) }
                }
            }
        }
        (toolbar(view))
        @if admin {
            (create_form(&create))
            (import_form(&import))
        }
        @if view.list {
            (list(&listed))
        } @else {
            (board(&listed, admin))
        }
    };
    Answer::Page(status, page("Deals", Some(who), pending(state).await, "/app/deals", main))
}

fn toolbar(view: &View) -> Markup {
    let f = &view.filter;
    html! {
        form.toolbar method="get" action="/app/deals" aria-label="Filter deals" {
            label for="f-stage" { "Stage" }
            select #f-stage name="stage" {
                option value="" { "Any" }
                @for s in Stage::ALL { option value=(s.as_str()) selected[f.stage == Some(s)] { (s.label()) } }
            }
            label for="f-type" { "Type" }
            select #f-type name="type" {
                option value="" { "Any" }
                @for t in DealType::ALL { option value=(t.as_str()) selected[f.deal_type == Some(t)] { (t.as_str()) } }
            }
            label for="f-rep" { "Rep" }
            input #f-rep name="rep" type="text" value=(f.rep.as_deref().unwrap_or(""));
            input type="hidden" name="view" value="list";
            button type="submit" { "Show list" }
            a href="/app/deals" { "Board" }
            a href="/api/deals/export" download="deals.csv" { "Export CSV" }
        }
    }
}

/// A deal form's fields (`fields`: name, label, input kind, required), each `id`'d
/// `<prefix>-<name>`, with its typed value and its problem under it.
pub(super) fn deal_fields(prefix: &str, fields: &[(&'static str, &str, &str, bool)], form: &DealForm) -> Markup {
    html! {
        @for &(name, text, kind, required) in fields {
            @let id = format!("{prefix}-{name}");
            @let error_id = format!("{prefix}-{name}-error");
            @let problem = form.problems.get(name);
            @let value = form.values.get(name).map_or("", String::as_str);
            div.field {
                label for=(id) { (text) @if !required { " (optional)" } }
                @match kind {
                    "stage" => select id=(id) name=(name) aria-invalid=[problem.map(|_| "true")] aria-describedby=[problem.map(|_| &error_id)] {
                        @for s in Stage::ALL { option value=(s.as_str()) selected[value == s.as_str()] { (s.label()) } }
                    },
                    "type" => select id=(id) name=(name) aria-invalid=[problem.map(|_| "true")] aria-describedby=[problem.map(|_| &error_id)] {
                        @for t in DealType::ALL { option value=(t.as_str()) selected[value == t.as_str()] { (t.as_str()) } }
                    },
                    _ => input id=(id) name=(name) type=(kind) value=(value) required[required]
                        aria-invalid=[problem.map(|_| "true")] aria-describedby=[problem.map(|_| &error_id)];
                }
                (field_error(&error_id, problem))
            }
        }
    }
}

fn create_form(form: &DealForm) -> Markup {
    let open = form.message.is_some() || !form.problems.is_empty();
    html! {
        details #new-deal open[open] {
            summary { "New deal" }
            form.card method="post" action="/app/deals" {
                @if let Some(message) = &form.message { p.error role="alert" { (message) } }
                (deal_fields("new", &FIELDS, form))
                button type="submit" { "Create deal" }
            }
        }
    }
}

fn import_form(form: &ImportForm) -> Markup {
    let open = form.report.is_some() || form.message.is_some();
    html! {
        details #import open[open] {
            summary { "Import CSV" }
            form.card method="post" action="/app/deals/import" {
                p.hint {
                    "Columns: " code { "externalId, accountName, value, stage, type, rep, champion, closeDate, probability, nextStep" }
                    " (externalId and nextStep optional; a row whose externalId a deal has updates it). All or nothing, at most 10,000 rows."
                }
                label for="import-file" { "CSV file" }
                input #import-file type="file" accept=".csv,text/csv" data-fills="import-csv";
                label for="import-csv" { "or paste it" }
                textarea #import-csv name="csv" rows="6" required { (form.csv) }
                div.check {
                    input #import-dry type="checkbox" name="dryRun" checked[form.dry_run];
                    label for="import-dry" { "Dry run: check and show what would change, write nothing" }
                }
                button type="submit" { "Import" }
            }
            @if let Some(message) = &form.message { p.error #import-message role="alert" { (message) } }
            @if !form.errors.is_empty() {
                table #import-errors {
                    caption { "Rows to fix (the header is row 1)" }
                    thead { tr { th scope="col" { "Row" } th scope="col" { "Column" } th scope="col" { "Problem" } } }
                    tbody {
                        @for e in &form.errors {
                            tr { td { (e.row) } td { (e.column.as_deref().unwrap_or("—")) } td { (e.reason) } }
                        }
                    }
                }
            }
            @if let Some(report) = &form.report {
                p #import-report role="status" {
                    @if report.dry_run { "Dry run: would create " } @else { "Imported: created " }
                    (report.created) ", update " (report.updated) ", leave " (report.unchanged) " unchanged."
                }
            }
        }
    }
}

fn deal_link(d: &DealSummary) -> Markup {
    html! { a href={ "/app/deals/" (d.id) } { (d.account_name) } }
}

fn move_form(d: &DealSummary, back: &str) -> Markup {
    let targets: Vec<Stage> = Stage::ALL.into_iter().filter(|s| d.stage.can_move_to(*s)).collect();
    html! {
        @if !targets.is_empty() {
            form.move method="post" action={ "/app/deals/" (d.id) "/move" } {
                input type="hidden" name="back" value=(back);
                label for={ "move-" (d.id) } { "Move " (d.account_name) " to" }
                select id={ "move-" (d.id) } name="stage" {
                    @for s in targets { option value=(s.as_str()) { (s.label()) } }
                }
                button type="submit" { "Move" }
            }
        }
    }
}

fn board(all: &[DealSummary], admin: bool) -> Markup {
    html! {
        div #board.board {
            @for stage in Stage::ALL {
                @let column: Vec<&DealSummary> = all.iter().filter(|d| d.stage == stage).collect();
                section.column data-stage=(stage.as_str()) aria-labelledby={ "col-" (stage.as_str()) } {
                    h2 id={ "col-" (stage.as_str()) } { (stage.label()) " " span.count { (column.len()) } }
                    ul {
                        @for d in column.iter().take(SHOWN) {
                            li.deal data-deal=(d.id) {
                                (deal_link(d))
                                span.meta { (usd(d.value)) " · " (d.rep) " · closes " (d.close_date) }
                                @if admin { (move_form(d, "/app/deals")) }
                            }
                        }
                    }
                    @if column.len() > SHOWN {
                        p { a href={ "/app/deals?view=list&stage=" (stage.as_str()) } { (column.len() - SHOWN) " more in the list" } }
                    }
                }
            }
        }
    }
}

fn list(all: &[DealSummary]) -> Markup {
    html! {
        table #deal-list {
            caption { (all.len()) " deals" @if all.len() > SHOWN { " (the first " (SHOWN) " shown; narrow the filters)" } }
            thead {
                tr {
                    th scope="col" { "Account" } th scope="col" { "Value" } th scope="col" { "Stage" }
                    th scope="col" { "Type" } th scope="col" { "Rep" } th scope="col" { "Close date" } th scope="col" { "Probability" }
                }
            }
            tbody {
                @for d in all.iter().take(SHOWN) {
                    tr data-deal=(d.id) {
                        td { (deal_link(d)) } td { (usd(d.value)) } td { (d.stage.label()) }
                        td { (d.deal_type.as_str()) } td { (d.rep) } td { (d.close_date) } td { (d.probability) "%" }
                    }
                }
            }
        }
    }
}

fn detail_page(who: &Principal, pending: Option<usize>, deal: &DealDetail) -> Markup {
    let d = &deal.summary;
    let back = format!("/app/deals/{}", d.id);
    let main = html! {
        p { a href="/app/deals" { "← Deals" } }
        h1 { (d.account_name) }
        dl.facts {
            dt { "Value" } dd { (usd(d.value)) }
            dt { "Stage" } dd #deal-stage data-stage=(d.stage.as_str()) { (d.stage.label()) }
            dt { "Type" } dd { (d.deal_type.as_str()) }
            dt { "Rep" } dd { (d.rep) }
            dt { "Champion" } dd { (d.champion) }
            dt { "Close date" } dd { (d.close_date) }
            dt { "Probability" } dd { (d.probability) "%" }
            dt { "Next step" } dd { (deal.next_step) }
            @if let Some(slug) = &deal.company_slug {
                dt { "Company" } dd {
                    a #company-card href={ "/app/companies/" (slug) } { (slug) } " · "
                    a href={ "/company/data/" (slug) ".json" } { "JSON card" }
                }
            }
        }
        @if who.require_admin().is_ok() { (move_form(d, &back)) }
        h2 { "History" }
        ol #history {
            @for h in &deal.history { li { time { (h.date) } " " (h.action) } }
        }
    };
    page(&d.account_name, Some(who), pending, "/app/deals", main)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_shows_the_list_and_unknown_values_are_ignored() {
        let v = View::of("/app/deals?stage=proposal&rep=Ada");
        assert_eq!(v.filter.stage, Some(Stage::Proposal));
        assert_eq!(v.filter.rep.as_deref(), Some("Ada"));
        assert!(v.list);
        let v = View::of("/app/deals?stage=nonsense&view=board");
        assert!(v.filter.stage.is_none() && !v.list);
    }
}
