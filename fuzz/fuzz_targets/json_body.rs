//! The `json_body` target: the property `properties::json_body` states, on libFuzzer's inputs.
#![no_main]

#[allow(dead_code)]
#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|data: &[u8]| properties::json_body(data));
