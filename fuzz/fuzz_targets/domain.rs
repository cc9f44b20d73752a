//! `DomainName::parse` (IDNA, public-suffix rules): never panics; its output is a fixed point.
#![no_main]

use gtms::domain::DomainName;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    if let Ok(domain) = DomainName::parse(input) {
        let again = DomainName::parse(domain.as_str());
        assert_eq!(again.as_ref().map(|d| d.as_str()).ok(), Some(domain.as_str()), "from {input:?}");
    }
});
