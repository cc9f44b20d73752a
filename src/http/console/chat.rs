//! `/app/chat`: the Brain thread (issue 24, page 2).

use super::Page;
use crate::state::AppState;

pub fn routes(_state: AppState) -> Vec<Page> {
    Vec::new()
}
