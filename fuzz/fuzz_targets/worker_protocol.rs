//! The worker protocol: a line a worker writes (or a job on its stdin) is
//! read or refused without a panic; what reads serialises and reads back.
#![no_main]

use cryptobench_core::protocol::{Job, WorkerMessage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(message) = serde_json::from_str::<WorkerMessage>(text) {
        let line = serde_json::to_string(&message).expect("serialises");
        serde_json::from_str::<WorkerMessage>(&line).expect("reads back");
    }
    if let Ok(job) = serde_json::from_str::<Job>(text) {
        let line = serde_json::to_string(&job).expect("serialises");
        serde_json::from_str::<Job>(&line).expect("reads back");
    }
});
