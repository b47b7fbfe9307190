//! `cryptobench import openssl-speed FILE`: any text is parsed without a
//! panic, and whatever parses becomes a run that serialises and reads back.
#![no_main]

use cryptobench_core::openssl_speed;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(parsed) = openssl_speed::parse(text) {
        let run = openssl_speed::to_run(&parsed, "fuzz.txt", "2026-01-01T00:00:00Z");
        let json = serde_json::to_string(&run).expect("a run serialises");
        cryptobench_core::run_json::parse_run(&json, "round trip").expect("an imported run reads back");
    }
});
