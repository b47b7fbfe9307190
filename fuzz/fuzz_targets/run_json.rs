//! `cryptobench runs import FILE` (and `compare`/`report` with JSON files):
//! any bytes are refused or read; a run that reads serialises and reads back equal.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(run) = cryptobench_core::run_json::parse_run(text, "fuzz.json") {
        let json = serde_json::to_string(&run).expect("a run serialises");
        let again = cryptobench_core::run_json::parse_run(&json, "round trip").expect("reads back");
        assert_eq!(serde_json::to_string(&again).unwrap(), json);
    }
});
