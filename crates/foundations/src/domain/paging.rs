//! How every paged list of the API pages (DESIGN.md): 100 items unless `limit` says otherwise,
//! and at most 1,000 — the deals, the workflows, the approvals and the coordinator runs alike.

/// Items per page when a request names no `limit`.
pub const PAGE: usize = 100;
/// The largest `limit` a request may name.
pub const MAX_PAGE: usize = 1_000;

/// The page size a request asks for (`PAGE` when it names none), or why it cannot be asked:
/// `limit: 1 to 1000 <noun> per page`, for a 400.
pub fn page_size(limit: Option<usize>, noun: &str) -> Result<usize, String> {
    let limit = limit.unwrap_or(PAGE);
    if (1..=MAX_PAGE).contains(&limit) { Ok(limit) } else { Err(format!("limit: 1 to {MAX_PAGE} {noun} per page")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_1_to_1000_items_and_100_unless_asked() {
        assert_eq!(page_size(None, "deals"), Ok(PAGE));
        assert_eq!(page_size(Some(MAX_PAGE), "deals"), Ok(MAX_PAGE));
        assert_eq!(page_size(Some(0), "deals"), Err("limit: 1 to 1000 deals per page".to_owned()));
        assert!(page_size(Some(MAX_PAGE + 1), "deals").is_err());
    }
}
