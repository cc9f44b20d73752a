//! Receipted company intelligence: the seed extract and the EDGAR extractor that produces it,
//! ingest into the keyless files, the card and registry model, and slugs from names.
//! Knows nothing of HTTP; the faces call into it.

pub mod assets;
pub mod card;
pub mod directory;
pub mod enrich;
pub mod export;
pub mod extract;
pub mod fetch;
pub mod hubs;
pub mod ingest;
pub mod names;
pub mod query;
pub mod seed;
