//! `/app/companies`: the company directory, a card, and "add to pipeline" (issue 24, page 8).

use super::Page;
use crate::state::AppState;

pub fn routes(_state: AppState) -> Vec<Page> {
    Vec::new()
}
