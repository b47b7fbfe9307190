//! The timed loops allocate nothing on the heap (docs/METHOD.md, "Equal
//! work"), against every library of the registry, as every_backend.rs
//! runs its checks: C's allocations (`malloc` and its siblings, counted on
//! glibc by tests/c_heap) and Rust's (the counting `#[global_allocator]`
//! of tests/common) are counted apart, in every cell shape of every
//! algorithm a library offers.
//!
//! A library names what it cannot avoid (a named exception,
//! `Primitive::allocates`) and on which heap (`Heap::C`: its C code;
//! `Heap::Rust`: its own Rust, as a Rust crate). The test holds it to
//! exactly that: no allocation in a cell it does not name; none in Rust
//! under a C library's exception (what Rust allocates there is the
//! harness's or the backend's glue, never the library's); the same count in
//! every call after the first; and every exception it names must happen in
//! some cell shape it names it for, at 16 B or 4 KiB, on its heap (a named
//! allocation that never happens names more than the library does).

mod c_heap;
mod common;

use std::collections::BTreeMap;

use cryptobench_backends::backend::{inputs_for, pseudo_random_bytes};
use cryptobench_backends::registry::Entry;
use cryptobench_backends::{Allocation, Backend, BackendError, Heap, Primitive, Support};
use cryptobench_core::CATALOG;

