//! A worker's memory budget: what one entry costs in tokens, and the budget of a scope.

use crate::store::MemoryRecord;

/// Token budget of one worker's scope.
pub const DEFAULT_BUDGET_TOKENS: u64 = 4000;

/// What an entry costs in the budget: its key, value and tags, in estimated tokens.
pub fn entry_tokens(r: &MemoryRecord) -> u64 {
    r.tokens()
}
