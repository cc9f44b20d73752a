//! The bulk path of `make bench-scale` (issue 27): fills a seeded data file (no server holding
//! it) with a generated workspace — DEALS deals over 50 reps, MEMORY memory entries over the
//! org, 20 teams and the workers, WORKFLOWS finished workflows with their run-ledger rows (and
//! `PARKED` of them parked at an approval instead, at any size: the work in hand does not grow
//! with the history) — through the store's own write paths (the deal plan of
//! the CSV import, the memory and workflow group commits, 256 writers at a time), so every
//! index is kept as a server would keep it. Then it times the metric rollup job over it.
//! Memory entries are written one second apart (the last one now), so they order by time.
//! Deterministic for a size. Prints one `name<TAB>value` line per figure.
//!
//! Usage: scale_load FILE DEALS MEMORY WORKFLOWS

use std::sync::Arc;
use std::time::Instant;

use gtms::domain::{ChampionStatus, DealType, Stage, StepStatus, WorkflowStatus, WorkflowType};
use gtms::store::{
    ApprovalRecord, DealRecord, MemoryWrite, StepRecord, Store, WorkerRecord, WorkflowRecord, WorkflowWrite,
};

/// Writers in flight at once (the group commits batch them).
const WRITERS: usize = 256;
const TEAMS: usize = 20;
const REPS: usize = 50;
/// Workflows waiting at an approval, spread over the history.
const PARKED: usize = 200;
const WORDS: [&str; 24] = [
    "pricing",
    "renewal",
    "security",
    "review",
    "champion",
    "budget",
    "procurement",
    "pilot",
    "expansion",
    "integration",
    "onboarding",
    "objection",
    "discount",
    "timeline",
    "legal",
    "forecast",
    "churn",
    "upsell",
    "quarter",
    "roadmap",
    "migration",
    "contract",
    "usage",
    "support",
];
const ACCOUNTS: [&str; 12] = [
    "Northwind Traders Inc",
    "Contoso Ltd",
    "Fabrikam Corp",
    "Tailspin Toys Co",
    "Wide World Importers LLC",
    "Adventure Works Inc",
    "Litware Inc",
    "Proseware Corp",
    "Lucerne Publishing Co",
    "Margie's Travel Inc",
    "Woodgrove Bank Corp",
    "Alpine Ski House Inc",
];

/// Words in the generated text: `WORDS` are the most frequent, then `term<rank>`, drawn with
/// Zipf's law (exponent 1), as words of real notes are.
const VOCABULARY: usize = 5_000;

/// A small deterministic generator (xorshift64*), drawing words by their Zipf weight.
struct Rng(u64, Vec<f64>);

