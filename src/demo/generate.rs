//! The demo workspace generator: ~150 deals on real companies with cards, accounts with
//! consumption commits and 120 days of usage, and 60 days of workflow runs and token use.
//! Deterministic: a fixed seed, a fixed anchor date. Stable as the cards change: the deals go
//! to the companies whose slugs hash lowest, and each deal's stage, value and history come from
//! its own slug, so a card added or removed moves only the deals it displaces.

use chrono::{Duration, NaiveDate};

use super::rng::Rng;
use crate::companies::directory::Directory;
use crate::domain::{ChampionStatus, DealType, Stage};
use crate::store::{
    AccountRecord, DealRecord, HistoryEntry, RunRecord, RunStatus, TokenRecord, WorkerRecord, WorkspaceData,
};

pub const SEED: u64 = 42;
/// The demo's "today": every date is relative to it, so output never depends on the clock.
pub const ANCHOR: (i32, u32, u32) = (2026, 11, 20);
pub const DEALS: usize = 150;
pub const ACCOUNTS: usize = 24;
pub const USAGE_DAYS: i64 = 120;
pub const LEDGER_DAYS: i64 = 60;

const REPS: &[&str] = &["Avery Chen", "Jordan Patel", "Sam Rivera", "Morgan Lee", "Taylor Brooks", "Riley Novak"];
// Fictional champions: no real person is named as a contact.
const FIRST: &[&str] =
    &["Dana", "Elliot", "Harper", "Jesse", "Kai", "Logan", "Marlow", "Noel", "Parker", "Quinn", "Rowan", "Sage"];
