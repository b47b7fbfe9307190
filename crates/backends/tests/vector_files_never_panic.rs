//! `verify --vectors FILE` with random and mutated Wycheproof JSON and CAVP
//! `.rsp` text: parsing returns cases or an error, never panics, and the
//! cases that parse run through the linked-in RustCrypto backend (whatever
//! their key, IV, tag and message lengths) without a panic. A bounded run of
//! the `vector_files` cargo-fuzz target (fuzz/README.md).

use cryptobench_backends::checks::{cavp, vectors};
use proptest::prelude::*;

const SEEDS: &[&str] = &[
    include_str!("../../../fuzz/seeds/vector_files/aes_gcm_test.json"),
    include_str!("../../../fuzz/seeds/vector_files/aes_ccm_test.json"),
    include_str!("../../../fuzz/seeds/vector_files/hmac_sha256_test.json"),
    include_str!("../../../fuzz/seeds/vector_files/aead_aes_siv_cmac_test.json"),
    include_str!("../../../fuzz/seeds/vector_files/aes_cbc_pkcs5_test.json"),
    include_str!("../../../fuzz/seeds/vector_files/gcmDecrypt128-head.rsp"),
];

fn exercise(text: &str) {
    let cases = if cavp::looks_like_rsp(text) {
        cavp::parse(text, "prop.rsp").ok()
    } else {
        vectors::parse(text, "prop.json").ok()
    };
    if let Some(cases) = cases {
        let _ = vectors::run(cryptobench_backends::libraries::open_reference().unwrap().as_ref(), &cases);
    }
}

fn mutated() -> impl Strategy<Value = String> {
    (
        0..SEEDS.len(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..10),
    )
        .prop_map(|(i, edits)| {
            let mut bytes = SEEDS[i].as_bytes().to_vec();
            for (at, byte, kind) in edits {
                if bytes.is_empty() {
                    bytes.push(byte);
                    continue;
                }
                let at = at.index(bytes.len());
                match kind {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

/// A CAVP block with random hex of random lengths.
fn rsp_block() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(128u32), Just(192), Just(256), 0u32..1024],
        "[0-9a-fA-F]{0,80}",
        "[0-9a-f]{0,40}",
        "[0-9a-f]{0,40}",
        "[0-9a-f]{0,40}",
        "[0-9a-f]{0,36}",
        any::<bool>(),
    )
        .prop_map(|(bits, key, iv, ct, aad, tag, fail)| {
            let end = if fail { "FAIL".to_string() } else { format!("PT = {ct}") };
            format!("[Keylen = {bits}]\n\nCount = 0\nKey = {key}\nIV = {iv}\nCT = {ct}\nAAD = {aad}\nTag = {tag}\n{end}\n")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_text(text in "\\PC{0,200}") {
        exercise(&text);
    }

    #[test]
    fn mutated_files(text in mutated()) {
        exercise(&text);
    }

    #[test]
    fn cavp_blocks_of_any_lengths(blocks in prop::collection::vec(rsp_block(), 1..4)) {
        exercise(&format!("# CAVS\n{}", blocks.concat()));
    }
}
