//! gtms's foundations, which depend on nothing else of gtms: the gtms crate re-exports each
//! module under its own name (`gtms::store`, `gtms::domain`, ...).
//!
//! - `store`  — the redb file: tables, versioned bincode records, one file per entity, the memory word index
//! - `domain` — newtypes and rules (receipts, slugs, tickers, roles, stages)
//! - `error`  — `ErrorKind` and `ServiceError`: the one error vocabulary faces map once
//! - `events` — the in-process broadcast bus behind `/ws`
//! - `clock`  — the one injected clock
//!
//! A crate of its own so that it compiles beside the dependencies (the Temporal SDK above all)
//! instead of after them as part of the gtms crate, which a first `make run` waits for.

pub mod clock;
pub mod domain;
pub mod error;
pub mod events;
pub mod store;
