//! Advice on recorded runs of this project's EPYC (Zen 3 by its CPUID;
//! tests/fixtures/runs/README.md): the system's OpenSSL, ring and a newer
//! OpenSSL build side by side; the same machine with AES-NI, VAES and
//! VPCLMULQDQ masked off for the whole process (a library that lacks the
//! acceleration), at 16 KiB and at 16/64 B only; public-key cells of four
//! libraries; an arm64 run under qemu-user with the MIDR of a Cortex-A76.
//! Each test names advice the run must give and must not give.
//!
//! The recorded runs are `--quick` runs, which the gate withholds advice
//! from (tested first). To test the rules on real recorded cells, the
//! other tests raise the run's recorded budget to the default
//! ([`admitted`]): the cells stay a quick run's, read by these tests only.

use cryptobench_advice::{advise, advise_with, Advice, AlgorithmAdvice, LibraryView, Sentence};
use cryptobench_core::result::{ConfigurationResult, RunResult};
use cryptobench_core::stopping::DEFAULT_CELL_BUDGET_NS;
use cryptobench_cpu::microarch;

fn fixture(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/runs")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The recorded run with the default budget recorded, so that the gate admits it.
fn admitted(name: &str) -> RunResult {
    let mut run = fixture(name);
    run.settings.timing.cell_budget_ns = DEFAULT_CELL_BUDGET_NS;
    run
}

fn algorithm<'a>(advice: &'a Advice, title: &str) -> &'a AlgorithmAdvice {
    advice
        .algorithms
        .iter()
        .find(|a| a.title() == title)
        .unwrap_or_else(|| panic!("no {title} in {advice:#?}"))
}

/// The sentence that contains `words` (at its start or anywhere), or a failure saying what was expected.
fn sentence<'a>(a: &'a AlgorithmAdvice, words: &str, expected: &str) -> &'a Sentence {
    a.sentences
        .iter()
        .find(|s| s.text.contains(words))
        .unwrap_or_else(|| panic!("{expected}: no sentence with '{words}' in {:#?}", a.sentences))
}

fn says(a: &AlgorithmAdvice, words: &str) -> bool {
    a.sentences.iter().any(|s| s.text.contains(words))
}

