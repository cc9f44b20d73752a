//! The titles the context's `## ` sections start with: what `context` writes and the demo
//! model reads back (`demo::read::Context::lines` matches a title by its start).

pub const PIPELINE: &str = "Pipeline";
pub const NAMED_DEALS: &str = "Deals the question names";
pub const OPEN_DEALS: &str = "Open deals";
pub const SIGNALS: &str = "Company signals";
pub const WORKERS: &str = "Workers";
pub const ACTIVE: &str = "Active workflows";
pub const WAITING: &str = "Waiting for approval";
pub const SINCE_YESTERDAY: &str = "Since yesterday";
/// Followed by the company's legal name, ticker and slug.
pub const COMPANY: &str = "Company:";
