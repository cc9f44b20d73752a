//! Deals in and out as CSV. An import is all or nothing: the header must name the columns
//! (any order; `nextStep` and `externalId` optional, any other column refused by name), every
//! row is checked, and inside one write transaction each row's `externalId` is matched to the
//! deal it names (its `externalId`, or its id — so an export edited and imported again updates
//! in place); one bad row, and the answer lists every problem and nothing is written. A dry run
//! answers what would be written. The export writes the same columns.

use serde::Serialize;

use super::create::{self, DealDraft};
use super::{DealError, DealSummary, csv};
use crate::auth::AdminProof;
use crate::domain::CalendarDate;
use crate::store::{DealRecord, Store};

/// Most rows one import holds (the header not counted).
pub const IMPORT_ROWS: usize = 10_000;
/// Largest import body: 10,000 rows of a few hundred bytes fit.
pub const IMPORT_BYTES: usize = 4 * 1024 * 1024;
/// Most problems one refused import lists (the message says how many there were).
const MAX_PROBLEMS: usize = 1_000;

/// The columns, in the order an export writes them.
pub const COLUMNS: [&str; 10] =
    ["externalId", "accountName", "value", "stage", "type", "rep", "champion", "closeDate", "probability", "nextStep"];
const OPTIONAL: [&str; 2] = ["externalId", "nextStep"];

/// One problem of a refused import: the row (the header is row 1), the column when one is at
/// fault, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RowError {
    pub row: usize,
    pub column: Option<String>,
    pub reason: String,
}

impl RowError {
    fn new(row: usize, column: Option<&str>, reason: impl Into<String>) -> Self {
        Self { row, column: column.map(str::to_owned), reason: reason.into() }
    }
}

/// What an import wrote (or, in a dry run, would write).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub dry_run: bool,
    pub created: usize,
    pub updated: usize,
    /// Rows naming a deal whose fields they already hold.
    pub unchanged: usize,
    /// The created and updated deals, in row order.
    pub deals: Vec<DealSummary>,
}

/// Imports `text` (admin): everything or nothing.
#[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub, dry_run))]
pub async fn import(
    store: &Store,
    admin: AdminProof<'_>,
    text: &str,
    dry_run: bool,
    today: CalendarDate,
) -> Result<ImportReport, DealError> {
    let rows = drafts(text).map_err(refused)?;
    let total = rows.len();
    let planned = store.plan_deals(!dry_run, move |deals| plan(&deals, rows, today).map_err(refused)).await??;
    let (written, Tally { created, unchanged }) = planned;
    let report = ImportReport {
        dry_run,
        created,
        updated: written.len() - created,
        unchanged,
        deals: written.iter().map(DealSummary::from).collect(),
    };
    tracing::info!(rows = total, created = report.created, updated = report.updated, dry_run, "deals imported");
    if !dry_run {
        let detail = [
            ("rows", total.to_string()),
            ("created", report.created.to_string()),
            ("updated", report.updated.to_string()),
            ("unchanged", report.unchanged.to_string()),
        ];
        crate::audit::record(store, admin, "deal.import", "deals", &detail).await;
    }
    Ok(report)
}

fn refused(mut errors: Vec<RowError>) -> DealError {
    let count = errors.len();
    errors.truncate(MAX_PROBLEMS);
    DealError::Rows { count, errors }
}

/// Each row's draft, or every problem of the file.
fn drafts(text: &str) -> Result<Vec<(usize, DealDraft)>, Vec<RowError>> {
    let records = csv::read(text).map_err(|e| vec![RowError::new(e.row, None, e.reason)])?;
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(vec![RowError::new(
            1,
            None,
            format!("the file is empty: row 1 names the columns ({})", COLUMNS.join(", ")),
        )]);
    };
    let columns = columns(&header)?;
    let rows: Vec<(usize, Vec<String>)> = records.collect();
    if rows.is_empty() {
        return Err(vec![RowError::new(2, None, "no deals after the header row")]);
    }
    if rows.len() > IMPORT_ROWS {
        let first_extra = rows[IMPORT_ROWS].0;
        return Err(vec![RowError::new(first_extra, None, format!("an import holds at most {IMPORT_ROWS} rows"))]);
    }
    let mut problems = Vec::new();
    let mut drafts = Vec::with_capacity(rows.len());
    for (row, fields) in rows {
        if fields.len() != header.len() {
            let reason = format!("{} fields where the header names {}", fields.len(), header.len());
            problems.push(RowError::new(row, None, reason));
            continue;
        }
        let cell = |name: &str| columns.iter().position(|c| *c == name).map_or("", |i| fields[i].as_str());
        match DealDraft::from_cells(cell) {
            Ok(d) => drafts.push((row, d)),
            Err(bad) => problems.extend(bad.into_iter().map(|p| RowError::new(row, Some(p.field), p.reason))),
        }
    }
    if problems.is_empty() { Ok(drafts) } else { Err(problems) }
}

/// The header's columns: each known and named once, the required ones all there.
fn columns(header: &[String]) -> Result<Vec<&'static str>, Vec<RowError>> {
    let mut problems = Vec::new();
    let mut seen: Vec<&'static str> = Vec::new();
    for name in header {
        let name = name.trim();
        match COLUMNS.iter().find(|c| **c == name) {
            None => problems.push(RowError::new(
                1,
                Some(name),
                format!("unknown column (the columns are {})", COLUMNS.join(", ")),
            )),
            Some(c) if seen.contains(c) => problems.push(RowError::new(1, Some(c), "named twice")),
            Some(c) => seen.push(c),
        }
    }
    for missing in COLUMNS.iter().filter(|c| !OPTIONAL.contains(c) && !seen.contains(c)) {
        problems.push(RowError::new(1, Some(missing), "required column missing"));
    }
    if problems.is_empty() { Ok(seen) } else { Err(problems) }
}