const LAST: &[&str] =
    &["Whitfield", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Delgado", "Fischer", "Kowalski", "Nakamura", "Osei"];
const NEXT_STEPS: &[&str] = &[
    "Schedule a needs-assessment call with the champion",
    "Send security questionnaire",
    "Confirm budget owner and timeline",
    "Deliver pricing proposal",
    "Review redlines with legal",
    "Book executive sponsor meeting",
    "Run technical validation workshop",
];
/// (model, input price, output price) in micro-USD per token; by task type.
const MODELS: &[(&str, u64, u64)] = &[("claude-sonnet-4", 3, 15), ("gpt-4.1-mini", 0, 2), ("llama-3.1-8b-local", 0, 0)];

fn anchor() -> NaiveDate {
    let (y, m, d) = ANCHOR;
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

fn day(offset: i64) -> String {
    (anchor() + Duration::days(offset)).format("%Y-%m-%d").to_string()
}

pub fn generate(workers: Vec<WorkerRecord>, dir: &Directory) -> WorkspaceData {
    let mut rng = Rng::new(SEED);
    let mut companies: Vec<(u64, String, String)> =
        dir.cards().map(|c| (slug_hash(&c.slug), c.slug.clone(), c.legal_name.clone())).collect();
    // Hash order spreads the deals over the alphabet and keeps them where they are.
    companies.sort();
    let deals: Vec<DealRecord> = companies
        .iter()
        .cycle()
        .take(DEALS)
        .enumerate()
        .map(|(i, (hash, slug, name))| {
            // A company drawn twice (fewer cards than deals) gets another deal each round.
            let round = (i / companies.len()) as u64;
            deal(&mut Rng::new(SEED ^ hash ^ round), i, slug, name)
        })
        .collect();
    let accounts = accounts(&mut rng, &deals);
    let runs = runs(&mut rng, &workers);
    let tokens = tokens(&mut rng, &workers);
    WorkspaceData { workers, deals, accounts, runs, tokens }
}

/// FNV-1a of a slug: where its company stands in the draw, and its deal's own seed.
fn slug_hash(slug: &str) -> u64 {
    slug.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn deal(rng: &mut Rng, i: usize, slug: &str, name: &str) -> DealRecord {
    let stage = Stage::ALL[rng.weighted(&[20, 20, 18, 14, 16, 12])];
    let deal_type = DealType::ALL[rng.weighted(&[50, 30, 20])];
    let (lo, hi) = match deal_type {
        DealType::NewBusiness => (40, 800),
        DealType::Expansion => (20, 500),
        DealType::Renewal => (60, 1000),
    };
    let value = rng.range(lo, hi) * 500;
    let close_offset = if stage.is_closed() { -(rng.range(5, 150) as i64) } else { rng.range(5, 120) as i64 };
    let created = close_offset - rng.range(60, 150) as i64;
    let mut history = vec![HistoryEntry { date: day(created), action: "created in prospecting".into() }];
    let path: Vec<Stage> = Stage::ALL.iter().copied().filter(|s| !s.is_closed() && *s > Stage::Prospecting).collect();
    let mut when = created;
    for s in path.iter().take_while(|s| stage.is_closed() || **s <= stage) {
        when += rng.range(5, 20) as i64;
        if when >= close_offset.min(0) && !stage.is_closed() {
            break;
        }
        history.push(HistoryEntry { date: day(when), action: format!("moved to {}", s.as_str()) });
    }
    if stage.is_closed() {
        history.push(HistoryEntry { date: day(close_offset), action: format!("moved to {}", stage.as_str()) });
    }
    let probability = if stage.is_closed() {
        stage.default_probability()
    } else {
        (stage.default_probability() as i64 + rng.range(0, 10) as i64 - 5).clamp(1, 99) as u8
    };
    let champion_status = match stage {
        Stage::ClosedLost => ChampionStatus::Lost,
        _ => [ChampionStatus::Engaged, ChampionStatus::AtRisk, ChampionStatus::Unknown][rng.weighted(&[6, 2, 2])],
    };
    DealRecord {
        id: format!("deal-{:03}", i + 1),
        account_name: name.to_owned(),
        company_slug: Some(slug.to_owned()),
        value,
        stage,
        deal_type,
        rep: (*rng.pick(REPS)).to_owned(),
        champion: format!("{} {}", rng.pick(FIRST), rng.pick(LAST)),
        champion_status,
        close_date: day(close_offset),
        probability,
        next_step: if stage.is_closed() { String::new() } else { (*rng.pick(NEXT_STEPS)).to_owned() },
        history,
        external_id: None,
    }
}

/// Accounts are the companies of won deals first, then others, each with a commit and usage.
fn accounts(rng: &mut Rng, deals: &[DealRecord]) -> Vec<AccountRecord> {
    let mut names: Vec<(&str, Option<&String>)> = Vec::new();
    let won = deals.iter().filter(|d| d.stage == Stage::ClosedWon);
    for d in won.chain(deals.iter()) {
        if names.len() < ACCOUNTS && !names.iter().any(|(n, _)| *n == d.account_name) {
            names.push((&d.account_name, d.company_slug.as_ref()));
        }
    }
    names
        .into_iter()
        .enumerate()
        .map(|(i, (name, slug))| {
            let commit_cents = rng.range(120, 1_200) as i64 * 1_000 * 100;
            // Run-rate between 70% and 130% of the commit, drifting over the period.
            let ratio = rng.range(70, 130) as i64;
            let drift = rng.range(0, 40) as i64 - 20;
            let daily_usage = (0..USAGE_DAYS)
                .map(|k| {
                    let offset = k - USAGE_DAYS + 1;
                    let date = anchor() + Duration::days(offset);
                    let trend = 100 + drift * k / USAGE_DAYS;
                    let weekend = matches!(date.format("%a").to_string().as_str(), "Sat" | "Sun");
                    let season = if weekend { 60 } else { 110 };
                    let noise = rng.range(90, 110) as i64;
                    let cents = commit_cents / 365 * ratio / 100 * trend / 100 * season / 100 * noise / 100;
                    (day(offset), cents)
                })
                .collect();
            AccountRecord {
                id: format!("acct-{:03}", i + 1),
                name: name.to_owned(),
                company_slug: slug.cloned(),
                annual_commit_cents: Some(commit_cents),
                daily_usage,
            }
        })
        .collect()
}

fn runs(rng: &mut Rng, workers: &[WorkerRecord]) -> Vec<RunRecord> {
    let midnight = anchor().and_hms_opt(0, 0, 0).map(|t| t.and_utc().timestamp()).unwrap_or_default();
    let mut out = Vec::new();
    for k in 0..LEDGER_DAYS {
        for w in workers {
            for _ in 0..rng.range(0, 2) {
                let Some(kind) = w.workflow_types.first() else { continue };
                let started = midnight - (LEDGER_DAYS - k) * 86_400 + rng.range(8 * 3600, 18 * 3600) as i64;
                let status = [RunStatus::Completed, RunStatus::Failed][rng.weighted(&[92, 8])];
                let duration = rng.range(20, 1_800) as i64;
                out.push(RunRecord {
                    id: format!("run-{:05}", out.len() + 1),
                    worker: w.id.clone(),
                    workflow_type: kind.clone(),
                    started_at: started,
                    ended_at: Some(started + duration),
                    status,
                });
            }
        }
    }
    out
}

fn tokens(rng: &mut Rng, workers: &[WorkerRecord]) -> Vec<TokenRecord> {
    let mut out = Vec::new();
    for k in 0..LEDGER_DAYS {
        for w in workers {
            let (model, price_in, price_out) = MODELS[rng.weighted(&[3, 5, 2])];
            let input_tokens = rng.range(5_000, 120_000);
            let output_tokens = rng.range(1_000, 30_000);
            out.push(TokenRecord {
                date: day(k - LEDGER_DAYS + 1),
                worker: w.id.clone(),
                model: model.to_owned(),
                input_tokens,
                output_tokens,
                cost_micros: input_tokens * price_in + output_tokens * price_out,
            });
        }
    }
    out
}
