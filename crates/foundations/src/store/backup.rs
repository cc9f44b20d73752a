//! Whole-file copies of the database, table by table, from one read snapshot, and the check
//! that a copy is sound. A read transaction never blocks redb's writer (readers see a snapshot
//! while commits go on), so an online copy holds no lock writers wait for; it only keeps the
//! snapshot's pages from being reused until it ends. Tables are copied generically: a table's
//! stored key and value types are read from the file and dispatched to a typed copy, so new
//! tables need no change here as long as their types are in `dispatch` (a unit test opens every
//! table a fresh store creates). Knows nothing of records; only of redb.

use std::path::Path;

use redb::{
    Database, Durability, Key, ReadOnlyDatabase, ReadTransaction, ReadableDatabase, ReadableTable,
    ReadableTableMetadata, TableDefinition, TableError, TableHandle, Value, WriteTransaction,
};
use serde::Serialize;

/// Record count of each table, by name, sorted by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TableCounts(pub Vec<(String, u64)>);

impl TableCounts {
    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, n)| n).sum()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{0} is already in use by a running gtms (use the admin channel or stop it)")]
    InUse(String),
    #[error("{0} was not closed cleanly (a crashed writer); it is not a finished backup")]
    NotClean(String),
    #[error("{path}: {source}")]
    Open { path: String, source: redb::DatabaseError },
    #[error("table {table}: key type {key} with value type {value} is not supported by backups yet")]
    UnsupportedTypes { table: String, key: String, value: String },
    #[error("{0} has multimap tables, which backups do not support yet")]
    Multimap(String),
    #[error("{path} failed the integrity check (its checksums do not match)")]
    Corrupt { path: String },
    #[error("table {table} lists {listed} records but {read} could be read")]
    CountMismatch { table: String, listed: u64, read: u64 },
    #[error("database: {0}")]
    Db(#[from] redb::Error),
    #[error("the copy task failed: {0}")]
    Task(String),
}

impl crate::error::ServiceError for CopyError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            CopyError::InUse(_) => crate::error::ErrorKind::Unavailable,
            CopyError::Open { .. } | CopyError::NotClean(_) | CopyError::Corrupt { .. } => {
                crate::error::ErrorKind::BadInput
            }
            _ => crate::error::ErrorKind::Internal,
        }
    }
}

impl super::Store {
    /// Copies the live database to `out` from one read snapshot, while writers carry on.
    pub async fn copy_to(&self, out: std::path::PathBuf) -> Result<TableCounts, CopyError> {
        let db = std::sync::Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || copy_snapshot(&db.begin_read()?, &out))
            .await
            .map_err(|e| CopyError::Task(e.to_string()))?
    }
}

macro_rules! from_redb {
    ($($t:ty),*) => { $( impl From<$t> for CopyError { fn from(e: $t) -> Self { CopyError::Db(e.into()) } } )* };
}
from_redb!(redb::TransactionError, redb::TableError, redb::StorageError, redb::CommitError, redb::SetDurabilityError);

fn open_error(path: &Path, source: redb::DatabaseError) -> CopyError {
    let shown = path.display().to_string();
    match source {
        redb::DatabaseError::DatabaseAlreadyOpen => CopyError::InUse(shown),
        redb::DatabaseError::RepairAborted => CopyError::NotClean(shown),
        source => CopyError::Open { path: shown, source },
    }
}

/// Copies every table of `snapshot` into a new database at `out` (which must not exist) and
/// makes it durable. Each table is one write transaction, so memory stays bounded by the
/// largest table; the last commit is immediate, which makes all of them durable.
pub fn copy_snapshot(snapshot: &ReadTransaction, out: &Path) -> Result<TableCounts, CopyError> {
    if snapshot.list_multimap_tables()?.next().is_some() {
        return Err(CopyError::Multimap("the database".into()));
    }
    let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(out).map_err(|e| {
        CopyError::Open { path: out.display().to_string(), source: redb::DatabaseError::Storage(e.into()) }
    })?;
    let backend = redb::backends::FileBackend::new(file).map_err(|e| open_error(out, e))?;
    let target = super::db_builder().create_with_backend(backend).map_err(|e| open_error(out, e))?;
    let mut counts = Vec::new();
    for handle in snapshot.list_tables()? {
        let name = handle.name().to_owned();
        let mut txn = target.begin_write()?;
        txn.set_durability(Durability::None)?;
        let n = dispatch(&mut Copy { snapshot, txn: &txn }, snapshot, &name)?;
        txn.commit()?;
        counts.push((name, n));
    }
    target.begin_write()?.commit()?; // Immediate: everything before it is now on disk.
    counts.sort();
    Ok(TableCounts(counts))
}