impl Rng {
    fn next(&mut self) -> u64 {
        let Rng(state, _) = self;
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn new(seed: u64) -> Self {
        let mut cdf: Vec<f64> = (1..=VOCABULARY).map(|r| 1.0 / r as f64).collect();
        let total: f64 = cdf.iter().sum();
        let mut sum = 0.0;
        for w in cdf.iter_mut() {
            sum += *w / total;
            *w = sum;
        }
        Rng(seed, cdf)
    }

    fn word(&mut self) -> String {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        let rank = self.1.partition_point(|c| *c < u).min(VOCABULARY - 1);
        WORDS.get(rank).map_or_else(|| format!("term{rank}"), |w| (*w).to_owned())
    }

    fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

fn deal(n: usize, rng: &mut Rng) -> DealRecord {
    let stage = Stage::ALL[rng.below(Stage::ALL.len())];
    DealRecord {
        id: format!("scale-{n:07}"),
        account_name: format!("{} {n}", ACCOUNTS[rng.below(ACCOUNTS.len())]),
        company_slug: None,
        value: 5_000 + rng.below(500) as u64 * 1_000,
        stage,
        deal_type: DealType::ALL[rng.below(DealType::ALL.len())],
        rep: format!("Rep {:02}", rng.below(REPS)),
        champion: "A champion".into(),
        champion_status: ChampionStatus::Engaged,
        close_date: format!("2027-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28)),
        probability: (rng.below(10) * 10) as u8,
        next_step: rng.words(8),
        history: vec![],
        external_id: Some(format!("scale-{n:07}")),
    }
}

fn memory(n: usize, workers: &[WorkerRecord], rng: &mut Rng, now_ms: i64) -> MemoryWrite {
    let scope = match n % 10 {
        0 => "org".to_owned(),
        1..=3 => format!("team:team-{:02}", rng.below(TEAMS)),
        _ => format!("worker:{}", workers[rng.below(workers.len())].id),
    };
    MemoryWrite {
        scope,
        key: format!("note.{n:07}"),
        value: format!("{} (entry {n})", rng.words(24)),
        pinned: None,
        tags: Some(vec![rng.word()]),
        if_version: Some(0),
        author: "bulk:scale".into(),
        now_ms,
    }
}

fn workflow(n: usize, parked_every: usize, workers: &[WorkerRecord], rng: &mut Rng, now_ms: i64) -> WorkflowWrite {
    let worker = &workers[rng.below(workers.len())];
    let kind = worker
        .workflow_types
        .iter()
        .filter_map(|t| WorkflowType::parse(t))
        .find(|k| *k != WorkflowType::Coordinator)
        .unwrap_or(WorkflowType::LeadQualification);
    let started = now_ms - 400 * 86_400_000 + (n as i64) * 300_000;
    let id = format!("{}-scale{n:07}", kind.as_str());
    let mut w = WorkflowRecord::started(id, kind, worker.id.clone(), "{}".into(), None, started);
    let step = |name: &str, at: i64| StepRecord {
        name: name.into(),
        status: StepStatus::Completed,
        started_ms: at,
        finished_ms: Some(at + 1_000),
        output: "{\"ok\":true}".into(),
        attempts: 1,
    };
    w.steps = vec![step("first", started), step("second", started + 2_000)];
    if n.is_multiple_of(parked_every) {
        w.status = WorkflowStatus::Waiting;
        w.approval = Some(ApprovalRecord {
            step: "review".into(),
            summary: format!("Approve: {}", rng.words(10)),
            requested_ms: started + 3_000,
            deadline_ms: None,
            decision: None,
            comment: None,
            decided_ms: None,
            decided_by: None,
        });
    } else {
        w.status = WorkflowStatus::Completed;
        w.finished_ms = Some(started + 4_000);
        w.result = Some("{\"done\":true}".into());
    }
    w.updated_ms = started + 4_000;
    let run = Some(gtms::workflows::ledger_row(&w));
    WorkflowWrite { record: w, expected: None, run }
}

/// Runs `make(n)` for n in 0..count through `write`, `WRITERS` at a time; returns the seconds.
async fn load<T, F, Fut>(count: usize, make: impl Fn(usize) -> T, write: F) -> Result<f64, Box<dyn std::error::Error>>
where
    F: Fn(T) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    let start = Instant::now();
    let mut next = 0;
    while next < count {
        let batch: Vec<_> = (next..(next + WRITERS).min(count)).map(&make).map(&write).collect();
        next += batch.len();
        for result in futures_util::future::join_all(batch).await {
            result?;
        }
    }
    Ok(start.elapsed().as_secs_f64())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, deals, memories, workflows] = args.as_slice() else {
        return Err("usage: scale_load FILE DEALS MEMORY WORKFLOWS".into());
    };
    let (deals, memories, workflows): (usize, usize, usize) = (deals.parse()?, memories.parse()?, workflows.parse()?);
    let store = Store::open(std::path::Path::new(path))?;
    let workers = store.workers().await?;
    if workers.is_empty() {
        return Err("the data file has no workers: start the appliance on it once (demo mode seeds it)".into());
    }
    let now_ms = store.now_ms();

    let start = Instant::now();
    let mut rng = Rng::new(0x5EED_0027);
    let generated: Vec<DealRecord> = (0..deals).map(|n| deal(n, &mut rng)).collect();
    store.plan_deals(true, move |_| Ok::<_, ()>((generated, ()))).await?.map_err(|()| "deal plan")?;
    println!("load deals s\t{:.1}", start.elapsed().as_secs_f64());

    let (workers, store) = (Arc::new(workers), Arc::new(store));
    let rng = std::sync::Mutex::new(Rng::new(0x5EED_0028));
    let take = |f: &dyn Fn(&mut Rng) -> MemoryWrite| f(&mut rng.lock().unwrap_or_else(|p| p.into_inner()));
    let secs = load(
        memories,
        |n| take(&|r| memory(n, &workers, r, now_ms - (memories - n) as i64 * 1_000)),
        |w| {
            let store = Arc::clone(&store);
            async move { store.write_memory(w).await.map(|_| ()).map_err(|e| e.to_string()) }
        },
    )
    .await?;
    println!("load memory s\t{secs:.1}");

    let rng = std::sync::Mutex::new(Rng::new(0x5EED_0029));
    let parked_every = (workflows / PARKED).max(1);
    let secs = load(
        workflows,
        |n| workflow(n, parked_every, &workers, &mut rng.lock().unwrap_or_else(|p| p.into_inner()), now_ms),
        |w| {
            let store = Arc::clone(&store);
            async move { store.write_workflow(w).await.map(|_| ()).map_err(|e| e.to_string()) }
        },
    )
    .await?;
    println!("load workflows s\t{secs:.1}");

    let start = Instant::now();
    gtms::metrics::rollup_all(&store, now_ms / 1000).await?;
    println!("rollup ms\t{:.0}", start.elapsed().as_secs_f64() * 1000.0);
    Ok(())
}
