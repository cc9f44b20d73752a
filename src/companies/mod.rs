//! Receipted company intelligence: the seed extract, the EDGAR extractor that produces it,
//! and (later) ingest, the embedded asset index and enrichment ranking. Knows nothing of HTTP.

pub mod extract;
pub mod seed;
