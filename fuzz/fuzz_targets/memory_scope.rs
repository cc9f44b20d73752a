//! The `memory_scope` target: the property `properties::memory_scope` states, on libFuzzer's inputs.
#![no_main]

#[allow(dead_code)]
#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|input: &str| properties::memory_scope(input));
