//! The registrable domain of a host name by the Public Suffix List (the `psl` crate).
//!
//! A crate of its own for the build's sake: psl's lookup is one generic function per suffix
//! (about 11,000), compiled by whichever crate calls it. Called from gtms, they were 8 % of the
//! gtms crate's own compile work, which runs alone on one core at the end of every build; here
//! they compile beside the other dependencies (docs/testing.md, "make run").

/// The registrable domain of `host` (`investor.apple.com` → `apple.com`,
/// `shop.example.co.uk` → `example.co.uk`), or `None` when `host` is itself a public suffix or
/// not a domain name.
pub fn registrable_domain(host: &str) -> Option<&str> {
    psl::domain_str(host)
}

#[cfg(test)]
mod tests {
    use super::registrable_domain;

    #[test]
    fn the_registrable_domain_is_one_label_below_the_public_suffix() {
        assert_eq!(registrable_domain("investor.apple.com"), Some("apple.com"));
        assert_eq!(registrable_domain("shop.example.co.uk"), Some("example.co.uk"));
        assert_eq!(registrable_domain("co.uk"), None);
    }
}
