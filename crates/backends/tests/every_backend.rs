//! Every test here runs against every backend, one test per backend and
//! check (a table expanded by a macro, as ripgrep runs its tests per regex
//! engine); a backend that cannot be loaded on this machine is skipped with
//! the reason printed, never silently.

use cryptobench_backends::verify::{check_primitive, inputs_for, pseudo_random_bytes, verify_algorithm};
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

fn reports_itself(id: &str) {
    with_backend(id, |backend| {
        let info = backend.info();
        assert_eq!(info.id, id);
        assert!(!info.version.is_empty(), "{id}: no version");
        assert!(info.library_path.is_some(), "{id}: no library path");
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
                fn reports_itself() {
                    super::reports_itself(stringify!($id));
                }
            }
        )*

        /// The table above names every backend there is, so none goes untested.
        #[test]
        fn the_table_covers_every_backend() {
            assert_eq!(BACKEND_IDS, [$(stringify!($id)),*]);
        }
    };
}

for_every_backend!(openssl, gcrypt, nettle, rustcrypto, sodium);