use c_heap::{heap_allocations_during, COUNTS_C};
use common::{allocations_during, cell_shapes, each_library, public_key_only, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The heap allocations of some timed calls: all of them (C's `malloc`,
/// through which Rust's allocator goes too, where COUNTS_C), and Rust's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counted {
    all: u64,
    rust: u64,
}

impl Counted {
    /// Those of the C code alone (all of them where C's are not counted).
    fn c(self) -> u64 {
        if COUNTS_C {
            self.all - self.rust
        } else {
            0
        }
    }

    fn on(self, heap: Heap) -> u64 {
        match heap {
            Heap::C => self.c(),
            Heap::Rust => self.rust,
        }
    }
}

/// `iterations` timed calls of `p`, counted.
fn timed(p: &mut Box<dyn Primitive + '_>, iterations: u64, buf: &mut [u8], what: &str) -> Counted {
    let mut result = Ok(());
    let mut rust = 0;
    let all = heap_allocations_during(|| rust = allocations_during(|| result = p.run(iterations, buf)));
    result.unwrap_or_else(|e| panic!("{what}: {e}"));
    Counted { all: all.max(rust), rust }
}

/// What one cell shape of a named exception allocated, in its first call,
/// in one later call and in five later calls.
struct Excepted {
    first: Counted,
    one: Counted,
    five: Counted,
}

/// Why a cell shape with a named exception breaks the rules, if it does.
fn broken(cell: &str, named: &Allocation, e: &Excepted) -> Option<String> {
    let rust = e.first.rust + e.one.rust + e.five.rust;
    if named.heap == Heap::C && rust > 0 {
        return Some(format!(
            "{cell} allocates in Rust under a C library's named exception ({rust} in 7 calls: the harness's or the \
             backend's, not the library's): {}",
            named.why
        ));
    }
    let (one, five) = (e.one.on(named.heap), e.five.on(named.heap));
    if five != 5 * one || e.five.all != 5 * e.one.all {
        return Some(format!(
            "{cell} allocates {five} times in 5 calls, {one} in one: not the same in every call ({})",
            named.why
        ));
    }
    None
}

/// The named exceptions of a library, by the cell group they are named for
/// (algorithm, operation, mode label), and whether they happened in it.
type Happened = BTreeMap<(String, &'static str, String), (Allocation, bool)>;

fn timed_loops_allocate_nothing_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut checked = 0;
    let mut excepted: BTreeMap<&'static str, Vec<String>> = Default::default();
    let mut happened: Happened = Default::default();
    let mut failures = Vec::new();
    for alg in CATALOG.iter().filter(|a| backend.support(a) == Support::Supported) {
        for size in [16, 4096] {
            if alg.size_problem(size).is_some() {
                continue;
            }
            for cell in cell_shapes(alg, size) {
                let inputs = inputs_for(alg, 9);
                let mut buf = pseudo_random_bytes(3, size);
                let mut p = match backend.prepare(&cell, alg, &inputs, &buf) {
                    Ok(p) => p,
                    Err(BackendError::Unsupported(_)) => continue,
                    Err(e) => panic!("{id}/{cell:?}: {e}"),
                };
                let what = format!("{id}/{}", cell.describe());
                checked += 1;
                let Some(named) = p.allocates() else {
                    let five = timed(&mut p, 5, &mut buf, &what);
                    if five.all > 0 {
                        failures.push(format!(
                            "{} allocates {} times in 5 timed calls ({} in Rust), naming no exception",
                            cell.describe(),
                            five.all,
                            five.rust
                        ));
                    }
                    continue;
                };
                // State a library grows lazily (a table sized by the longest message
                // so far) may allocate in the first call only: counted, reported.
                let e = Excepted {
                    first: timed(&mut p, 1, &mut buf, &what),
                    one: timed(&mut p, 1, &mut buf, &what),
                    five: timed(&mut p, 5, &mut buf, &what),
                };
                failures.extend(broken(&cell.describe(), &named, &e));
                let on_heap = e.first.on(named.heap) + e.one.on(named.heap) + e.five.on(named.heap);
                let group = (alg.id.to_string(), cell.operation.short(), cell.mode_label());
                happened.entry(group).or_insert((named, false)).1 |= on_heap > 0;
                if e.first.all + e.one.all + e.five.all > 0 {
                    let counts = format!(
                        "{} ({} in the first call, {} in each later one; Rust: {})",
                        cell.describe(),
                        e.first.all,
                        e.one.all,
                        e.first.rust + e.one.rust + e.five.rust
                    );
                    excepted.entry(named.why).or_default().push(counts);
                }
            }
        }
    }
    // A C library's exception can be seen to happen only where C's allocations are counted.
    for ((alg, op, mode), (named, seen)) in &happened {
        if !seen && (COUNTS_C || named.heap == Heap::Rust) {
            failures.push(format!(
                "{alg} {op} {mode} names an allocation that does not happen (at 16 B and 4 KiB, on the {:?} heap): {}",
                named.heap, named.why
            ));
        }
    }
    assert!(checked > 0 || public_key_only(backend), "{id}: no cell could be prepared");
    assert!(
        failures.is_empty(),
        "{id}: {} cell shapes break the allocation rules:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let excepted_cells: usize = excepted.values().map(Vec::len).sum();
    let counted = if COUNTS_C {
        "in Rust or C"
    } else {
        "in Rust (C's malloc is counted on glibc only)"
    };
    eprintln!(
        "{id}: {} of {checked} cell shapes allocate nothing {counted} while timed",
        checked - excepted_cells
    );
    for (why, cells) in &excepted {
        eprintln!(
            "{id}: {} cell shapes allocate by a named exception: {why}\n    {}",
            cells.len(),
            cells.join("\n    ")
        );
    }
}

/// The counters see what they must: C's `malloc` called directly, from
/// inside libc (`strdup`) and from a library loaded at run time (OpenSSL's
/// `CRYPTO_malloc`, where libcrypto is installed), each in the count of
/// all allocations and not in Rust's; and Rust's allocations once each in
/// both.
#[test]
fn the_allocation_counters_see_c_and_rust_allocations() {
    assert_eq!(heap_allocations_during(|| {}), 0);
    let mut rust = 0;
    let all = heap_allocations_during(|| rust = allocations_during(|| drop(std::hint::black_box(Box::new([7u8; 100])))));
    assert_eq!(rust, 1, "a Box is one allocation of Rust's");
    if !COUNTS_C {
        cryptobench_testkit::platform_lacks("C's allocator counted", "only glibc's malloc is replaced by this test");
        return;
    }
    assert_eq!(all, 1, "Rust's allocation goes through malloc once");
    let c_only = |f: &dyn Fn()| {
        let mut rust = 0;
        let all = heap_allocations_during(|| rust = allocations_during(f));
        (all, rust)
    };
    // SAFETY: malloc and free of C, paired.
    let direct = c_only(&|| unsafe { libc::free(std::hint::black_box(libc::malloc(100))) });
    assert_eq!(direct, (1, 0), "malloc called through libc: C's, not Rust's");
    let text = c"a string";
    // SAFETY: strdup copies a NUL-terminated string into memory from malloc, freed here.
    let inside_libc = c_only(&|| unsafe { libc::free(libc::strdup(text.as_ptr()).cast()) });
    assert_eq!(inside_libc, (1, 0), "libc's own call of malloc (strdup)");
    for name in ["libcrypto.so.3", "libcrypto.so.1.1"] {
        // SAFETY: loading libcrypto runs its initialisers, as the openssl backend does.
        let Ok(lib) = (unsafe { libloading::Library::new(name) }) else {
            continue;
        };
        type Malloc = unsafe extern "C" fn(usize, *const std::ffi::c_char, std::ffi::c_int) -> *mut std::ffi::c_void;
        type Free = unsafe extern "C" fn(*mut std::ffi::c_void, *const std::ffi::c_char, std::ffi::c_int);
        // SAFETY: OpenSSL's documented signatures (CRYPTO_malloc(3)).
        let (m, f) = unsafe {
            (
                lib.get::<Malloc>(b"CRYPTO_malloc\0").unwrap(),
                lib.get::<Free>(b"CRYPTO_free\0").unwrap(),
            )
        };
        // SAFETY: an allocation of OpenSSL freed by OpenSSL.
        let dlopened = c_only(&|| unsafe { f(m(100, c"t".as_ptr(), 1), c"t".as_ptr(), 1) });
        assert_eq!(dlopened, (1, 0), "{name}'s CRYPTO_malloc");
        return;
    }
    cryptobench_testkit::missing("libcrypto", "the run-time-loaded part of the counter's proof needs it");
}

/// The rules the test holds a named exception to, on counts made up here.
#[test]
fn a_named_exception_is_held_to_its_heap_and_its_count() {
    let c = Allocation::in_c("a C library's call");
    let counted = |all, rust| Counted { all, rust };
    let steady = Excepted {
        first: counted(3, 0),
        one: counted(2, 0),
        five: counted(10, 0),
    };
    assert_eq!(broken("cell", &c, &steady), None);
    let harness = Excepted {
        five: counted(15, 5),
        ..steady
    };
    assert!(broken("cell", &c, &harness).unwrap().contains("in Rust"));
    let growing = Excepted {
        five: counted(11, 0),
        ..steady
    };
    assert!(broken("cell", &c, &growing).unwrap().contains("not the same"));
    let rust = Allocation::in_rust("a Rust crate's call");
    let crate_allocates = Excepted {
        first: counted(1, 1),
        one: counted(1, 1),
        five: counted(5, 5),
    };
    assert_eq!(broken("cell", &rust, &crate_allocates), None);
}

#[test]
fn timed_loops_allocate_nothing() {
    each_library(timed_loops_allocate_nothing_in);
}