/// Copies a stopped server's data file to `out` from one snapshot. A file another process holds
/// is refused (`InUse`); a file a crash left unrepaired is opened for writing so redb repairs it
/// first, exactly as the next `gtms serve` would.
pub fn copy_file(data: &Path, out: &Path) -> Result<TableCounts, CopyError> {
    match ReadOnlyDatabase::open(data) {
        Ok(db) => copy_snapshot(&db.begin_read()?, out),
        Err(redb::DatabaseError::RepairAborted) => {
            let db = Database::open(data).map_err(|e| open_error(data, e))?;
            copy_snapshot(&db.begin_read()?, out)
        }
        Err(e) => Err(open_error(data, e)),
    }
}

/// Opens the database at `path` (a copy this process owns), runs redb's integrity check over
/// every page checksum, then reads every record of every table and counts it.
pub fn verify(path: &Path) -> Result<TableCounts, CopyError> {
    let mut db = super::db_builder().open(path).map_err(|e| open_error(path, e))?;
    if !db.check_integrity().map_err(|e| open_error(path, e))? {
        return Err(CopyError::Corrupt { path: path.display().to_string() });
    }
    count_all(&db.begin_read()?)
}

/// Reads a file without changing it (a backup handed to `restore`): a file not closed cleanly
/// is refused rather than repaired.
pub fn inspect(path: &Path) -> Result<TableCounts, CopyError> {
    let db = ReadOnlyDatabase::open(path).map_err(|e| open_error(path, e))?;
    count_all(&db.begin_read()?)
}

fn count_all(snapshot: &ReadTransaction) -> Result<TableCounts, CopyError> {
    if snapshot.list_multimap_tables()?.next().is_some() {
        return Err(CopyError::Multimap("the database".into()));
    }
    let mut counts = Vec::new();
    for handle in snapshot.list_tables()? {
        let name = handle.name().to_owned();
        let n = dispatch(&mut Count { snapshot }, snapshot, &name)?;
        counts.push((name, n));
    }
    counts.sort();
    Ok(TableCounts(counts))
}

/// Work done on one table once its key and value types are known.
trait TableOp {
    fn run<K: Key + 'static, V: Value + 'static>(&mut self, name: &str) -> Result<u64, CopyError>;
}

struct Copy<'a> {
    snapshot: &'a ReadTransaction,
    txn: &'a WriteTransaction,
}

impl TableOp for Copy<'_> {
    fn run<K: Key + 'static, V: Value + 'static>(&mut self, name: &str) -> Result<u64, CopyError> {
        let definition = TableDefinition::<K, V>::new(name);
        let from = self.snapshot.open_table(definition)?;
        let mut to = self.txn.open_table(definition)?;
        let mut n = 0;
        for entry in from.iter()? {
            let (k, v) = entry?;
            to.insert(k.value(), v.value())?;
            n += 1;
        }
        Ok(n)
    }
}

struct Count<'a> {
    snapshot: &'a ReadTransaction,
}

impl TableOp for Count<'_> {
    fn run<K: Key + 'static, V: Value + 'static>(&mut self, name: &str) -> Result<u64, CopyError> {
        let table = self.snapshot.open_table(TableDefinition::<K, V>::new(name))?;
        let mut read = 0;
        for entry in table.iter()? {
            let (k, v) = entry?;
            // Decode both sides, so every leaf is loaded and every value parsed.
            let _ = (K::as_bytes(&k.value()).as_ref().len(), V::as_bytes(&v.value()).as_ref().len());
            read += 1;
        }
        let listed = table.len()?;
        if listed != read {
            return Err(CopyError::CountMismatch { table: name.to_owned(), listed, read });
        }
        Ok(read)
    }
}

/// The stored key and value type names of a table.
fn stored_types(snapshot: &ReadTransaction, name: &str) -> Result<(String, String), CopyError> {
    match snapshot.open_table(TableDefinition::<&str, &[u8]>::new(name)) {
        Ok(_) => Ok(("&str".into(), "&[u8]".into())),
        Err(TableError::TableTypeMismatch { key, value, .. }) => Ok((key.name().to_owned(), value.name().to_owned())),
        Err(e) => Err(e.into()),
    }
}

