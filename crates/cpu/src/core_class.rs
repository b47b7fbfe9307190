//! Reference classes of cores by sbc-bench's score per MHz (aes-256-cbc at
//! 16 KiB in openssl speed's 1000s of bytes per second, divided by MHz). The
//! table is data (data/core-classes.json, with its source): a class for
//! another architecture is added there from measured runs, with the MIDR
//! part numbers (arm) that identify it. MIDR part numbers: Arm's Technical
//! Reference Manuals, register MIDR_EL1 (e.g. Cortex-A72 0xd08).

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct CoreClass {
    pub class: String,
    pub cores: Vec<String>,
    pub arch: String,
    pub score_per_mhz: f64,
    #[serde(default)]
    pub midr: Vec<Midr>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Midr {
    pub implementer: String,
    pub part: String,
}

#[derive(Debug, Deserialize)]
struct Table {
    source: String,
    classes: Vec<CoreClass>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| serde_json::from_str(include_str!("../data/core-classes.json")).expect("data/core-classes.json is valid"))
}

/// Every class, in the table's order.
pub fn classes() -> &'static [CoreClass] {
    &table().classes
}

/// Where the reference figures come from.
pub fn source() -> &'static str {
    &table().source
}

/// A class by its name or one of its cores' names, ignoring case.
pub fn find(name: &str) -> Option<&'static CoreClass> {
    let name = name.trim();
    classes()
        .iter()
        .find(|c| c.class.eq_ignore_ascii_case(name) || c.cores.iter().any(|core| core.eq_ignore_ascii_case(name)))
}

fn parse_hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// The class of an arm core from its MIDR implementer and part number (as
/// /proc/cpuinfo's "CPU implementer" and "CPU part" give them).
pub fn for_midr(implementer: &str, part: &str) -> Option<&'static CoreClass> {
    let (i, p) = (parse_hex(implementer)?, parse_hex(part)?);
    classes().iter().find(|c| {
        c.midr
            .iter()
            .any(|m| parse_hex(&m.implementer) == Some(i) && parse_hex(&m.part) == Some(p))
    })
}

/// The class of this machine's first core, where /proc/cpuinfo names it.
pub fn of_this_cpu() -> Option<&'static CoreClass> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |name: &str| {
        info.lines().find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim() == name)
                .map(|(_, v)| v.trim().to_string())
        })
    };
    for_midr(&field("CPU implementer")?, &field("CPU part")?)
}

/// The class whose score per MHz is nearest (relatively) to `score_per_mhz`,
/// among classes of `arch`.
pub fn nearest(score_per_mhz: f64, arch: &str) -> Option<&'static CoreClass> {
    classes().iter().filter(|c| c.arch == arch).min_by(|a, b| {
        (a.score_per_mhz / score_per_mhz)
            .ln()
            .abs()
            .total_cmp(&(b.score_per_mhz / score_per_mhz).ln().abs())
    })
}

/// The clock a core of `class` needs to reach `score_k` (1000s of bytes per second).
pub fn clock_estimate_mhz(score_k: f64, class: &CoreClass) -> f64 {
    score_k / class.score_per_mhz
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_published_ratios() {
        let a72 = find("Cortex-A76").unwrap();
        assert_eq!(a72.class, "cortex-a72");
        assert_eq!(a72.score_per_mhz, 570.0);
        assert_eq!(find("cortex-a35").unwrap().score_per_mhz, 217.0);
        assert_eq!(find("Cortex-A55").unwrap().score_per_mhz, 467.0);
        assert_eq!(find("Cortex-A57").unwrap().score_per_mhz, 359.0);
        assert!(source().contains("sbc-bench"));
    }

    #[test]
    fn midr_identifies_the_class() {
        assert_eq!(for_midr("0x41", "0xd08").unwrap().class, "cortex-a72");
        assert_eq!(for_midr("0x41", "0xd05").unwrap().class, "cortex-a53");
        assert!(for_midr("0x41", "0xfff").is_none());
    }

    #[test]
    fn nearest_class_and_clock_estimate() {
        // sbc-bench's example: 1144575.32k on an A72 at 2000 MHz → 572 per MHz.
        assert_eq!(nearest(1_144_575.32 / 2000.0, "aarch64").unwrap().class, "cortex-a72");
        assert_eq!(nearest(220.0, "aarch64").unwrap().class, "cortex-a35");
        assert!(nearest(500.0, "x86_64").is_none());
        let est = clock_estimate_mhz(935_000.0, find("cortex-a55").unwrap());
        assert!((est - 2002.1).abs() < 0.1, "{est}");
    }
}
