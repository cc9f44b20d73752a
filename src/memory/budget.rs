//! A worker's memory budget: what one entry costs in tokens, and the budget of a scope.

use crate::brain::model::estimate_tokens;
use crate::store::MemoryRecord;

/// Token budget of one worker's scope.
pub const DEFAULT_BUDGET_TOKENS: u64 = 4000;

/// What an entry costs in the budget: its key, value and tags, in estimated tokens.
pub fn entry_tokens(r: &MemoryRecord) -> u64 {
    estimate_tokens(&r.key) + estimate_tokens(&r.value) + r.tags.iter().map(|t| estimate_tokens(t)).sum::<u64>()
}
