//! `Ticker::parse`: never panics; its output is a fixed point.
#![no_main]

use gtms::domain::Ticker;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    if let Ok(ticker) = Ticker::parse(input) {
        let again = Ticker::parse(ticker.as_str());
        assert_eq!(again.as_ref().map(|t| t.as_str()).ok(), Some(ticker.as_str()), "from {input:?}");
    }
});
