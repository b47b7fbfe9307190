//! `--sizes` and `--algos`: any text gives sizes within the limits or an
//! error, and algorithm names from the catalog or an error naming the culprit.
#![no_main]

use cryptobench_core::catalog;
use cryptobench_core::sizes::{parse_size_list, MAX_SIZE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(sizes) = parse_size_list(text) {
        assert!(!sizes.is_empty() && sizes.iter().all(|&s| (1..=MAX_SIZE).contains(&s)));
    }
    let names: Vec<&str> = text.split(',').collect();
    match catalog::select(&names, &[]) {
        Ok(s) => assert!(s.algorithms.iter().all(|a| catalog::find(a.id).is_some())),
        Err(e) => assert!(names.iter().any(|n| n.trim() == e.0)),
    }
});
