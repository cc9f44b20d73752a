//! Yardstick for `make bench`: raw redb, one durable write per commit, for a few seconds.
//! Prints `writes_per_sec` on stdout. Usage: redb_commit_loop FILE [SECONDS]

use std::time::{Duration, Instant};

use redb::{Database, TableDefinition};

const TABLE: TableDefinition<&str, &[u8]> = TableDefinition::new("bench");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: redb_commit_loop FILE [SECONDS]")?;
    let secs: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(5);
    let db = Database::create(path)?;
    let value = vec![b'x'; 64];
    let (start, mut n) = (Instant::now(), 0u64);
    while start.elapsed() < Duration::from_secs(secs) {
        let txn = db.begin_write()?;
        txn.open_table(TABLE)?.insert(format!("key-{n}").as_str(), value.as_slice())?;
        txn.commit()?;
        n += 1;
    }
    println!("{:.0}", n as f64 / start.elapsed().as_secs_f64());
    Ok(())
}
