//! `/app/workers` and `/app/workers/{id}`: the eight workers, live (issue 24, page 3).

use super::Page;
use crate::state::AppState;

pub fn routes(_state: AppState) -> Vec<Page> {
    Vec::new()
}
