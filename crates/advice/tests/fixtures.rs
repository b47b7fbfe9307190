//! Advice on recorded runs of three machines (tests/fixtures/runs/README.md):
//! this EPYC (Zen 3 by its CPUID) with the system's OpenSSL, ring and a
//! newer OpenSSL build side by side; the same machine with AES-NI, VAES and VPCLMULQDQ
//! masked off for the whole process (a library that lacks the
//! acceleration); an arm64 run under qemu-user with the MIDR of a
//! Cortex-A76. Each test names advice the run must give and must not give.

use cryptobench_advice::{advise, Advice, AlgorithmAdvice};
use cryptobench_core::result::RunResult;

fn fixture(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/runs")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn algorithm<'a>(advice: &'a Advice, id: &str) -> &'a AlgorithmAdvice {
    advice
        .algorithms
        .iter()
        .find(|a| a.algorithm == id)
        .unwrap_or_else(|| panic!("no {id} in {advice:#?}"))
}

fn says(a: &AlgorithmAdvice, words: &str) -> bool {
    a.sentences.iter().any(|s| s.text.contains(words))
}

#[test]
fn zen3_moves_aes_gcm_to_ring_and_holds_sha256_against_its_line() {
    let advice = advise(&fixture("advice-zen3.json"), None);
    assert!(advice.core.starts_with("Zen 3 (CPUID family 0x19 model 0x1"), "{}", advice.core);
    let gcm = algorithm(&advice, "aes-128-gcm");
    let moved = gcm
        .sentences
        .iter()
        .find(|s| s.text.starts_with("move to ring 0.17"))
        .expect("moves AES-GCM to ring");
    assert!(
        moved.text.contains("× OpenSSL 3.0.22") && moved.text.contains("at 16 KiB"),
        "{}",
        moved.text
    );
    assert!(moved.backing.starts_with("measured in this run: [2]"), "{}", moved.backing);
    assert!(!says(gcm, "looks wrong"), "{gcm:#?}");
    let sha = algorithm(&advice, "sha256");
    let distance = sha
        .sentences
        .iter()
        .find(|s| s.text.contains("the best known for this core"))
        .expect("a distance for sha256");
    assert!(
        distance
            .text
            .contains("2.05 published for Zen (first Ryzen) (no figure is published for Zen 3"),
        "{}",
        distance.text
    );
    assert!(
        distance
            .backing
            .contains("dot-asm/cryptogams@9444b2d53bae x86_64/sha512-x86_64.pl:96"),
        "{}",
        distance.backing
    );
    assert!(!says(sha, "looks wrong") && !says(sha, "move to"), "{sha:#?}");
}

#[test]
fn a_library_without_aes_ni_looks_wrong_and_is_not_at_the_best_known() {
    let advice = advise(&fixture("advice-no-aesni.json"), None);
    let ctr = algorithm(&advice, "aes-128-ctr");
    let wrong = ctr
        .sentences
        .iter()
        .find(|s| s.text.contains("looks wrong"))
        .expect("a build that looks wrong");
    assert!(wrong.text.contains("the CPU offers AES-NI/VAES, so"), "{}", wrong.text);
    assert!(wrong.backing.contains("x86_64/aesni-x86_64.pl:179"), "{}", wrong.backing);
    assert!(!says(ctr, "at the best known"), "{ctr:#?}");
    // SHA-256 does not use AES-NI: the mask leaves it where it was.
    let sha = algorithm(&advice, "sha256");
    assert!(!says(sha, "looks wrong"), "{sha:#?}");
}

#[test]
fn an_emulated_arm64_run_names_its_core_and_claims_no_distance() {
    let advice = advise(&fixture("advice-arm64-emulated.json"), None);
    assert!(
        advice.core.starts_with("Cortex-A76 (MIDR implementer 0x41 part 0xd0b"),
        "{}",
        advice.core
    );
    assert!(advice.core.contains("under qemu-aarch64"), "{}", advice.core);
    for a in &advice.algorithms {
        for words in ["at the best known", "× the best known", "looks wrong", "move to"] {
            assert!(!says(a, words), "{}: {:#?}", a.algorithm, a.sentences);
        }
        // Emulated configurations are no way to run the algorithm here.
        assert!(a.best.is_none(), "{a:#?}");
    }
    let ctr = algorithm(&advice, "aes-128-ctr");
    let note = ctr
        .sentences
        .iter()
        .find(|s| s.text.contains("describe the emulator"))
        .expect("says the figures are the emulator's");
    assert!(note.text.contains("0.74 cycles per byte for Cortex-A76"), "{}", note.text);
    assert!(note.backing.contains("arm/aesv8-armx.pl:45"), "{}", note.backing);
    // A report gives no Advice section for it: nothing was measured on the core.
    assert!(!advice.has_content());
}
