//! The answer first, public key included, within a terminal's width: the
//! terminal table opens with the fastest per algorithm and operation (or,
//! for one library, whether it uses the CPU's crypto instructions), and the
//! reports' "Which is fastest?" lists public-key operations, whose charts
//! are labelled in operations per second. On a run measured by cryptobench
//! (tests/fixtures/runs/pk-answer.json: OpenSSL and libgcrypt, AES-GCM,
//! SHA-256 and RSA-2048, `--quick`).

use cryptobench_core::audit::LibraryMismatch;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;
use cryptobench_report::width::TERMINAL;
use cryptobench_report::{render, render_with, Detail, Format};

fn pk_answer() -> RunResult {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/runs/pk-answer.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lines from the one starting with `title` to the first blank line.
fn block<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(title))
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_terminal_opens_with_the_fastest_public_key_included() {
    let run = pk_answer();
    let text = render(&run, Format::Table, Unit::Mb);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("which is fastest"))
        .unwrap_or_else(|| panic!("no answer:\n{text}"));
    assert!(at < 15, "the answer starts at line {}:\n{text}", at + 1);
    let answer = block(&text, "which is fastest");
    let row = |name: &str| {
        answer
            .iter()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{}", answer.join("\n")))
    };
    for name in ["aes-128-gcm enc message", "sha256", "rsa2048 sign", "rsa2048 verify"] {
        let line = row(name);
        assert!(line.contains("OpenSSL 3.0.22") || line.contains("libgcrypt 1.10.1"), "{line}");
        // A lead by the one rule, and the factor over the slowest.
        assert!(["clear", "tie (2)", "cannot tell"].iter().any(|lead| line.contains(lead)), "{line}");
        assert!(line.trim_end().ends_with('×'), "{line}");
    }
    assert!(row("rsa2048 sign").contains("op/s") && row("sha256").contains("MB/s"));
    // The symmetric rows at both sizes: the 16 B standing on the row after.
    assert!(answer.iter().any(|l| l.trim_start().starts_with("16 B")), "{}", answer.join("\n"));
    assert!(lines.iter().all(|l| l.chars().count() <= TERMINAL), "{text}");
}

#[test]
fn several_configurations_take_a_row_each_and_a_line_each_before_it() {
    let run = pk_answer();
    let text = render(&run, Format::Table, Unit::Mb);
    // One line per configuration: name and version, no path, no capability string.
    assert!(text.lines().any(|l| l == "OpenSSL 3.0.22 — OpenSSL 3.0.22 25 Aug 2026"), "{text}");
    assert!(text.lines().any(|l| l == "libgcrypt 1.10.1"), "{text}");
    assert!(!text.contains("CPUINFO") && !text.contains("/libcrypto.so"), "{text}");
    // The table: a row per configuration, the figures of every algorithm side by side.
    let lines: Vec<&str> = text.lines().collect();
    let heading = lines
        .iter()
        .position(|l| l.starts_with(" config "))
        .unwrap_or_else(|| panic!("{text}"));
    let table: Vec<&str> = lines[heading - 1..].iter().take_while(|l| !l.is_empty()).copied().collect();
    assert_eq!(table.len(), 4, "titles, headings, two configurations: {text}");
    assert!(
        table[1].contains("16 KiB") && table[1].contains("sign/s") && table[1].contains("verify/s"),
        "{text}"
    );
    assert!(
        table.iter().any(|l| l.contains("aes-128-gcm enc message") && l.contains("rsa2048")),
        "{text}"
    );
    for label in ["OpenSSL 3.0.22", "libgcrypt 1.10.1"] {
        assert_eq!(table.iter().filter(|l| l.starts_with(&format!(" {label} "))).count(), 1, "{text}");
    }
    // The notes: one line per kind.
    for kind in ["verified before timing", "clock:", "overhead model"] {
        assert_eq!(text.lines().filter(|l| l.starts_with(kind)).count(), 1, "{kind}: {text}");
    }
}

#[test]
fn verbose_prints_every_file_capability_string_and_note() {
    let run = pk_answer();
    let text = render_with(&run, Format::Table, Unit::Mb, Detail::EveryCell);
    assert!(text.contains("(/usr/lib/x86_64-linux-gnu/libcrypto.so.3)"), "{text}");
    assert!(text.contains("    CPUINFO: OPENSSL_ia32cap="), "{text}");
    assert!(
        text.contains("overhead model, time per call = a + n / r∞:\n  OpenSSL 3.0.22: aes-128-gcm enc message:"),
        "{text}"
    );
    let verified = text.lines().filter(|l| l.contains(": verified before timing:")).count();
    assert_eq!(verified, 2, "one line per configuration: {text}");
}

