//! JSON bodies: `parse_json` (the body filter's parser, with its error messages) into the
//! request types the routes take, and the admin channel's request lines. Never panics; a stage
//! that parses serializes to its name and parses back to itself.
#![no_main]

use gtms::admin::AdminRequest;
use gtms::deals::DealUpdate;
use gtms::http::filters::parse_json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(update) = parse_json::<DealUpdate>(data)
        && let Some(stage) = update.stage
    {
        let name = serde_json::to_value(stage).expect("a stage serializes");
        assert_eq!(serde_json::from_value(name).ok(), Some(stage), "a stage round-trips");
    }
    let _ = parse_json::<serde_json::Value>(data);
    if let Ok(line) = std::str::from_utf8(data) {
        let _ = serde_json::from_str::<AdminRequest>(line);
    }
});
