//! `/app/metrics`: the four metric views as server-rendered SVG charts (issue 24, page 7).

use super::Page;
use crate::state::AppState;

pub fn routes(_state: AppState) -> Vec<Page> {
    Vec::new()
}
