//! New deals, from `POST /api/deals` or a CSV import: the fields read into a `DealDraft` (every
//! value checked, text limits applied), which becomes a record with a fresh id and a first
//! history entry, or (re-imported under its `externalId`) an update of the deal it names.

use serde::Deserialize;

use super::{DealDetail, DealError, TEXT_LIMIT};
use crate::auth::AdminProof;
use crate::domain::{CalendarDate, ChampionStatus, DealType, Percent, Stage, whole_number};
use crate::store::{DealRecord, HistoryEntry, Store};

/// Longest account, rep or champion name, in characters.
pub const NAME_LIMIT: usize = 200;
/// Longest `externalId`, in characters.
pub const EXTERNAL_ID_LIMIT: usize = 100;
/// Largest deal value: a trillion dollars (so a pipeline's sums never overflow).
pub const VALUE_LIMIT: u64 = 1_000_000_000_000;

/// JSON Schema patterns of what `name`, `text` and `external_id` accept: no control character
/// (a name or a text may hold line breaks), and a name has something besides spaces.
const NAME_PATTERN: &str = r"^[^\u0000-\u0009\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u001F\u007F-\u009F][^\u0000-\u0009\u000B-\u001F\u007F-\u009F]*$";
const TEXT_PATTERN: &str = r"^[^\u0000-\u0009\u000B-\u001F\u007F-\u009F]*$";
const LINE_PATTERN: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";

/// The body of `POST /api/deals`: the list form without its id. `probability` defaults to the
/// stage's (and is the stage's for a closed deal); `companySlug` links the deal to a company
/// card; `externalId` is the deal's id elsewhere (a later CSV import naming it updates it).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewDeal {
    #[schemars(regex(pattern = NAME_PATTERN), length(max = 200))]
    pub account_name: String,
    /// Whole US dollars, at most a trillion.
    #[serde(deserialize_with = "whole_number")]
    #[schemars(with = "u64", range(max = 1_000_000_000_000u64))]
    pub value: u64,
    pub stage: Stage,
    #[serde(rename = "type")]
    pub deal_type: DealType,
    #[schemars(regex(pattern = NAME_PATTERN), length(max = 200))]
    pub rep: String,
    #[serde(default)]
    #[schemars(regex(pattern = TEXT_PATTERN), length(max = 200))]
    pub champion: String,
    /// YYYY-MM-DD.
    pub close_date: CalendarDate,
    pub probability: Option<Percent>,
    #[serde(default)]
    #[schemars(regex(pattern = TEXT_PATTERN), length(max = 500))]
    pub next_step: String,
    pub champion_status: Option<ChampionStatus>,
    /// A company of the directory (404 when there is none by that slug; blank: none).
    pub company_slug: Option<String>,
    #[schemars(regex(pattern = LINE_PATTERN), length(max = 100))]
    pub external_id: Option<String>,
}

/// A deal's fields, every one checked: what a create or an import row writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealDraft {
    pub account_name: String,
    pub value: u64,
    pub stage: Stage,
    pub deal_type: DealType,
    pub rep: String,
    pub champion: String,
    pub champion_status: ChampionStatus,
    pub close_date: CalendarDate,
    pub probability: u8,
    pub next_step: String,
    pub company_slug: Option<String>,
    pub external_id: Option<String>,
}

/// One field that cannot be accepted: its name (as the JSON body and the CSV header write it)
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub reason: String,
}

/// A required name: trimmed, not blank, at most `NAME_LIMIT` characters.
pub fn name(field: &'static str, value: &str) -> Result<String, FieldProblem> {
    let value = value.trim();
    if value.is_empty() {
        return Err(FieldProblem { field, reason: "must not be blank".into() });
    }
    text(field, value, NAME_LIMIT)
}

/// Free text of at most `limit` characters, trimmed.
pub fn text(field: &'static str, value: &str, limit: usize) -> Result<String, FieldProblem> {
    let value = value.trim();
    if value.chars().count() > limit {
        return Err(FieldProblem { field, reason: format!("at most {limit} characters") });
    }
    if value.chars().any(|c| c.is_control() && c != '\n') {
        return Err(FieldProblem { field, reason: "control characters are not allowed".into() });
    }
    Ok(value.to_owned())
}