/// The run reduced to its first configuration, OpenSSL, whose capability
/// vector agrees with the CPU (AES-NI, PCLMULQDQ, SHA-NI, VAES, VPCLMULQDQ).
fn openssl_alone() -> RunResult {
    let mut run = pk_answer();
    run.configurations.truncate(1);
    run
}

#[test]
fn one_library_says_in_one_line_whether_it_uses_the_cpus_crypto_instructions() {
    let run = openssl_alone();
    let text = render(&run, Format::Table, Unit::Mb);
    let at = text
        .lines()
        .position(|l| l.starts_with("hardware: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(at < 5, "{text}");
    let line = text.lines().nth(at).unwrap();
    assert!(line.starts_with("hardware: OpenSSL 3.0.22 uses "), "{line}");
    for feature in ["AES-NI", "PCLMULQDQ", "SHA-NI", "VAES"] {
        assert!(line.contains(feature), "{feature}: {line}");
    }
    assert!(!line.contains("does not use"), "{line}");
    assert_eq!(text.lines().filter(|l| l.starts_with("hardware: ")).count(), 1);
    assert!(!text.contains("which is fastest"), "one configuration has no contest: {text}");
}

#[test]
fn a_library_that_leaves_an_instruction_unused_is_told() {
    let mut run = openssl_alone();
    // As a library whose vector lacks VAES on a CPU with it (an old build, a mask) records it.
    let view = run.configurations[0].capability_view.as_mut().expect("recorded by run");
    view.features.retain(|f| f.name != "vaes");
    view.mismatches.push(LibraryMismatch {
        feature: "vaes".into(),
        message: "the CPU offers vaes but OpenSSL does not use it: expect unaccelerated code paths".into(),
    });
    let text = render(&run, Format::Table, Unit::Mb);
    let line = text
        .lines()
        .find(|l| l.starts_with("hardware: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("does not use VAES, which the CPU offers"), "{line}");
    assert!(line.contains("it uses AES-NI"), "{line}");

    // Several libraries: the one that differs is named, on one line under the answer.
    let mut several = pk_answer();
    several.configurations[0].capability_view = run.configurations[0].capability_view.clone();
    let text = render(&several, Format::Table, Unit::Mb);
    let hardware: Vec<&str> = text.lines().filter(|l| l.starts_with("hardware: ")).collect();
    assert_eq!(hardware.len(), 1, "{text}");
    assert!(hardware[0].contains("OpenSSL 3.0.22 does not use VAES"), "{}", hardware[0]);
    assert!(hardware[0].contains("the other 1 that report"), "{}", hardware[0]);
}

#[test]
fn the_reports_answer_for_public_key_too() {
    let runs = vec![(String::new(), pk_answer())];
    let markdown = cryptobench_report::report_markdown::render(&runs, Unit::Mb, Detail::Summary);
    let answer = markdown
        .split("## Which is fastest?")
        .nth(1)
        .expect("a comparison answers")
        .split("\n## ")
        .next()
        .unwrap();
    for row in ["| rsa2048 sign |", "| rsa2048 verify |"] {
        assert!(answer.contains(row), "{row}: {answer}");
    }
    assert!(answer.contains(" op/s"), "{answer}");

    let html = cryptobench_report::html::render(&runs, Unit::Mb).unwrap();
    let start = html.find("<section id=\"answer\">").unwrap();
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    for row in ["rsa2048 sign", "rsa2048 verify"] {
        assert!(section.contains(&format!(">{row}<")), "{row}");
    }
}

#[test]
fn public_key_charts_are_labelled_in_operations_per_second() {
    let html = cryptobench_report::html::render(&[(String::new(), pk_answer())], Unit::Mb).unwrap();
    let start = html.find("<section id=\"public-key\">").expect("a public-key section");
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    assert!(!section.contains("log10"), "the axis is labelled in operations per second");
    assert!(section.contains("operations per second (logarithmic axis"), "axis description");
    // RSA-2048 signs hundreds to thousands a second here, and verifies tens of thousands: decades from 10 to 10k.
    for tick in ["10", "100", "1k", "10k"] {
        assert!(section.contains(&format!(">\n{tick}\n<")), "tick {tick} missing");
    }
}
