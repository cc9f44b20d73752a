//! Scheduled backups: the `backup` job writes `gtms-<UTC time>.redb` into `backup_dir`, verified
//! like any backup, then deletes the oldest of its own files beyond `backup_keep`. Only files
//! named exactly as this job names them are ever counted or deleted.

use std::path::{Path, PathBuf};

use super::{BackupError, create_online};
use crate::config::BackupSettings;
use crate::store::Store;

/// The job's name in `/api/tasks/status`.
pub const JOB: &str = "backup";

const PREFIX: &str = "gtms-";
const SUFFIX: &str = ".redb";
/// `YYYYMMDDTHHMMSSmmmZ`
const STAMP_LEN: usize = 19;

fn file_name(now: chrono::DateTime<chrono::Utc>) -> String {
    format!("{PREFIX}{}{SUFFIX}", now.format("%Y%m%dT%H%M%S%3fZ"))
}

fn is_ours(name: &str) -> bool {
    name.strip_prefix(PREFIX).and_then(|rest| rest.strip_suffix(SUFFIX)).is_some_and(|stamp| {
        stamp.len() == STAMP_LEN
            && stamp.ends_with('Z')
            && stamp.char_indices().all(|(i, c)| if i == 8 { c == 'T' } else { i == 18 || c.is_ascii_digit() })
    })
}

/// This job's backups in `dir`, oldest first (the names sort by time).
pub fn list(dir: &Path) -> Result<Vec<PathBuf>, BackupError> {
    let entries = std::fs::read_dir(dir).map_err(super::io(dir))?;
    let mut ours: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(is_ours))
        .map(|e| e.path())
        .collect();
    ours.sort();
    Ok(ours)
}

/// Deletes all but the newest `keep` of this job's backups; returns how many were deleted.
pub fn prune(dir: &Path, keep: usize) -> Result<usize, BackupError> {
    let ours = list(dir)?;
    let excess = ours.len().saturating_sub(keep);
    for old in &ours[..excess] {
        std::fs::remove_file(old).map_err(super::io(old))?;
    }
    Ok(excess)
}

/// One scheduled run: back up, then apply retention. The summary goes into the job record.
pub async fn run_once(store: &Store, settings: &BackupSettings) -> Result<String, BackupError> {
    std::fs::create_dir_all(&settings.dir).map_err(super::io(&settings.dir))?;
    let out = settings.dir.join(file_name(store.clock().utc()));
    let report = create_online(store, &out).await?;
    let (dir, keep) = (settings.dir.clone(), settings.keep);
    let pruned = tokio::task::spawn_blocking(move || prune(&dir, keep))
        .await
        .map_err(|e| BackupError::Task(e.to_string()))??;
    Ok(format!(
        "{}: {} records, {} bytes, verified; {pruned} old backups deleted (keeping {keep})",
        report.path.display(),
        report.records,
        report.bytes
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_named_by_the_job_are_ours() {
        let name = file_name(chrono::DateTime::from_timestamp_millis(1_700_000_000_123).unwrap_or_default());
        assert_eq!(name, "gtms-20231114T221320123Z.redb");
        assert!(is_ours(&name));
        for other in ["gtms.redb", "gtms-20231114T221320123Z.redb.partial", "gtms-2023111xT221320123Z.redb", "x.redb"] {
            assert!(!is_ours(other), "{other}");
        }
    }

    #[test]
    fn prune_keeps_the_newest_and_leaves_other_files_alone() {
        let dir = tempfile::tempdir().unwrap();
        for ms in 0..5 {
            let at = chrono::DateTime::from_timestamp_millis(1_700_000_000_000 + ms * 1000).unwrap_or_default();
            std::fs::write(dir.path().join(file_name(at)), b"").unwrap();
        }
        std::fs::write(dir.path().join("precious.redb"), b"").unwrap();
        assert_eq!(prune(dir.path(), 2).unwrap(), 3);
        let left = list(dir.path()).unwrap_or_default();
        assert_eq!(left.len(), 2);
        assert!(left[1].to_string_lossy().ends_with("20231114T221324000Z.redb"), "{left:?}");
        assert!(dir.path().join("precious.redb").exists());
    }
}
