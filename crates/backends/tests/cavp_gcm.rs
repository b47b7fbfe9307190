//! NIST CAVP GCM decryption vectors (a sample of gcmDecrypt128.rsp: every
//! IV length — 8, 96 and 1024 bits — and every tag length — 32 to 128 bits)
//! run with their own lengths on the backends whose libraries take them:
//! OpenSSL, libgcrypt and Nettle skip nothing; RustCrypto runs the 96-bit
//! IVs with 128-bit tags and names why it skips the rest.

use cryptobench_backends::checks::{cavp, vectors};
use cryptobench_backends::open;
use cryptobench_core::result::ConfigurationSpec;

const SAMPLE: &str = include_str!("fixtures/gcmDecrypt128-sample.rsp");

fn report(id: &str) -> Option<cryptobench_core::checks::CheckReport> {
    let spec = ConfigurationSpec {
        backend: id.into(),
        library: None,
        env: Default::default(),
        worker: None,
    };
    let backend = match open(&spec) {
        Ok(b) => b,
        Err(e) => {
            cryptobench_testkit::backend_unavailable(id, e);
            return None;
        }
    };
    let cases = cavp::parse(SAMPLE, "gcmDecrypt128-sample.rsp").unwrap();
    assert_eq!(cases.len(), 168);
    let mut reports = vectors::run(backend.as_ref(), &cases);
    assert_eq!(reports.len(), 1);
    Some(reports.remove(0))
}

#[test]
fn openssl_libgcrypt_and_nettle_run_every_iv_and_tag_length() {
    for id in ["openssl", "gcrypt", "nettle"] {
        let Some(r) = report(id) else { continue };
        assert!(r.failures.is_empty(), "{id}: {:#?}", r.failures);
        assert_eq!((r.passed, r.skipped), (168, 0), "{id}: {:?}", r.skip_groups);
    }
}

#[test]
fn rustcrypto_names_the_lengths_it_skips() {
    let r = report("rustcrypto").unwrap();
    assert!(r.failures.is_empty(), "{:#?}", r.failures);
    assert_eq!(r.passed, 8, "the 96-bit IV, 128-bit tag sections");
    assert_eq!(r.skip_groups.len(), 1);
    let g = &r.skip_groups[0];
    assert_eq!(g.count, 160);
    assert_eq!(g.iv_lengths, [1, 12, 128]);
    assert_eq!(g.tag_lengths, [4, 8, 12, 13, 14, 15, 16]);
}
