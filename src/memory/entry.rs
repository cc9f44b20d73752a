//! The JSON shapes of memory: the entry `{scope,key,value,pinned,tags,version,createdAt,
//! updatedAt,author}` (timestamps ISO 8601 UTC), the write request, and a key's history.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::store::{MemoryRecord, VersionState};

/// A tag: 1-40 characters, none a control character, not all whitespace.
const TAG_PATTERN: &str = "^(?=.{1,40}$)[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$";

/// The body of `POST /api/memory` (and the arguments of `memory_write`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WriteRequest {
    /// `org`, `team:<id>` or `worker:<id>`.
    #[schemars(regex(pattern = crate::domain::SCOPE_PATTERN))]
    pub scope: String,
    /// 1-128 of letters, digits, `.`, `_`, `-`, `:`.
    #[schemars(regex(pattern = crate::domain::KEY_PATTERN))]
    pub key: String,
    /// At most 16 KiB of UTF-8 (413 beyond).
    #[schemars(length(max = 16384))]
    pub value: String,
    /// Pinned entries are never compressed. Kept as it was when omitted on an update.
    pub pinned: Option<bool>,
    /// Kept as they were when omitted on an update. At most 20, each 1-40 printable
    /// characters, not only spaces.
    #[schemars(length(max = 20), inner(regex(pattern = TAG_PATTERN)))]
    pub tags: Option<Vec<String>>,
    /// The version you last read; the write is refused (409) if the entry has moved on.
    /// 0 means "only if it does not exist yet".
    #[serde(default, deserialize_with = "crate::domain::whole_number_opt")]
    pub if_version: Option<u64>,
}

pub use crate::domain::rfc3339_ms as iso_ms;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemoryEntry {
    pub scope: String,
    pub key: String,
    pub value: String,
    pub pinned: bool,
    pub tags: Vec<String>,
    pub version: u64,
    pub created_at: String,
    pub updated_at: String,
    pub author: String,
}

impl From<&MemoryRecord> for MemoryEntry {
    fn from(r: &MemoryRecord) -> Self {
        Self {
            scope: r.scope.clone(),
            key: r.key.clone(),
            value: r.value.clone(),
            pinned: r.pinned,
            tags: r.tags.clone(),
            version: r.version,
            created_at: iso_ms(r.created_at),
            updated_at: iso_ms(r.updated_at),
            author: r.author.clone(),
        }
    }
}

/// One version of a key: the entry as it was, and whether it is `current`, `superseded` by a
/// later write, or `archived` by compression.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryVersion {
    #[serde(flatten)]
    pub entry: MemoryEntry,
    pub state: &'static str,
}

impl HistoryVersion {
    pub fn new(r: &MemoryRecord, state: VersionState) -> Self {
        let state = match state {
            VersionState::Current => "current",
            VersionState::Superseded => "superseded",
            VersionState::Archived => "archived",
        };
        Self { entry: r.into(), state }
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyHistory {
    pub scope: String,
    pub key: String,
    /// Oldest first.
    pub versions: Vec<HistoryVersion>,
    pub total: usize,
}