/// How many of a plan's rows create a deal, and how many change nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    created: usize,
    unchanged: usize,
}

/// The deals to write, in row order, or every row whose deal cannot take it.
fn plan(
    deals: &[DealRecord],
    rows: Vec<(usize, DealDraft)>,
    today: CalendarDate,
) -> Result<(Vec<DealRecord>, Tally), Vec<RowError>> {
    let mut problems = Vec::new();
    let mut written: Vec<DealRecord> = Vec::new();
    let mut tally = Tally::default();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (row, draft) in &rows {
        let Some(ext) = draft.external_id.as_deref() else { continue };
        if let Some((_, first)) = seen.iter().find(|(e, _)| *e == ext) {
            problems.push(RowError::new(*row, Some("externalId"), format!("the same externalId as row {first}")));
        } else {
            seen.push((ext, *row));
        }
    }
    for (row, draft) in rows {
        let existing = draft.external_id.as_deref().and_then(|ext| {
            deals.iter().find(|d| d.external_id.as_deref() == Some(ext)).or_else(|| deals.iter().find(|d| d.id == ext))
        });
        match existing {
            Some(deal) => match draft.apply_to(deal, today) {
                Ok(Some(next)) => written.push(next),
                Ok(None) => tally.unchanged += 1,
                Err(reason) => problems.push(RowError::new(row, Some("stage"), reason)),
            },
            None => {
                let id = create::fresh_id(|id| deals.iter().chain(&written).any(|d| d.id == id));
                written.push(draft.into_record(id, "imported", today));
                tally.created += 1;
            }
        }
    }
    if problems.is_empty() { Ok((written, tally)) } else { Err(problems) }
}

/// Every deal as CSV, in the import's columns (`externalId`: the deal's own, else its id).
pub fn export(deals: &[DealRecord]) -> String {
    let mut out = String::new();
    csv::write_record(&mut out, &COLUMNS);
    for d in deals {
        let fields = [
            d.external_id.clone().unwrap_or_else(|| d.id.clone()),
            d.account_name.clone(),
            d.value.to_string(),
            d.stage.as_str().to_owned(),
            d.deal_type.as_str().to_owned(),
            d.rep.clone(),
            d.champion.clone(),
            d.close_date.clone(),
            d.probability.to_string(),
            d.next_step.clone(),
        ];
        csv::write_record(&mut out, &fields);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "accountName,value,stage,type,rep,champion,closeDate,probability,nextStep,externalId";

    fn today() -> CalendarDate {
        CalendarDate::parse("2026-11-25").expect("date")
    }

    #[test]
    fn every_bad_field_of_every_row_is_named() {
        let text = format!(
            "{HEADER}\nAcme,100,proposal,expansion,Ada,Bo,2027-01-31,,Call,crm-1\n,12.5,won,expansion,Ada,Bo,2027-02-30,101,,\n"
        );
        let problems = drafts(&text).expect_err("row 3 is bad");
        let named: Vec<(usize, Option<&str>)> = problems.iter().map(|p| (p.row, p.column.as_deref())).collect();
        assert_eq!(
            named,
            [
                (3, Some("accountName")),
                (3, Some("value")),
                (3, Some("stage")),
                (3, Some("closeDate")),
                (3, Some("probability"))
            ]
        );
    }

    #[test]
    fn the_header_refuses_unknown_and_missing_columns_by_name() {
        let problems = drafts("accountName,value,stage,type,rep,champion,closeDate,owner\nx").expect_err("bad header");
        let named: Vec<&str> = problems.iter().filter_map(|p| p.column.as_deref()).collect();
        assert_eq!(named, ["owner", "probability"]);
        assert!(problems.iter().all(|p| p.row == 1));
    }

    #[test]
    fn a_reimport_of_the_export_changes_nothing_and_duplicates_are_refused() {
        let text = format!("{HEADER}\nAcme,100,proposal,expansion,Ada,Bo,2027-01-31,,Call,crm-1\n");
        let (deals, _) = plan(&[], drafts(&text).expect("good"), today()).expect("plan");
        let again = drafts(&export(&deals)).expect("the export reads back");
        let (rewritten, tally) = plan(&deals, again, today()).expect("plan");
        assert_eq!((rewritten.len(), tally), (0, Tally { created: 0, unchanged: 1 }));
        let twice = format!(
            "{HEADER}\nA,1,proposal,expansion,Ada,,2027-01-31,,,x\nB,2,proposal,expansion,Ada,,2027-01-31,,,x\n"
        );
        let problems = plan(&[], drafts(&twice).expect("rows"), today()).expect_err("duplicate");
        assert_eq!(problems, [RowError::new(3, Some("externalId"), "the same externalId as row 2")]);
    }

    #[test]
    fn more_rows_than_the_limit_are_refused_at_the_first_extra_one() {
        let mut text = format!("{HEADER}\n");
        for i in 0..=IMPORT_ROWS {
            text.push_str(&format!("A{i},1,proposal,expansion,Ada,,2027-01-31,,,\n"));
        }
        let problems = drafts(&text).expect_err("too many");
        assert_eq!(problems[0].row, IMPORT_ROWS + 2);
    }
}
