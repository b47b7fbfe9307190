//! `cryptobench report`: one self-contained HTML file, checked in a real
//! browser (headless Chromium: no console errors, charts drawn, a
//! screenshot under target/ for a person to look at), and Markdown.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cryptobench;

const RUNS: [&str; 2] = ["tests/fixtures/runs/aes-mask.json", "tests/fixtures/runs/three-builds.json"];

fn write_report(dir: &Path) -> (PathBuf, String) {
    let html = dir.join("report.html");
    let out = cryptobench().arg("report").args(RUNS).arg("--html").arg(&html).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&html).unwrap();
    (html, text)
}

#[test]
fn the_html_file_holds_everything_and_fetches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = write_report(dir.path());
    assert!(html.starts_with("<!DOCTYPE html>"));
    for needle in [
        "Environment",
        "Results",
        "Comparison",
        "Charts",
        "on/off factors",
        "OPENSSL_ia32cap=~0x200000000000000",
        "OpenSSL 1.1.1w",
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    // 3 line charts + 3 bar charts at 16 KiB (one per algorithm) + 1 factor chart.
    assert_eq!(html.matches("<svg").count(), 7);
    for external in ["<script", "src=\"http", "href=\"http", "url(http", "@import"] {
        assert!(!html.contains(external), "the report must not load {external}");
    }
    // No leftover temporary file beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn without_masks_the_report_says_there_are_no_factors() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("r.html");
    let out = cryptobench().args(["report", RUNS[1], "--html"]).arg(&html).output().unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(
        text.contains("no on/off factors to show"),
        "the report says so instead of inventing any"
    );
}

#[test]
fn markdown_report() {
    let out = cryptobench().args(["report", RUNS[0], "--format", "markdown"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| aes-mask | aes-128-gcm enc message | 16 KiB | [1] vs [2] |"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
    })
}

fn headless(browser: &Path, profile: &Path) -> Command {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

#[test]
fn the_report_renders_in_a_real_browser() {
    let Some(browser) = chromium() else {
        cryptobench_testkit::missing("chromium", "not on PATH (.ci/run installs Debian's chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (html, _) = write_report(dir.path());
    let url = format!("file://{}", html.display());

    let out = headless(&browser, &dir.path().join("profile-dom"))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    // Chromium logs page console messages as "CONSOLE(line)" and load failures as net errors.
    let problems: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("ERR_FILE_NOT_FOUND") || l.contains("ERR_BLOCKED"))
        .collect();
    assert!(problems.is_empty(), "console errors: {problems:#?}");
    // The parsed document holds the charts with their drawn lines and bars.
    assert_eq!(dom.matches("<svg").count(), 7, "charts in the DOM");
    assert!(dom.matches("<polyline").count() >= 8, "lines drawn");
    assert!(dom.matches("<rect").count() >= 12, "bars drawn");
    assert!(dom.contains("aes-128-gcm enc message at 16 KiB"));

    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    let _ = std::fs::remove_file(&shot);
    let out = headless(&browser, &dir.path().join("profile-shot"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1100,5000")
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&shot).expect("screenshot written");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    eprintln!("screenshot of the report: {}", shot.display());
}
