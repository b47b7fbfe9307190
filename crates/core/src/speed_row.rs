//! One row of `openssl speed`'s default output and how cryptobench takes it
//! (crates/core/src/speed_defaults.rs for the symmetric rows,
//! speed_defaults_pk.rs for the public-key rows).

/// One row of `openssl speed`'s default output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpeedRow {
    /// The name `openssl speed` prints.
    pub name: &'static str,
    /// The catalog id that measures the same thing, if any.
    pub catalog: Option<&'static str>,
    /// Why cryptobench does not measure it, where it does not.
    pub why_not: Option<&'static str>,
}

/// A row cryptobench measures as catalog id `id`.
pub const fn row(name: &'static str, id: &'static str) -> SpeedRow {
    SpeedRow {
        name,
        catalog: Some(id),
        why_not: None,
    }
}

/// A row cryptobench does not measure, and why.
pub const fn not(name: &'static str, why: &'static str) -> SpeedRow {
    SpeedRow {
        name,
        catalog: None,
        why_not: Some(why),
    }
}
