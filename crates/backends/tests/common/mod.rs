//! What the per-library tests share: every library of the registry in
//! turn, each failure collected and reported with its library, and the
//! heap allocations of a timed loop counted.
//!
//! `CRYPTOBENCH_TEST_ONLY=gcrypt,nettle` limits a run to some libraries
//! while working on them; under CI=true it is refused, except for libraries
//! a cargo feature builds in (the features pass of .ci/run).

#![allow(dead_code)] // each test binary uses its own part

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use cryptobench_backends::registry::Entry;
use cryptobench_backends::{open, Backend, Support, LIBRARIES};
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation, CATALOG};

/// Counts the heap allocations of each thread, so that a test can assert
/// that a timed loop allocates nothing.
pub struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // try_with: the allocator also runs while a thread's locals are torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Heap allocations this thread makes while `f` runs.
pub fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Every cell shape a backend can prepare for `alg`: operation × mode × rekey.
pub fn cell_shapes(alg: &AlgorithmSpec, size: usize) -> Vec<CellSpec> {
    let ops: &[Operation] = match alg.class {
        AlgorithmClass::Digest => &[Operation::Digest],
        AlgorithmClass::Mac => &[Operation::Mac],
        _ => &[Operation::Encrypt, Operation::Decrypt],
    };
    let mut cells = Vec::new();
    for &operation in ops {
        for mode in [Mode::Stream, Mode::Message] {
            for rekey in [false, true] {
                cells.push(CellSpec {
                    algorithm: alg.id.into(),
                    operation,
                    mode,
                    rekey,
                    size,
                    aad: 13,
                    unit: cryptobench_core::cell::CellUnit::Bytes,
                });
            }
        }
    }
    cells
}

/// A library with public key and no algorithm of the symmetric catalog
/// (post-quantum only): pk_every_backend.rs checks it; here it has nothing
/// to check, which is not a failure.
pub fn public_key_only(backend: &dyn Backend) -> bool {
    backend.pk().is_some() && CATALOG.iter().all(|a| backend.support(a) != Support::Supported)
}

pub fn spec(id: &str) -> ConfigurationSpec {
    ConfigurationSpec {
        backend: id.to_string(),
        library: None,
        env: Default::default(),
        worker: None,
    }
}

/// The libraries this run tests: all of the registry, or those named in
/// `CRYPTOBENCH_TEST_ONLY`.
pub fn libraries() -> Vec<&'static Entry> {
    match std::env::var("CRYPTOBENCH_TEST_ONLY") {
        Ok(only) => {
            let chosen: Vec<&'static Entry> = LIBRARIES
                .iter()
                .copied()
                .filter(|e| only.split(',').any(|id| id.trim() == e.id))
                .collect();
            // Under CI every library is tested; a second pass that only adds
            // cargo features (.ci/run) may name the libraries those build in.
            assert!(
                !cryptobench_testkit::under_ci() || (!chosen.is_empty() && chosen.iter().all(|e| e.feature.is_some())),
                "CRYPTOBENCH_TEST_ONLY={only} under CI: every library must be tested there (only a pass that adds \
                 cargo features may name the libraries they build in)"
            );
            chosen
        }
        Err(_) => LIBRARIES.to_vec(),
    }
}

/// Runs `test` on every library that opens here (the others skip with the
/// reason, a failure under CI unless excused), then fails listing every
/// library whose test failed, with its message.
pub fn each_library(test: impl Fn(&'static Entry, &dyn Backend)) {
    let mut failed = Vec::new();
    let mut tested = 0;
    for entry in libraries() {
        let backend = match open(&spec(entry.id)) {
            Ok(b) => b,
            Err(e) => {
                let outcome = catch_unwind(|| cryptobench_testkit::backend_unavailable(entry.id, &e));
                if let Err(panic) = outcome {
                    failed.push(format!("{}: {}", entry.id, message(&panic)));
                }
                continue;
            }
        };
        tested += 1;
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| test(entry, backend.as_ref()))) {
            failed.push(format!("{}: {}", entry.id, message(&panic)));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of the libraries failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    // RustCrypto is linked into every build: with none tested, the test tested nothing.
    assert!(tested > 0, "no library could be opened, so nothing was tested");
    eprintln!("{tested} libraries tested");
}

fn message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panicked".into())
}