/// An optional `externalId`: blank means none.
pub fn external_id(value: &str) -> Result<Option<String>, FieldProblem> {
    let value = text("externalId", value, EXTERNAL_ID_LIMIT)?;
    if value.contains('\n') {
        return Err(FieldProblem { field: "externalId", reason: "must be one line".into() });
    }
    Ok(Some(value).filter(|v| !v.is_empty()))
}

/// A deal value: whole dollars up to `VALUE_LIMIT`.
pub fn value(value: u64) -> Result<u64, FieldProblem> {
    if value > VALUE_LIMIT {
        return Err(FieldProblem { field: "value", reason: format!("at most {VALUE_LIMIT} (a trillion dollars)") });
    }
    Ok(value)
}

/// A closed deal's probability is its stage's; an open one's is the given one or the stage's.
pub fn probability(stage: Stage, given: Option<u8>) -> u8 {
    match given {
        Some(p) if !stage.is_closed() => p,
        _ => stage.default_probability(),
    }
}

/// A deal's text fields as given, checked by `DealDraft::build`.
pub struct Texts<'a> {
    pub account_name: &'a str,
    pub rep: &'a str,
    pub champion: &'a str,
    pub next_step: &'a str,
    /// Blank: none.
    pub external_id: &'a str,
}

/// A deal's other fields, already parsed into their types.
pub struct Parsed {
    pub value: u64,
    pub stage: Stage,
    pub deal_type: DealType,
    pub close_date: CalendarDate,
    /// None: the stage's.
    pub probability: Option<u8>,
    pub champion_status: ChampionStatus,
    pub company_slug: Option<String>,
}

impl NewDeal {
    /// The draft, or every field that cannot be accepted.
    pub fn draft(self) -> Result<DealDraft, Vec<FieldProblem>> {
        let texts = Texts {
            account_name: &self.account_name,
            rep: &self.rep,
            champion: &self.champion,
            next_step: &self.next_step,
            external_id: self.external_id.as_deref().unwrap_or(""),
        };
        let parsed = Parsed {
            value: self.value,
            stage: self.stage,
            deal_type: self.deal_type,
            close_date: self.close_date,
            probability: self.probability.map(Percent::get),
            champion_status: self.champion_status.unwrap_or(ChampionStatus::Unknown),
            company_slug: self.company_slug.clone(),
        };
        DealDraft::build(texts, Ok(parsed))
    }
}

