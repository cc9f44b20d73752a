//! How every paged list of the API pages (DESIGN.md): 100 items unless `limit` says otherwise,
//! and at most 1,000 — the deals, the workflows, the approvals and the coordinator runs alike.

/// Items per page when a request names no `limit`.
pub const PAGE: usize = 100;
/// The largest `limit` a request may name.
pub const MAX_PAGE: usize = 1_000;
