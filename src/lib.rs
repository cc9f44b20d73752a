//! gtms: receipted intelligence on US public companies and the workspace platform of an AI
//! go-to-market team, in one binary.
//!
//! Map of the crate (arrows point from faces to services to storage and domain):
//! - `domain`    — newtypes and rules (receipts, signal kinds, slugs); imports nothing of ours
//! - `companies` — the receipted company model, the EDGAR extractor and its seed format

pub mod companies;
pub mod domain;
