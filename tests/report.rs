//! `cryptobench report`: one self-contained HTML file that answers first
//! and names every configuration, checked as a person sees it in a real
//! browser (headless Chromium) at desktop and phone widths; and Markdown.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cryptobench, FAST};

const AUDIT: &str = "tests/fixtures/runs/audit.json";
const ALL_LIBRARIES: &str = "tests/fixtures/runs/all-libraries.json";
const MASK: &str = "tests/fixtures/runs/aes-mask.json";
const BUILDS: &str = "tests/fixtures/runs/three-builds.json";
const THREADS: &str = "tests/fixtures/runs/threads.json";

/// The reports the browser checks: name, the runs in it.
const REPORTS: [(&str, &[&str]); 4] = [
    ("audit", &[AUDIT]),
    ("all-libraries", &[ALL_LIBRARIES]),
    ("comparison", &[MASK, BUILDS]),
    ("threads", &[THREADS]),
];

fn write_report(dir: &Path, name: &str, runs: &[&str]) -> (PathBuf, String) {
    let html = dir.join(format!("{name}.html"));
    let out = cryptobench().arg("report").args(runs).arg("--html").arg(&html).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&html).unwrap();
    (html, text)
}

/// `#12[3]`: how a configuration was named before it had a label.
fn bare_index(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        if b[i] == b'#' {
            let n = digits(i + 1);
            n > 0 && b.get(i + 1 + n) == Some(&b'[') && digits(i + 2 + n) > 0
        } else {
            false
        }
    }) || {
        let t = text.trim();
        t.starts_with('[') && t.ends_with(']') && t[1..t.len() - 1].chars().all(|c| c.is_ascii_digit())
    }
}

#[test]
fn bare_indices_are_recognised() {
    assert!(bare_index("#28[1]") && bare_index("run #28[5] at 16 KiB") && bare_index("[2]"));
    assert!(!bare_index("OpenSSL 3.0.22 · AES off") && !bare_index("#3 before") && !bare_index("[2] openssl"));
}

#[test]
fn the_html_file_holds_everything_and_fetches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = write_report(dir.path(), "comparison", &[MASK, BUILDS]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for needle in [
        "Which is fastest?",
        "Throughput against message size",
        "Tables",
        "Environment",
        "aes-mask · OpenSSL 3.0.19 · masked",
        "three-builds · OpenSSL 1.1.1w",
        // The raw mask and file stay available in the environment details.
        "OPENSSL_ia32cap=~0x200000000000000",
        "/work/main/target/openssl/4.0.3/libcrypto.so",
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    // One log-log chart per algorithm (3) and the bars at 16 KiB.
    assert_eq!(html.matches("<svg class=\"chart sizes\"").count(), 3);
    assert_eq!(html.matches("<svg class=\"chart at-size\"").count(), 1);
    for external in ["<script", "src=\"http", "href=\"http", "url(http", "@import"] {
        assert!(!html.contains(external), "the report must not load {external}");
    }
    // No leftover temporary file beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_threads_report_shows_the_scaling_with_its_ideal() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = write_report(dir.path(), "threads", &[THREADS]);
    for needle in [
        "Scaling over cores",
        "OpenSSL 3.0.22 · 1 thread",
        "OpenSSL 3.0.22 · 2 threads",
        "per worker (CPU: MB/s)",
        "clock under load",
        "one worker per core in CPU order",
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    // One chart per algorithm at 16 KiB, each with the ideal line and an interval per thread count.
    assert_eq!(html.matches("<svg class=\"chart scaling\"").count(), 3);
    assert_eq!(html.matches("class=\"ideal\"").count(), 3);
    assert_eq!(html.matches("class=\"range s").count(), 6);
}

/// Core types: the measured homogeneous run of this machine, and for the
/// layout of several types the same run with its configuration copied under
/// a second, made-up type (a rendering test: no figure in it is claimed).
#[test]
fn a_core_types_report_shows_the_types_and_their_scores() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = write_report(dir.path(), "core-types", &["tests/fixtures/runs/core-types.json"]);
    assert!(
        html.contains("Core types") && html.contains("one here (AMD EPYC"),
        "no core-type section"
    );
    assert_eq!(html.matches("<svg class=\"chart core-scores\"").count(), 1);

    let mut run: cryptobench_core::result::RunResult =
        serde_json::from_str(&std::fs::read_to_string("tests/fixtures/runs/core-types.json").unwrap()).unwrap();
    let topology = run.topology.as_mut().unwrap();
    let mut second = topology.core_types[0].clone();
    second.name = "second type (test)".into();
    topology.core_types.push(second);
    let mut copy = run.configurations[0].clone();
    copy.index = 2;
    copy.placement.as_mut().unwrap().core_type = Some("second type (test)".into());
    run.configurations.push(copy);
    let file = dir.path().join("two-types.json");
    std::fs::write(&file, serde_json::to_string(&run).unwrap()).unwrap();
    let (_, html) = write_report(dir.path(), "two-types", &[file.to_str().unwrap()]);
    assert!(html.contains("core types: 2"), "two types");
    assert_eq!(html.matches("<svg class=\"chart core-types\"").count(), 1);
    assert_eq!(html.matches("<svg class=\"chart core-scores\"").count(), 1);
    assert!(
        html.contains("AMD EPYC · OpenSSL") || html.contains("OpenSSL 3.0.22 · AMD EPYC"),
        "labels name the type"
    );
}

#[test]
fn an_audit_report_opens_with_its_verdicts_and_factors() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = write_report(dir.path(), "audit", &[AUDIT]);
    let answer = &html[html.find("<section id=\"answer\"").expect("an answer section")..];
    let answer = &answer[..answer.find("</section>").unwrap()];
    assert!(
        html.find("<section id=\"answer\"") < html.find("<section id=\"sizes\""),
        "the answer comes before the charts"
    );
    for needle in [
        "accelerated",
        "AES off",
        "AES-NI/VAES",
        "× at 16 KiB",
        "× at 16 B",
        "class=\"chart factors\"",
    ] {
        assert!(answer.contains(needle), "the answer lacks {needle}");
    }
    // The saved verdict's own sentence is there, word for word.
    let run: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(AUDIT).unwrap()).unwrap();
    let first = run["audit"]["libraries"][0]["verdicts"][0]["text"].as_str().unwrap();
    assert!(html.contains(&first.replace('&', "&amp;")), "{first}");
    assert!(html.contains("OpenSSL 3.0.22 · CLMUL off"));
}