macro_rules! with_value {
    ($op:expr, $name:expr, $key:ty, $value:expr, $unsupported:expr) => {
        match $value {
            "&[u8]" => $op.run::<$key, &[u8]>($name),
            "&str" => $op.run::<$key, &str>($name),
            "String" => $op.run::<$key, String>($name),
            "u64" => $op.run::<$key, u64>($name),
            "i64" => $op.run::<$key, i64>($name),
            "u32" => $op.run::<$key, u32>($name),
            "u128" => $op.run::<$key, u128>($name),
            "bool" => $op.run::<$key, bool>($name),
            "()" => $op.run::<$key, ()>($name),
            _ => Err($unsupported),
        }
    };
}

fn dispatch(op: &mut impl TableOp, snapshot: &ReadTransaction, name: &str) -> Result<u64, CopyError> {
    let (key, value) = stored_types(snapshot, name)?;
    let unsupported = CopyError::UnsupportedTypes { table: name.to_owned(), key: key.clone(), value: value.clone() };
    let value = value.as_str();
    match key.as_str() {
        "&str" => with_value!(op, name, &str, value, unsupported),
        "&[u8]" => with_value!(op, name, &[u8], value, unsupported),
        "String" => with_value!(op, name, String, value, unsupported),
        "u64" => with_value!(op, name, u64, value, unsupported),
        "i64" => with_value!(op, name, i64, value, unsupported),
        "u32" => with_value!(op, name, u32, value, unsupported),
        "u128" => with_value!(op, name, u128, value, unsupported),
        _ => Err(unsupported),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    const NUMBERS: TableDefinition<u64, u64> = TableDefinition::new("test_numbers");
    const NAMES: TableDefinition<&str, &str> = TableDefinition::new("test_names");

    #[test]
    fn every_table_a_fresh_store_creates_copies_and_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("gtms.redb");
        drop(Store::open(&data).unwrap());
        let out = dir.path().join("copy.redb");
        let copied = copy_file(&data, &out).unwrap();
        assert!(copied.0.iter().any(|(name, _)| name == "deals"), "{copied:?}");
        assert_eq!(verify(&out).unwrap(), copied);
        assert_eq!(inspect(&out).unwrap(), copied);
    }

    #[test]
    fn tables_of_other_types_copy_record_for_record() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("src.redb");
        let db = Database::create(&data).unwrap();
        let txn = db.begin_write().unwrap();
        {
            let mut numbers = txn.open_table(NUMBERS).unwrap();
            let mut names = txn.open_table(NAMES).unwrap();
            for i in 0..1000u64 {
                numbers.insert(i, i * 3).unwrap();
                names.insert(format!("k{i}").as_str(), "v").unwrap();
            }
        }
        txn.commit().unwrap();
        let out = dir.path().join("out.redb");
        let counts = copy_snapshot(&db.begin_read().unwrap(), &out);
        let counts = counts.unwrap();
        assert_eq!(counts.0, vec![("test_names".to_owned(), 1000), ("test_numbers".to_owned(), 1000)]);
        let copy = Database::open(&out).unwrap();
        let read = copy.begin_read().unwrap();
        let numbers = read.open_table(NUMBERS).unwrap();
        assert_eq!(numbers.get(999).ok().flatten().map(|v| v.value()), Some(2997));
    }

    #[test]
    fn a_held_file_is_refused_and_an_existing_target_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("gtms.redb");
        let store = Store::open(&data).unwrap();
        let out = dir.path().join("copy.redb");
        assert!(matches!(copy_file(&data, &out), Err(CopyError::InUse(_))));
        assert!(matches!(inspect(&data), Err(CopyError::InUse(_))));
        drop(store);
        std::fs::write(&out, b"keep me").unwrap();
        assert!(copy_file(&data, &out).is_err());
        assert_eq!(std::fs::read(&out).unwrap_or_default(), b"keep me");
    }

    #[test]
    fn garbage_is_not_a_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junk.redb");
        std::fs::write(&path, vec![7u8; 8192]).unwrap();
        assert!(inspect(&path).is_err());
        assert!(verify(&path).is_err());
    }
}
