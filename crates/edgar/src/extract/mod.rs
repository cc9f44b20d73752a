//! `gtms-edgar extract`: reads the EDGAR documents and reference tables under a data
//! directory and writes the receipted company extract `companies.jsonl` into a seed
//! directory. Output is byte-identical for the same inputs: every collection is ordered
//! (BTreeMap, sorted vectors), nothing reads a clock, and the file is replaced atomically.
//! The rules (sentence selection, classification, ranking, title cleaning, contact
//! stripping) live in the submodules and are described in `docs/company-data.md`.

pub mod appointments;
pub mod classify;
pub mod company;
pub mod contact;
pub mod dates;
pub mod documents;
pub mod exclusions;
pub mod executives;
pub mod items;
pub mod manifest;
pub mod press;
pub mod rank;
pub mod reference;
pub mod registry;
pub mod rules;
mod second_reading;
pub mod sentences;
pub mod signals;
pub mod statements;
pub mod subsidiaries;
pub mod subsidiary_mentions;
pub mod text;
pub mod titles;
pub mod vetoes;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use company::{Built, build};
use gtms_companies::seed::{COMPANIES_FILE, SeedCompany, write_companies};
use manifest::ManifestRow;

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("reading {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("reading {path}: {source}")]
    Csv { path: PathBuf, source: csv::Error },
    #[error("reading {path}: {source}")]
    Json { path: PathBuf, source: serde_json::Error },
    #[error("writing {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
}

impl ExtractError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Read { path: path.to_owned(), source }
    }
    pub(crate) fn csv(path: &Path, source: csv::Error) -> Self {
        Self::Csv { path: path.to_owned(), source }
    }
    pub(crate) fn json(path: &Path, source: serde_json::Error) -> Self {
        Self::Json { path: path.to_owned(), source }
    }
}

/// Counts printed at the end of an extraction run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ExtractReport {
    pub tracked: usize,
    pub with_statements: usize,
    pub statements: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    pub domains: usize,
    pub sectors: usize,
    pub dropped_quotes: usize,
}

impl std::fmt::Display for ExtractReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tracked {}, with statements {}, statements {}, executives {}, subsidiaries {}, domains {}, sectors {}, dropped quotes {}",
            self.tracked,
            self.with_statements,
            self.statements,
            self.executives,
            self.subsidiaries,
            self.domains,
            self.sectors,
            self.dropped_quotes
        )
    }
}

/// Runs the whole extraction from `from` (the shared data directory) into `out` (a seed dir).
pub fn run(from: &Path, out: &Path, show_progress: bool) -> Result<ExtractReport, ExtractError> {
    let tracked = registry::read_tracked(from)?;
    let references = reference::resolve(from, &tracked)?;
    let manifest = manifest::read_manifest(from)?;
    let listed: BTreeSet<(String, String)> =
        manifest.iter().map(|r| (r.accession.clone(), r.document.clone())).collect();
    let mut rows_by_cik: BTreeMap<&str, Vec<ManifestRow>> = BTreeMap::new();
    for row in &manifest {
        rows_by_cik.entry(row.cik.as_str()).or_default().push(row.clone());
    }
    let exec_records = executives::read_records(from)?;
    let releases = press::read_releases(from)?;
    let progress = progress_bar(tracked.len(), show_progress);
    let no_rows = Vec::new();
    let no_execs = Vec::new();
    let no_reference = reference::Reference::default();
    let no_releases = Vec::new();
    let work: Vec<&registry::Tracked> = tracked.values().collect();
    let build_one = |t: &&registry::Tracked| {
        let built = build(
            from,
            t,
            references.get(&t.cik).unwrap_or(&no_reference),
            rows_by_cik.get(t.cik.as_str()).unwrap_or(&no_rows),
            &listed,
            exec_records.get(&t.cik).unwrap_or(&no_execs),
            releases.get(&t.cik).unwrap_or(&no_releases),
        );
        progress.inc(1);
        built
    };
    let built = build_in_parallel(&work, build_one)?;
    let mut report = ExtractReport { tracked: tracked.len(), ..ExtractReport::default() };
    let mut companies: Vec<SeedCompany> = Vec::with_capacity(built.len());
    for Built { company, dropped_quotes } in built {
        count(&mut report, &company);
        report.dropped_quotes += dropped_quotes;
        companies.push(company);
    }
    progress.finish_and_clear();
    write_atomically(out, &companies)?;
    Ok(report)
}

/// Builds every company on up to four threads; the result keeps the order of `work`, so
/// the output does not depend on scheduling.
fn build_in_parallel<T: Sync>(
    work: &[T],
    build_one: impl Fn(&T) -> Result<Built, ExtractError> + Sync,
) -> Result<Vec<Built>, ExtractError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4);
    let mut slots: Vec<Option<Result<Built, ExtractError>>> = Vec::new();
    slots.resize_with(work.len(), || None);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let build_one = &build_one;
                scope.spawn(move || {
                    (k..work.len()).step_by(threads).map(|i| (i, build_one(&work[i]))).collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(done) => done.into_iter().for_each(|(i, b)| slots[i] = Some(b)),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    slots
        .into_iter()
        .map(|s| s.unwrap_or_else(|| Err(ExtractError::Io(std::io::Error::other("a company was not built")))))
        .collect()
}

fn count(report: &mut ExtractReport, c: &SeedCompany) {
    report.with_statements += usize::from(!c.statements.is_empty());
    report.statements += c.statements.len();
    report.executives += c.executives.len();
    report.subsidiaries += c.subsidiaries.len();
    report.domains += usize::from(c.domain.is_some());
    report.sectors += usize::from(c.sector.is_some());
}

/// A bar on stderr when asked for and stderr is a terminal; hidden otherwise.
fn progress_bar(len: usize, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} companies {elapsed}") {
        bar.set_style(style);
    }
    bar
}

/// Writes `companies.jsonl` through a temporary file in the same directory and a rename,
/// so a reader never sees a half-written extract.
fn write_atomically(out: &Path, companies: &[SeedCompany]) -> Result<(), ExtractError> {
    let write_err = |path: &Path| {
        let path = path.to_owned();
        move |source| ExtractError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(write_err(out))?;
    let target = out.join(COMPANIES_FILE);
    let tmp = out.join(format!(".{COMPANIES_FILE}.tmp"));
    let file = std::fs::File::create(&tmp).map_err(write_err(&tmp))?;
    let mut writer = BufWriter::new(file);
    write_companies(&mut writer, companies).map_err(write_err(&tmp))?;
    let file = writer.into_inner().map_err(|e| ExtractError::Write { path: tmp.clone(), source: e.into_error() })?;
    file.sync_all().map_err(write_err(&tmp))?;
    std::fs::rename(&tmp, &target).map_err(write_err(&target))?;
    Ok(())
}