impl DealDraft {
    /// The draft of `texts` (each checked) and `parsed` (or the problems of parsing it): every
    /// problem, text ones first, or the draft with the stage's rules applied (a closed deal has
    /// its stage's probability and no next step).
    pub fn build(texts: Texts<'_>, parsed: Result<Parsed, Vec<FieldProblem>>) -> Result<DealDraft, Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let mut keep = |r: Result<String, FieldProblem>| r.map_err(|p| problems.push(p)).unwrap_or_default();
        let account_name = keep(name("accountName", texts.account_name));
        let rep = keep(name("rep", texts.rep));
        let champion = keep(text("champion", texts.champion, NAME_LIMIT));
        let next_step = keep(text("nextStep", texts.next_step, TEXT_LIMIT));
        let external = keep(external_id(texts.external_id).map(Option::unwrap_or_default));
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(more) => {
                problems.extend(more);
                return Err(problems);
            }
        };
        let value = value(parsed.value).map_err(|p| problems.push(p)).unwrap_or_default();
        if !problems.is_empty() {
            return Err(problems);
        }
        let stage = parsed.stage;
        Ok(DealDraft {
            account_name,
            value,
            stage,
            deal_type: parsed.deal_type,
            rep,
            champion,
            champion_status: parsed.champion_status,
            close_date: parsed.close_date,
            probability: probability(stage, parsed.probability),
            next_step: if stage.is_closed() { String::new() } else { next_step },
            company_slug: parsed.company_slug.filter(|s| !s.trim().is_empty()),
            external_id: Some(external).filter(|e| !e.is_empty()),
        })
    }

    /// The draft of fields given as text by their CSV column names (an import row, a console
    /// form; an absent optional field reads as blank), or every field that cannot be accepted.
    pub fn from_cells<'a>(cell: impl Fn(&str) -> &'a str) -> Result<DealDraft, Vec<FieldProblem>> {
        let texts = Texts {
            account_name: cell("accountName"),
            rep: cell("rep"),
            champion: cell("champion"),
            next_step: cell("nextStep"),
            external_id: cell("externalId"),
        };
        let bad = |field, reason: &str| FieldProblem { field, reason: reason.to_owned() };
        let value = cell("value").trim().parse::<u64>().map_err(|_| bad("value", "whole US dollars, digits only"));
        let stage = Stage::parse(cell("stage").trim()).ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
            bad("stage", &format!("one of {}", names.join(", ")))
        });
        let deal_type = DealType::parse(cell("type").trim()).ok_or_else(|| {
            let names: Vec<&str> = DealType::ALL.iter().map(|t| t.as_str()).collect();
            bad("type", &format!("one of {}", names.join(", ")))
        });
        let close_date = CalendarDate::parse(cell("closeDate").trim()).map_err(|e| bad("closeDate", &e.to_string()));
        let probability = match cell("probability").trim() {
            "" => Ok(None),
            p => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= 100)
                .map(Some)
                .ok_or_else(|| bad("probability", "a whole percent from 0 to 100 (blank: the stage's)")),
        };
        let parsed = match (value, stage, deal_type, close_date, probability) {
            (Ok(value), Ok(stage), Ok(deal_type), Ok(close_date), Ok(probability)) => Ok(Parsed {
                value,
                stage,
                deal_type,
                close_date,
                probability,
                champion_status: ChampionStatus::Unknown,
                company_slug: None,
            }),
            (v, s, t, c, p) => Err([v.err(), s.err(), t.err(), c.err(), p.err()].into_iter().flatten().collect()),
        };
        DealDraft::build(texts, parsed)
    }

    /// A new record under `id`, its history starting with `action` (dated `today`).
    pub fn into_record(self, id: String, action: &str, today: CalendarDate) -> DealRecord {
        DealRecord {
            id,
            account_name: self.account_name,
            company_slug: self.company_slug,
            value: self.value,
            stage: self.stage,
            deal_type: self.deal_type,
            rep: self.rep,
            champion: self.champion,
            champion_status: self.champion_status,
            close_date: self.close_date.to_string(),
            probability: self.probability,
            next_step: self.next_step,
            history: vec![HistoryEntry {
                date: today.to_string(),
                action: format!("{action} in {}", self.stage.as_str()),
            }],
            external_id: self.external_id,
        }
    }

    /// `deal` with this draft's fields, `None` when nothing changes. A stage change follows the
    /// PATCH rules (forward or to a closed stage; closed deals are final) and is recorded in
    /// the history; the reason is returned when it breaks them.
    pub fn apply_to(self, deal: &DealRecord, today: CalendarDate) -> Result<Option<DealRecord>, String> {
        let mut next = deal.clone();
        next.account_name = self.account_name;
        next.value = self.value;
        next.deal_type = self.deal_type;
        next.rep = self.rep;
        next.champion = self.champion;
        next.close_date = self.close_date.to_string();
        next.probability = self.probability;
        next.next_step = self.next_step;
        if self.company_slug.is_some() {
            next.company_slug = self.company_slug;
        }
        if self.stage != deal.stage {
            next.stage = self.stage;
        }
        if next == *deal {
            return Ok(None);
        }
        if deal.stage.is_closed() {
            return Err(format!("deal {} is {} and final", deal.id, deal.stage.as_str()));
        }
        if next.stage != deal.stage {
            if !deal.stage.can_move_to(next.stage) {
                return Err(format!(
                    "deal {} is in {}: it can move forward or close, not to {}",
                    deal.id,
                    deal.stage.as_str(),
                    next.stage.as_str()
                ));
            }
            next.history
                .push(HistoryEntry { date: today.to_string(), action: format!("moved to {}", next.stage.as_str()) });
        }
        Ok(Some(next))
    }
}

/// A fresh deal id: `deal-` and 12 hex digits, none of `taken`.
pub fn fresh_id(taken: impl Fn(&str) -> bool) -> String {
    loop {
        let id = format!("deal-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        if !taken(&id) {
            return id;
        }
    }
}

impl From<Vec<FieldProblem>> for DealError {
    /// Every problem in one message (`field: reason; …`).
    fn from(problems: Vec<FieldProblem>) -> Self {
        let all: Vec<String> = problems.iter().map(|p| format!("{}: {}", p.field, p.reason)).collect();
        DealError::Invalid(all.join("; "))
    }
}

