//! Every test here runs against every backend this machine can load (as
//! ripgrep runs its tests per regex engine); a backend that cannot be
//! loaded is skipped with the reason printed, never silently.

use cryptobench_backends::verify::{check_primitive, inputs_for, pseudo_random_bytes, verify_algorithm};
use cryptobench_backends::{open, Backend, BackendError, BACKEND_IDS};
use cryptobench_core::result::{ConfigurationSpec, VerificationOutcome};
use cryptobench_core::{CellSpec, Mode, Operation, CATALOG};

fn each_backend(test: impl Fn(&str, &dyn Backend)) {
    for id in BACKEND_IDS {
        let spec = ConfigurationSpec {
            backend: id.to_string(),
            library: None,
            env: Default::default(),
        };
        match open(&spec) {
            Ok(backend) => test(id, backend.as_ref()),
            Err(e) => eprintln!("SKIPPED backend {id}: {e}"),
        }
    }
}

#[test]
fn every_supported_algorithm_passes_verification() {
    each_backend(|id, backend| {
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

#[test]
fn timed_primitives_compute_what_was_verified() {
    each_backend(|id, backend| {
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

#[test]
fn tampered_message_fails_inside_the_timed_loop() {
    each_backend(|id, backend| {
        let alg = cryptobench_core::catalog::find("aes-128-gcm").unwrap();
        let cell = CellSpec {
            algorithm: alg.id.into(),
            operation: Operation::Decrypt,
            mode: Mode::Message,
            rekey: false,
            size: 32,
            aad: 13,
        };
        let inputs = inputs_for(alg, 1);
        let Ok(mut p) = backend.prepare(&cell, alg, &inputs, &[7u8; 32]) else {
            eprintln!("SKIPPED {id}: no aes-128-gcm");
            return;
        };
        let mut buf = vec![0u8; 32];
        p.run(3, &mut buf).unwrap();
        assert_eq!(buf, vec![7u8; 32], "{id}");
        // A buffer of another length is refused, not read out of bounds.
        assert!(p.run(1, &mut [0u8; 16]).is_err());
    });
}