/// Every sentence and its backing, and the best-here lines.
fn all_text(advice: &Advice) -> String {
    advice
        .algorithms
        .iter()
        .flat_map(|a| {
            a.best
                .iter()
                .cloned()
                .chain(a.sentences.iter().flat_map(|s| [s.text.clone(), s.backing.clone()]))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The decoding of the no-aesni run's OpenSSL capability line, as
/// crates/backends' OpenSSL view gives it (`env:~0x200000000000000:~0x60000000000`
/// clears AES-NI, VAES and VPCLMULQDQ; PCLMULQDQ and the SHA extensions stay).
fn masked_view(c: &ConfigurationResult) -> Option<LibraryView> {
    c.backend.as_ref()?.cpu_capabilities.as_ref()?;
    Some(LibraryView {
        seen: ["pclmulqdq", "sha_ni", "avx2", "ssse3"].map(String::from).to_vec(),
        nameable: ["aes", "vaes", "pclmulqdq", "vpclmulqdq", "sha_ni", "avx2", "ssse3"]
            .map(String::from)
            .to_vec(),
    })
}

/// A library whose view cannot name AES-NI at all: it has no code for it.
fn no_aes_code_view(c: &ConfigurationResult) -> Option<LibraryView> {
    c.backend.as_ref()?.cpu_capabilities.as_ref()?;
    Some(LibraryView {
        seen: vec!["pclmulqdq".into()],
        nameable: vec!["pclmulqdq".into()],
    })
}

#[test]
fn a_quick_run_gets_no_advice() {
    let advice = advise(&fixture("advice-zen3.json"), None);
    let why = advice.withheld.as_deref().expect("withheld");
    assert!(why.contains("40 ms") && why.contains("235 ms"), "{why}");
    assert!(advice.algorithms.iter().all(|a| a.sentences.is_empty()), "{advice:#?}");
    assert!(!advice.has_content());
    // Where it stands is still shown.
    assert!(algorithm(&advice, "aes-128-gcm").best.is_some());
    assert!(advise(&admitted("advice-zen3.json"), None).withheld.is_none());
}

#[test]
fn zen3_moves_aes_gcm_to_ring_and_holds_sha256_against_zen3_figures() {
    let advice = advise(&admitted("advice-zen3.json"), None);
    assert!(advice.core.starts_with("Zen 3 (CPUID family 0x19 model 0x1"), "{}", advice.core);
    let gcm = algorithm(&advice, "aes-128-gcm");
    let moved = sentence(gcm, "move to ring 0.17", "moves AES-GCM to ring");
    assert!(moved.text.starts_with("move to ring 0.17"), "{}", moved.text);
    assert!(
        moved.text.contains("× OpenSSL 3.0.22") && moved.text.contains("at 16 KiB"),
        "{}",
        moved.text
    );
    assert!(moved.backing.starts_with("measured in this run: [2]"), "{}", moved.backing);
    assert!(!says(gcm, "looks wrong"), "{gcm:#?}");
    // Zen 3's own SHA-256 figure (EPYC 7543P, Milan), not first-generation Zen's.
    let sha = algorithm(&advice, "sha256");
    let distance = sentence(sha, "the best known for this core", "a distance for sha256");
    assert!(distance.text.contains("published for Zen 3"), "{}", distance.text);
    assert!(!distance.text.contains("Zen (first Ryzen)"), "{}", distance.text);
    assert!(distance.backing.contains("lelegard/shabench"), "{}", distance.backing);
    assert!(!says(sha, "looks wrong") && !says(sha, "move to"), "{sha:#?}");
}

#[test]
fn a_zen4_run_is_never_held_against_zen1_silently() {
    for core in ["zen4", "zen5", "zen2"] {
        let advice = advise(&admitted("advice-zen3.json"), microarch::find(core));
        for a in &advice.algorithms {
            for s in &a.sentences {
                if s.text.contains("Zen (first Ryzen)") {
                    assert!(
                        s.text.contains("for reference only") && s.text.contains("a core that differs: Zen"),
                        "{core}: {}",
                        s.text
                    );
                    assert!(
                        !s.text.contains("× the best known") && !s.text.contains("looks wrong"),
                        "{}",
                        s.text
                    );
                }
            }
        }
    }
    // Zen 5 has no AES-CTR figure of its own: it says so, and names how Zen differs.
    let advice = advise(&admitted("advice-zen3.json"), microarch::find("zen5"));
    let ctr = algorithm(&advice, "aes-128-ctr");
    let none = sentence(ctr, "no figure is published for Zen 5 (aes-128-ctr)", "says none is published");
    assert!(none.text.starts_with("no figure is published"), "{}", none.text);
    assert!(none.text.contains("AVX-512, VAES and VPCLMULQDQ, which Zen lacks"), "{}", none.text);
    // Zen 4 has AES-GCM figures of its own: held against those.
    let advice = advise(&admitted("advice-zen3.json"), microarch::find("zen4"));
    let gcm = algorithm(&advice, "aes-128-gcm");
    assert!(says(gcm, "published for Zen 4"), "{gcm:#?}");
}

#[test]
fn a_library_without_aes_ni_looks_wrong_only_with_evidence() {
    let run = admitted("advice-no-aesni.json");
    let zen4 = microarch::find("zen4");
    // The library's own view of the CPU shows the cause.
    let advice = advise_with(&run, zen4, Some(&masked_view));
    let gcm = algorithm(&advice, "aes-128-gcm");
    let wrong = sentence(gcm, "looks wrong", "a build that looks wrong");
    assert!(wrong.text.contains("leaves out AES-NI/VAES"), "{}", wrong.text);
    assert!(wrong.backing.contains("lelegard/aesbench"), "{}", wrong.backing);
    // Without evidence of a cause, the gap is stated without one.
    let advice = advise(&run, zen4);
    let gcm = algorithm(&advice, "aes-128-gcm");
    assert!(!says(gcm, "looks wrong"), "{gcm:#?}");
    assert!(says(gcm, "× the best known for this core"), "{gcm:#?}");
    // A library with no code for the feature is far from the best known, not a wrong build.
    let advice = advise_with(&run, zen4, Some(&no_aes_code_view));
    let far = sentence(
        algorithm(&advice, "aes-128-gcm"),
        "is far from the best known",
        "no code for AES-NI",
    );
    assert!(far.text.contains("this library has no code for AES-NI/VAES"), "{}", far.text);
    assert!(
        !far.text.contains("looks wrong") && !far.text.contains("switched off"),
        "{}",
        far.text
    );
    // SHA-256 does not use AES-NI: the mask leaves it where it was.
    let advice = advise_with(&run, zen4, Some(&masked_view));
    assert!(!says(algorithm(&advice, "sha256"), "looks wrong"));
}

#[test]
fn a_run_measured_only_at_16_and_64_bytes_is_not_held_against_large_buffers() {
    let run = admitted("advice-16b-no-aesni.json");
    let advice = advise_with(&run, microarch::find("zen4"), Some(&masked_view));
    for a in &advice.algorithms {
        assert!(!says(a, "looks wrong"), "{}: {:#?}", a.algorithm, a.sentences);
        assert!(!says(a, "× the best known"), "{}: {:#?}", a.algorithm, a.sentences);
    }
    let gcm = algorithm(&advice, "aes-128-gcm");
    assert!(says(gcm, "the largest size measured is 64 B"), "{gcm:#?}");
}

#[test]
fn public_key_is_advised_per_operation_in_operations_and_cycles() {
    let advice = advise(&admitted("advice-pk.json"), None);
    let text = all_text(&advice);
    assert!(!text.contains("MB/s") && !text.contains("GB/s"), "{text}");
    assert!(!text.contains("0–0") && !text.contains("no measured clock"), "{text}");
    let sign = algorithm(&advice, "ed25519 sign");
    let best = sign.best.as_deref().unwrap();
    assert!(
        best.contains("operations per second") && best.contains("cycles per operation at the measured"),
        "{best}"
    );
    // Sign is held against published signing figures, never verification's.
    let distance = sentence(sign, "the best known for this core", "a distance for ed25519 sign");
    assert!(distance.text.contains("published for Zen 3"), "{}", distance.text);
    assert!(distance.backing.contains("column 'Ed sign'"), "{}", distance.backing);
    let verify = algorithm(&advice, "ed25519 verify");
    assert!(
        verify.sentences.iter().all(|s| !s.backing.contains("column 'Ed sign'")),
        "{verify:#?}"
    );
    // Faster libraries are compared operation by operation, with intervals that keep their digits.
    for a in &advice.algorithms {
        for s in a.sentences.iter().filter(|s| s.text.starts_with("move to")) {
            assert!(s.backing.contains("operations per second (nominal 95% CI"), "{}", s.backing);
        }
    }
}

#[test]
fn an_emulated_arm64_run_names_its_core_and_claims_no_distance() {
    let advice = advise(&admitted("advice-arm64-emulated.json"), None);
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
    let note = sentence(ctr, "describe the emulator", "says the figures are the emulator's");
    assert!(note.text.contains("0.74 cycles per byte for Cortex-A76"), "{}", note.text);
    assert!(note.backing.contains("arm/aesv8-armx.pl:45"), "{}", note.backing);
    // A report gives no Advice section for it: nothing was measured on the core.
    assert!(!advice.has_content());
}

#[test]
fn a_newer_version_published_faster_on_the_core_is_named_with_how_to_build_it() {
    // Held against Sapphire Rapids (--core), where aesbench publishes OpenSSL 3.0.7 and 3.2.2 side by side.
    let advice = advise(&admitted("advice-zen3.json"), microarch::find("sapphire-rapids"));
    let gcm = algorithm(&advice, "aes-128-gcm");
    let newer = sentence(gcm, "[1] OpenSSL 3.0.22", "names the newer OpenSSL");
    assert!(newer.text.starts_with("[1] OpenSSL 3.0.22"), "{}", newer.text);
    assert!(newer.text.contains("OpenSSL 3.2.2 is published at"), "{}", newer.text);
    assert!(newer.text.contains("bench/build-openssl 3.2"), "{}", newer.text);
    assert!(newer.backing.contains("column 'Xeon M9460 / Sapphire Rpd'"), "{}", newer.backing);
    // OpenSSL 4.0.3 [3] is newer than every published OpenSSL: nothing to name.
    assert!(!gcm.sentences.iter().any(|s| s.text.starts_with("[3]")), "{gcm:#?}");
}
