//! Receipted company intelligence at run time: the seed format (`seed`, written by the EDGAR
//! pipeline in `crates/edgar`), ingest into the keyless files, the card and registry model, and
//! slugs from names. Knows nothing of HTTP; the faces call into it. A crate of its own (the
//! appliance re-exports it as `gtms::companies`) so it compiles beside the appliance's other
//! parts, and the EDGAR pipeline builds on it without waiting for the whole appliance.

pub mod assets;
pub mod card;
pub mod directory;
pub mod enrich;
pub mod export;
pub mod freshness;
pub mod hubs;
pub mod ingest;
pub mod names;
pub mod query;
pub mod rank;
pub mod seed;

pub use gtms_foundations::{domain, error};
