//! Generic record access for the tables keyed by a string and holding one encoded record:
//! put, get, list, and read-modify-write in one transaction. Entity files use these and add
//! only what is particular to them.

use std::sync::Arc;

use redb::{ReadTransaction, ReadableDatabase, ReadableTable, TableDefinition};

use super::codec::{self, Record};
use super::{Store, StoreError};

pub type RecordTable = TableDefinition<'static, &'static str, &'static [u8]>;

impl Store {
    pub(crate) async fn put_record<T>(&self, table: RecordTable, key: String, value: T) -> Result<(), StoreError>
    where
        T: Record + Send + 'static,
    {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(table)?.insert(key.as_str(), codec::encode(&value)?.as_slice())?;
            txn.commit()?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn get_record<T>(&self, table: RecordTable, key: String) -> Result<Option<T>, StoreError>
    where
        T: Record + Send + 'static,
    {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(table)?;
            let value = table.get(key.as_str())?;
            Ok(match value {
                Some(v) => Some(codec::decode(v.value())?),
                None => None,
            })
        })
        .await
    }

    /// The records at `keys`, in that order, read in one transaction (a key gone since it was
    /// listed is skipped): a page of an index read from the file.
    pub(crate) async fn records_at<T>(&self, table: RecordTable, keys: Vec<Arc<str>>) -> Result<Vec<T>, StoreError>
    where
        T: Record + Send + 'static,
    {
        self.blocking(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(table)?;
            let mut records = Vec::with_capacity(keys.len());
            for key in &keys {
                if let Some(bytes) = table.get(&**key)? {
                    records.push(codec::decode(bytes.value())?);
                }
            }
            Ok(records)
        })
        .await
    }

    /// Every record of the table, in key order.
    pub(crate) async fn all_records<T>(&self, table: RecordTable) -> Result<Vec<T>, StoreError>
    where
        T: Record + Send + 'static,
    {
        self.blocking(move |db| read_all(&db.begin_read()?, table)).await
    }

    /// Reads the record at `key`, lets `change` decide (it returns the record to write, if
    /// any, and its answer), and commits — all in one write transaction. `None` when there
    /// is no record at `key`.
    pub(crate) async fn modify_record<T, R, F>(
        &self,
        table: RecordTable,
        key: String,
        change: F,
    ) -> Result<Option<R>, StoreError>
    where
        T: Record + Send + 'static,
        R: Send + 'static,
        F: FnOnce(T) -> (Option<T>, R) + Send + 'static,
    {
        self.blocking(move |db| {
            let txn = db.begin_write()?;
            let answer = {
                let mut t = txn.open_table(table)?;
                let current: Option<T> = match t.get(key.as_str())? {
                    Some(v) => Some(codec::decode(v.value())?),
                    None => None,
                };
                match current.map(change) {
                    Some((Some(updated), answer)) => {
                        t.insert(key.as_str(), codec::encode(&updated)?.as_slice())?;
                        Some(answer)
                    }
                    Some((None, answer)) => Some(answer),
                    None => None,
                }
            };
            txn.commit()?;
            Ok(answer)
        })
        .await
    }
}

pub(crate) fn read_all<T: Record>(txn: &ReadTransaction, table: RecordTable) -> Result<Vec<T>, StoreError> {
    fold_all(txn, table, Vec::new(), Vec::push)
}

/// Folds every record of `table`, in key order, into `acc` as it is decoded: what is held is one
/// record and the accumulator, however long the table grows.
pub(crate) fn fold_all<T: Record, A>(
    txn: &ReadTransaction,
    table: RecordTable,
    mut acc: A,
    mut add: impl FnMut(&mut A, T),
) -> Result<A, StoreError> {
    for entry in txn.open_table(table)?.iter()? {
        add(&mut acc, codec::decode(entry?.1.value())?);
    }
    Ok(acc)
}
