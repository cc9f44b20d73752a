//! Every table of the database, in one place. Keys are plain redb types; values are records
//! encoded by `codec` (one schema-version byte, then bincode).

use redb::{TableDefinition, WriteTransaction};

use super::StoreError;

/// Server-wide singletons: boot record, generated secrets.
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");

/// Opens every table once so readers never meet a missing table.
pub fn create_all(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(META)?;
    Ok(())
}
