//! A memory entry as stored, and what one memory operation did — the shapes the memory
//! tables, their group commit and the word index share.

use serde::{Deserialize, Serialize};

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

#[derive(Debug, Clone)]
pub enum MemoryOutcome {
    Written {
        record: MemoryRecord,
        created: bool,
    },
    /// `if_version` did not match the live version (0 when absent).
    Stale {
        current: u64,
    },
    Folded {
        summary: MemoryRecord,
        folded: Vec<String>,
    },
    /// An entry of the plan changed since it was planned; nothing was applied.
    Changed,
}
