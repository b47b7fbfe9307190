//! A newer version of the library in use, published faster on this core:
//! where the best-known table holds a figure of the same library (by name)
//! in a newer version than a configuration measured here runs, and that
//! figure is at least the audit's smallest factor that counts below the
//! configuration's measured cycles, at a comparable size. For OpenSSL the
//! sentence names the build script that builds that series beside the
//! system's, so that the next `advise` measures it in the same run.

use cryptobench_core::verdict::MIN_FACTOR;

use super::reference::{cite, comparable};
use super::Context;
use crate::{units, Sentence};

/// "3.0.22" → [3, 0, 22]: the leading dotted number of a version string.
fn numbers(version: &str) -> Vec<u32> {
    version
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|t| t.contains('.') || t.chars().any(|c| c.is_ascii_digit()))
        .unwrap_or_default()
        .split('.')
        .filter_map(|n| n.parse().ok())
        .collect()
}

pub fn sentences(cx: &Context) -> Vec<Sentence> {
    let own = cx.core.own(&cx.key.algorithm, cx.key.operation.as_deref());
    let mut out = Vec::new();
    for s in cx.standings {
        let Some(config) = cx.run.configurations.iter().find(|c| c.index == s.index) else {
            continue;
        };
        let Some(backend) = &config.backend else { continue };
        let (Some(measured), here) = (s.cycles, numbers(&backend.version)) else {
            continue;
        };
        if here.is_empty() {
            continue;
        }
        // The fastest published figure of a newer version of this library.
        let newer = own.iter().find(|e| {
            e.library
                .split_whitespace()
                .next()
                .is_some_and(|l| l.eq_ignore_ascii_case(&backend.name))
                && numbers(&e.version) > here
                && comparable(s, e).is_ok()
                && e.cycles().is_some_and(|c| measured >= MIN_FACTOR * c)
        });
        let Some(e) = newer else { continue };
        let build = if backend.name.eq_ignore_ascii_case("openssl") {
            let series: Vec<String> = numbers(&e.version).iter().take(2).map(u32::to_string).collect();
            format!(
                ": bench/build-openssl {} builds it beside the system's, and the next `cryptobench advise` measures it in the same run",
                series.join(".")
            )
        } else {
            String::new()
        };
        out.push(Sentence {
            text: format!(
                "[{}] {}: {} is published at {} on this core ({}), {:.1}× fewer than the {} measured here{build}",
                s.index,
                s.label,
                e.library,
                e.describe(),
                e.path,
                measured / e.cycles().unwrap_or(measured),
                units::cycles(measured, s.unit)
            ),
            backing: format!("measured: [{}]; {}", s.index, cite(e)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::numbers;

    #[test]
    fn versions_compare_by_their_numbers() {
        assert_eq!(numbers("OpenSSL 3.0.22 25 Aug 2026"), vec![3, 0, 22]);
        assert_eq!(numbers("3.2.2"), vec![3, 2, 2]);
        assert!(numbers("3.2.2") > numbers("OpenSSL 3.0.22 25 Aug 2026"));
        assert!(numbers("1.1.1k") < numbers("3.0.7"));
    }
}
