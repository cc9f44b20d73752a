//! The `session_token` target: the property `properties::session_token` states, on libFuzzer's inputs.
#![no_main]

#[allow(dead_code)]
#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|data: &[u8]| properties::session_token(data));
