//! Backups and restores of the data file. A backup is a fresh redb file holding every table
//! copied from one read snapshot (online from the running server's store, or offline from a
//! stopped server's file); it is written under a temporary name, verified (integrity check,
//! every record read and counted against the copy), and only then published at its final
//! path, which is never overwritten. A restore verifies its input without changing it, then
//! swaps it in for a data file no process holds, keeping the previous file beside it.
//! Scheduled backups with retention live in `schedule`. This module runs redb work on the
//! blocking pool or in the CLI process; it knows nothing of the faces.

pub mod schedule;

use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::store::Store;
use crate::store::backup::{self as copy, CopyError, TableCounts};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{} already exists; backups never overwrite a file", .0.display())]
    Exists(PathBuf),
    #[error("{} does not exist", .0.display())]
    Missing(PathBuf),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error(transparent)]
    Copy(#[from] CopyError),
    #[error("the copy does not match its source: wrote {wrote} records, read back {read}")]
    Mismatch { wrote: u64, read: u64 },
    #[error("{} is in use by a running gtms process; stop it before restoring", .0.display())]
    Running(PathBuf),
    #[error("the backup task failed: {0}")]
    Task(String),
}

impl crate::error::ServiceError for BackupError {
    fn kind(&self) -> crate::error::ErrorKind {
        use crate::error::ErrorKind;
        match self {
            BackupError::Exists(_) | BackupError::Running(_) => ErrorKind::Conflict,
            BackupError::Missing(_) => ErrorKind::NotFound,
            BackupError::Copy(e) => e.kind(),
            _ => ErrorKind::Internal,
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io { path: path.display().to_string(), source }
}

/// What a finished, verified backup holds.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupReport {
    pub path: PathBuf,
    pub bytes: u64,
    pub records: u64,
    pub tables: TableCounts,
    pub millis: u64,
}

impl BackupReport {
    /// One line of summary, then one line per table.
    pub fn describe(&self, verb: &str) -> String {
        let mut lines = vec![format!(
            "{verb} {}: {} bytes, {} tables, {} records, verified ({} ms)",
            self.path.display(),
            self.bytes,
            self.tables.0.len(),
            self.records,
            self.millis
        )];
        lines.extend(self.tables.0.iter().map(|(name, n)| format!("  {name:<24} {n:>10}")));
        lines.join("\n")
    }
}

/// A sibling of `path` with a unique suffix, for work in progress.
fn temporary(path: &Path, what: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".{}-{:08x}.{what}", std::process::id(), rand::random::<u32>()));
    path.with_file_name(name)
}

fn check_target(out: &Path) -> Result<PathBuf, BackupError> {
    if out.exists() {
        return Err(BackupError::Exists(out.to_owned()));
    }
    Ok(temporary(out, "partial"))
}

/// Copies the running server's database to `out` and verifies the copy. Writers carry on.
pub async fn create_online(store: &Store, out: &Path) -> Result<BackupReport, BackupError> {
    let started = Instant::now();
    let partial = check_target(out)?;
    let copied = store.copy_to(partial.clone()).await;
    let out = out.to_owned();
    tokio::task::spawn_blocking(move || publish(copied, &partial, &out, started))
        .await
        .map_err(|e| BackupError::Task(e.to_string()))?
}

/// Copies a stopped server's data file to `out` and verifies the copy.
pub fn create_offline(data: &Path, out: &Path) -> Result<BackupReport, BackupError> {
    let started = Instant::now();
    if !data.exists() {
        return Err(BackupError::Missing(data.to_owned()));
    }
    let partial = check_target(out)?;
    let copied = copy::copy_file(data, &partial);
    publish(copied, &partial, out, started)
}

/// Verifies the partial copy against what was written and moves it to `out` without ever
/// replacing a file there; the partial file is removed on every path.
fn publish(
    copied: Result<TableCounts, CopyError>,
    partial: &Path,
    out: &Path,
    started: Instant,
) -> Result<BackupReport, BackupError> {
    let result = copied.map_err(BackupError::from).and_then(|wrote| {
        let read = copy::verify(partial)?;
        if read != wrote {
            return Err(BackupError::Mismatch { wrote: wrote.total(), read: read.total() });
        }
        std::fs::hard_link(partial, out).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => BackupError::Exists(out.to_owned()),
            _ => io(out)(e),
        })?;
        Ok(read)
    });
    let _ = std::fs::remove_file(partial);
    let tables = result?;
    sync_dir(out)?;
    let bytes = std::fs::metadata(out).map_err(io(out))?.len();
    Ok(BackupReport {
        path: out.to_owned(),
        bytes,
        records: tables.total(),
        tables,
        millis: started.elapsed().as_millis() as u64,
    })
}

fn sync_dir(path: &Path) -> Result<(), BackupError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}

/// What a restore did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreReport {
    pub data: PathBuf,
    /// The data file that was replaced, kept under this name.
    pub previous: Option<PathBuf>,
    pub records: u64,
    pub tables: TableCounts,
}

/// Restores `input` (a verified backup) as `data`. The caller has made sure no server answers
/// on `data`'s admin socket; here redb's lock on `data` is taken and held until the new file is
/// in place, so no process can open either file half-way. The old file is kept as
/// `<data>.pre-restore-<UTC time>` (`now`).
pub fn restore(input: &Path, data: &Path, now: DateTime<Utc>) -> Result<RestoreReport, BackupError> {
    if !input.exists() {
        return Err(BackupError::Missing(input.to_owned()));
    }
    let expected = copy::inspect(input)?;
    let lock = match data.exists() {
        true => Some(redb::Database::open(data).map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => BackupError::Running(data.to_owned()),
            e => CopyError::Open { path: data.display().to_string(), source: e }.into(),
        })?),
        false => None,
    };
    let staged = temporary(data, "restoring");
    let result = stage(input, &staged, &expected).and_then(|()| {
        let previous = match &lock {
            Some(_) => Some(keep_previous(data, now)?),
            None => None,
        };
        std::fs::rename(&staged, data).map_err(io(data))?;
        sync_dir(data)?;
        Ok(previous)
    });
    let _ = std::fs::remove_file(&staged);
    drop(lock);
    let previous = result?;
    Ok(RestoreReport { data: data.to_owned(), previous, records: expected.total(), tables: expected })
}

/// Copies `input` to `staged`, makes it durable and verifies it record for record.
fn stage(input: &Path, staged: &Path, expected: &TableCounts) -> Result<(), BackupError> {
    std::fs::copy(input, staged).map_err(io(staged))?;
    std::fs::File::open(staged).and_then(|f| f.sync_all()).map_err(io(staged))?;
    let read = copy::verify(staged)?;
    if &read != expected {
        return Err(BackupError::Mismatch { wrote: expected.total(), read: read.total() });
    }
    Ok(())
}

fn keep_previous(data: &Path, now: DateTime<Utc>) -> Result<PathBuf, BackupError> {
    let stamp = now.format("%Y%m%dT%H%M%SZ");
    let mut name = data.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".pre-restore-{stamp}"));
    let kept = data.with_file_name(name);
    std::fs::hard_link(data, &kept).map_err(io(&kept))?;
    Ok(kept)
}