#[test]
fn no_header_or_legend_names_a_configuration_by_number() {
    let dir = tempfile::tempdir().unwrap();
    for (name, runs) in REPORTS {
        let (_, html) = write_report(dir.path(), name, runs);
        for piece in html.split("<th").skip(1).chain(html.split("class=\"legend-entry\"").skip(1)) {
            let text = piece.split("</").next().unwrap_or("");
            let text = text.rsplit('>').next().unwrap_or("");
            assert!(!bare_index(text), "{name}: a header or legend reads {text:?}");
        }
    }
}

#[test]
fn without_masks_the_report_says_there_are_no_factors() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("r.html");
    let out = cryptobench().args(["report", BUILDS, "--html"]).arg(&html).output().unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(
        text.contains("no on/off factors to show"),
        "the report says so instead of inventing any"
    );
}

#[test]
fn markdown_report() {
    let out = cryptobench().args(["report", MASK, "--format", "markdown"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| aes-128-gcm enc message | 16 KiB | OpenSSL 3.0.19 | OpenSSL 3.0.19 · masked |"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn markdown_audit_report_answers_first() {
    let out = cryptobench().args(["report", AUDIT, "--format", "markdown"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts = text.find("## Is the hardware acceleration used?").expect("the verdicts");
    assert!(verdicts < text.find("| algorithm ").unwrap_or(usize::MAX).max(verdicts));
    assert!(text.contains("| aes-128-gcm | CLMUL off (PCLMULQDQ/VPCLMULQDQ) |"), "{text}");
}

/// A real audit, saved, gives its verdicts back to `runs export`, `runs show` and `report`.
#[test]
fn a_saved_audit_keeps_its_verdicts() {
    if !common::system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let out = cryptobench()
        .args(["audit", "--algos", "aes-128-gcm,sha256", "--sizes", "16,1024", "--rounds", "1"])
        .args(["--label", "saved-audit", "--db"])
        .arg(&db)
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exported = cryptobench()
        .args(["runs", "export", "saved-audit", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let run = common::json(&exported);
    let library = &run["audit"]["libraries"][0];
    assert_eq!(
        library["configurations"].as_array().unwrap().len(),
        6,
        "all on, AES, CLMUL, SHA, SIMD off, all off"
    );
    let verdicts = library["verdicts"].as_array().unwrap();
    assert!(verdicts.iter().any(|v| v["algorithm"] == "aes-128-gcm" && v["family"] == "clmul"));
    let shown = cryptobench()
        .args(["runs", "show", "saved-audit", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("is the acceleration used? (the audit's verdicts):") && shown.contains("aes-128-gcm [AES off]:"),
        "{shown}"
    );
    let html = dir.path().join("audit.html");
    let out = cryptobench()
        .args(["report", "saved-audit", "--db"])
        .arg(&db)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("class=\"chart factors\"") && html.contains("· CLMUL off"));
}

// ---------------------------------------------------------------------------
// In a real browser.

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
    })
}

fn headless(browser: &Path, profile: &Path, width: u32, height: u32) -> Command {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--window-size={width},{height}"))
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

/// Where the screenshots are kept for a person to look at.
fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Headless Chromium lays pages out at least 500 px wide (a narrower
/// window is only cropped), so a phone is a frame of its width: the page
/// `html` in an iframe (srcdoc, same origin) `width` × `height`, at the top left.
fn framed(html: &str, width: u32, height: u32) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head>\
         <body><iframe width=\"{width}\" height=\"{height}\" srcdoc=\"{}\"></iframe></body></html>",
        html.replace('&', "&amp;").replace('"', "&quot;")
    )
}

/// Narrower than this, Chromium's headless window is cropped, not laid out narrower.
const NARROWEST_WINDOW: u32 = 500;

/// The page to load for a view of `width` × `height`: the report itself, or the report framed.
fn page_for(work: &Path, html: &str, file: &str, width: u32, height: u32) -> PathBuf {
    let page = work.join(file);
    let text = if width < NARROWEST_WINDOW {
        framed(html, width, height)
    } else {
        html.to_string()
    };
    std::fs::write(&page, text).unwrap();
    page
}

/// The report with the measuring script in it, laid out at `width`: what the page measured.
fn measure(browser: &Path, work: &Path, html: &str, name: &str, width: u32, height: u32) -> serde_json::Value {
    let script = std::fs::read_to_string("tests/fixtures/measure-page.js").unwrap();
    let with_script = html.replace("</body>", &format!("<script>{script}</script></body>"));
    let page = page_for(work, &with_script, &format!("{name}-{width}-measured.html"), width, height);
    let out = headless(browser, &work.join(format!("profile-{name}-{width}")), width, height)
        .args(["--virtual-time-budget=5000", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = String::from_utf8_lossy(&out.stderr);
    // Chromium logs the page's console messages as "CONSOLE(line)" and load failures as net errors.
    let problems: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("ERR_FILE_NOT_FOUND") || l.contains("ERR_BLOCKED"))
        .collect();
    assert!(problems.is_empty(), "{name} at {width} px: console errors: {problems:#?}");
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .rfind("<pre id=\"measurements\"")
        .unwrap_or_else(|| panic!("{name}: the page was not measured"));
    let json = &dom[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</pre>").unwrap()];
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}: {json}"))
}

/// A screenshot of the report's top `height` pixels at `width`, decoded to RGB.
fn screenshot(browser: &Path, work: &Path, html: &str, file: &str, width: u32, height: u32) -> (u32, u32, Vec<u8>) {
    let shot = screenshot_dir().join(file);
    let _ = std::fs::remove_file(&shot);
    let page = page_for(work, html, &format!("shot-{file}.html"), width, height);
    let out = headless(browser, &work.join(format!("profile-shot-{file}")), width, height)
        // Paint everything before the picture is taken (else tiles may be missing).
        .args(["--run-all-compositor-stages-before-draw", "--virtual-time-budget=3000"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("screenshot written"));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb: Vec<u8> = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    eprintln!("screenshot: {}", shot.display());
    (info.width, info.height, rgb)
}

fn hex_rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// Pixels inside `box` (CSS pixels, device scale 1) within a small distance of `colour`.
fn pixels_of(image: &(u32, u32, Vec<u8>), b: &serde_json::Value, colour: [u8; 3]) -> usize {
    let (w, h, rgb) = image;
    let f = |k: &str| b[k].as_f64().unwrap();
    let (x0, y0) = (f("x").max(0.0) as u32, f("y").max(0.0) as u32);
    let (x1, y1) = (((f("x") + f("w")) as u32).min(*w), ((f("y") + f("h")) as u32).min(*h));
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = ((y * w + x) * 3) as usize;
            if (0..3).all(|c| (rgb[i + c] as i32 - colour[c] as i32).abs() <= 12) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_reports_read_well_in_a_real_browser() {
    if cryptobench_testkit::own_emulator().is_some() {
        // Debian's chromium is built for the host; started from an emulated test it hangs. The
        // page is the same bytes on every architecture, and the native run checks it in a browser.
        cryptobench_testkit::platform_lacks("a browser of this architecture", "the tests run under an emulator");
        return;
    }
    let Some(browser) = chromium() else {
        cryptobench_testkit::missing("chromium", "not on PATH (.ci/run installs Debian's chromium)");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    for (name, runs) in REPORTS {
        let (_, html) = write_report(work.path(), name, runs);
        for (device, width, height) in [("desktop", 1300, 900), ("phone", 390, 844)] {
            let m = measure(&browser, work.path(), &html, name, width, height);
            let at = format!("{name} on a {device} ({width} px)");
            assert_eq!(m["viewport"], width, "{at}: the page was laid out at another width");
            assert!(m["errors"].as_array().unwrap().is_empty(), "{at}: script errors {}", m["errors"]);
            assert!(m["texts"].as_u64().unwrap() > 100, "{at}: hardly any text was laid out");
            assert!(
                m["overlaps"].as_array().unwrap().is_empty(),
                "{at}: overlapping text {:#}",
                m["overlaps"]
            );
            assert!(m["cut"].as_array().unwrap().is_empty(), "{at}: cut text {:#}", m["cut"]);
            assert!(
                m["scroll_width"].as_u64().unwrap() <= width as u64,
                "{at}: the page scrolls sideways ({} px)",
                m["scroll_width"]
            );
            // Every legend entry and header is a label, never a bare index.
            let legend = m["legend"].as_array().unwrap();
            assert!(!legend.is_empty(), "{at}: no legend");
            for text in legend.iter().chain(m["headers"].as_array().unwrap()) {
                assert!(!bare_index(text.as_str().unwrap()), "{at}: {text} is not a label");
            }
            // Charts were drawn, not only parsed: laid-out points, lines and bars.
            let charts = m["charts"].as_array().unwrap();
            assert!(charts.len() >= 2, "{at}: {} charts drawn", charts.len());
            assert!(m["points"].as_u64().unwrap() >= 8, "{at}: points drawn {}", m["points"]);
            assert!(m["lines"].as_u64().unwrap() >= 2, "{at}: lines drawn {}", m["lines"]);
            assert!(m["bars"].as_u64().unwrap() >= 3, "{at}: bars drawn {}", m["bars"]);
            let document_height = m["height"].as_u64().unwrap().clamp(height as u64, 16000) as u32;

            // What a person sees first, and the whole page, kept for review.
            let first = screenshot(&browser, work.path(), &html, &format!("{name}-{device}.png"), width, height);
            let full = screenshot(
                &browser,
                work.path(),
                &html,
                &format!("{name}-{device}-full.png"),
                width,
                document_height,
            );
            assert_eq!((first.0, first.1), (width, height), "{at}: screenshot size");
            let painted = first.2.chunks(3).filter(|p| p.iter().any(|&c| c < 235)).count();
            assert!(
                painted * 50 > (width * height) as usize,
                "{at}: the first screen is nearly blank ({painted} painted pixels)"
            );
            let key = if name == "audit" { "factor_chart" } else { "at_size_chart" };
            let chart = &m[key];
            assert!(chart.is_object(), "{at}: no {key}");
            if device == "desktop" {
                // The answer's chart starts on the first screen; an audit's verdicts and factors fit it whole.
                let top = chart["y"].as_f64().unwrap();
                assert!(top < height as f64, "{at}: the {key} starts below the first screen ({top})");
                if name == "audit" {
                    let table = &m["answer_table"];
                    let bottom = |b: &serde_json::Value| b["y"].as_f64().unwrap() + b["h"].as_f64().unwrap();
                    assert!(
                        bottom(table) <= height as f64 && bottom(chart) <= height as f64,
                        "{at}: the verdict table ({}) and the factor chart ({}) must fit the first screen",
                        bottom(table),
                        bottom(chart)
                    );
                }
            }
            // The answer's chart is drawn in its configurations' colours: pixels of each, where the page put the chart.
            let class = if name == "audit" { "chart factors" } else { "chart at-size" };
            let drawn = charts.iter().find(|c| c["class"] == class).unwrap();
            for colour in drawn["colours"].as_array().unwrap() {
                let n = pixels_of(&full, &drawn["box"], hex_rgb(colour.as_str().unwrap()));
                assert!(n >= 20, "{at}: {colour} covers only {n} pixels of the {class}");
            }
        }
    }
}
