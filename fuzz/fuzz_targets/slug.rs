//! `Slug::parse` and `Slug::from_name`: never panic; what they produce parses again unchanged.
#![no_main]

use gtms::domain::Slug;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    if let Ok(slug) = Slug::parse(input) {
        assert_eq!(slug.as_str(), input, "a parsed slug is its input");
    }
    if let Some(slug) = Slug::from_name(input) {
        let again = Slug::parse(slug.as_str());
        assert!(again.is_ok(), "from_name made {:?}, which does not parse", slug.as_str());
    }
});
