//! A memory entry as stored, and what one memory operation did — the shapes the memory
//! tables, their group commit and the word index share.

use serde::{Deserialize, Serialize};

use crate::domain::estimate_tokens;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryRecord {
    pub scope: String,
    pub key: String,
    pub value: String,
    pub pinned: bool,
    pub tags: Vec<String>,
    pub version: u64,
    /// Unix milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
    pub author: String,
}

impl MemoryRecord {
    /// What the entry costs in a worker's budget: its key, value and tags, in estimated tokens.
    pub fn tokens(&self) -> u64 {
        estimate_tokens(&self.key)
            + estimate_tokens(&self.value)
            + self.tags.iter().map(|t| estimate_tokens(t)).sum::<u64>()
    }
}

#[derive(Debug, Clone)]
pub enum MemoryOutcome {
    Written {
        record: MemoryRecord,
        /// The live record it replaced (`None`: the key is new).
        replaced: Option<MemoryRecord>,
    },
    /// `if_version` did not match the live version (0 when absent).
    Stale { current: u64 },
    Folded {
        summary: MemoryRecord,
        /// A live summary under the same key that `summary` replaced.
        replaced: Option<MemoryRecord>,
        /// The entries folded away (archived).
        folded: Vec<MemoryRecord>,
    },
    /// An entry of the plan changed since it was planned; nothing was applied.
    Changed,
}
