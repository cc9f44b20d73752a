//! The `slug` target: the property `properties::slug` states, on libFuzzer's inputs.
#![no_main]

#[allow(dead_code)]
#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|input: &str| properties::slug(input));
