//! `cryptobench verify --vectors FILE`: Wycheproof JSON and NIST CAVP .rsp
//! text are parsed without a panic, and the cases that parse run through the
//! linked-in RustCrypto backend (any key, IV, tag and message lengths) without one.
#![no_main]

use cryptobench_backends::{cavp, rustcrypto::RustcryptoBackend, vectors};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let cases = if cavp::looks_like_rsp(text) {
        cavp::parse(text, "fuzz.rsp").ok()
    } else {
        vectors::parse(text, "fuzz.json").ok()
    };
    if let Some(cases) = cases {
        let cases: Vec<_> = cases.into_iter().take(64).collect();
        let _ = vectors::run(&RustcryptoBackend::open(), &cases);
    }
});