/// Creates one deal (admin) from a checked draft. `known_company` says whether a
/// `companySlug` names a company; an `externalId` another deal already has is a conflict.
#[tracing::instrument(level = "debug", skip_all, fields(user = %admin.principal().sub))]
pub async fn create(
    store: &Store,
    admin: AdminProof<'_>,
    draft: DealDraft,
    today: CalendarDate,
    known_company: impl Fn(&str) -> bool,
) -> Result<DealDetail, DealError> {
    if let Some(slug) = draft.company_slug.as_deref().filter(|s| !known_company(s)) {
        return Err(DealError::UnknownCompany(slug.to_owned()));
    }
    let deal = insert(store, draft, "created", today).await?;
    let detail =
        [("accountName", deal.summary.account_name.clone()), ("stage", deal.summary.stage.as_str().to_owned())];
    crate::audit::record(store, admin, "deal.create", &deal.summary.id, &detail).await;
    Ok(deal)
}

/// Writes a checked draft as a new deal whose history starts `<action> in <stage>`, and
/// announces it; an `externalId` another deal already has is a conflict.
pub(super) async fn insert(
    store: &Store,
    draft: DealDraft,
    action: &'static str,
    today: CalendarDate,
) -> Result<DealDetail, DealError> {
    let planned = store
        .plan_deals(true, move |deals| {
            if let Some(ext) = &draft.external_id
                && let Some(other) = deals.iter().find(|d| d.external_id.as_ref() == Some(ext))
            {
                return Err(DealError::Conflict(format!("deal {} already has externalId {ext:?}", other.id)));
            }
            let id = fresh_id(|id| deals.iter().any(|d| d.id == id));
            Ok((vec![draft.into_record(id, action, today)], ()))
        })
        .await??;
    let deal = planned.0.into_iter().next().ok_or_else(|| DealError::Invalid("nothing was created".into()))?;
    Ok(store.events().publish_value(crate::events::DEAL_UPDATED, DealDetail::from(&deal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(stage: Stage) -> DealDraft {
        DealDraft {
            account_name: "Acme".into(),
            value: 10,
            stage,
            deal_type: DealType::NewBusiness,
            rep: "Ada".into(),
            champion: String::new(),
            champion_status: ChampionStatus::Unknown,
            close_date: CalendarDate::parse("2027-03-01").expect("date"),
            probability: stage.default_probability(),
            next_step: String::new(),
            company_slug: None,
            external_id: Some("crm-1".into()),
        }
    }

    fn today() -> CalendarDate {
        CalendarDate::parse("2026-11-25").expect("date")
    }

    #[test]
    fn a_new_record_starts_its_history_and_a_same_draft_changes_nothing() {
        let deal = draft(Stage::Proposal).into_record("deal-1".into(), "imported", today());
        assert_eq!(deal.history[0].action, "imported in proposal");
        assert_eq!(draft(Stage::Proposal).apply_to(&deal, today()), Ok(None));
    }

    #[test]
    fn a_reimport_moves_forward_but_never_back_nor_out_of_a_closed_stage() {
        let deal = draft(Stage::Proposal).into_record("deal-1".into(), "imported", today());
        let moved = draft(Stage::Negotiation).apply_to(&deal, today()).expect("forward").expect("changed");
        assert_eq!(moved.history.last().map(|h| h.action.as_str()), Some("moved to negotiation"));
        assert!(draft(Stage::Prospecting).apply_to(&deal, today()).is_err());
        let won = draft(Stage::ClosedWon).into_record("deal-2".into(), "imported", today());
        let mut richer = draft(Stage::ClosedWon);
        richer.value = 11;
        assert!(richer.apply_to(&won, today()).is_err_and(|e| e.contains("final")));
    }

    #[test]
    fn text_limits_and_blank_names_are_problems() {
        assert!(name("rep", "  ").is_err());
        assert!(name("rep", &"x".repeat(NAME_LIMIT + 1)).is_err());
        assert_eq!(external_id(" "), Ok(None));
        assert!(external_id("a\nb").is_err());
        assert_eq!(probability(Stage::ClosedLost, Some(50)), 0);
        assert_eq!(probability(Stage::Proposal, None), 60);
    }
}
