//! `/app/memory`: the org/team/worker tree, entries, versions, edits and search (issue 24, page 6).

use super::Page;
use crate::state::AppState;

pub fn routes(_state: AppState) -> Vec<Page> {
    Vec::new()
}
