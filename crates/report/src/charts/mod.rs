//! Charts drawn with plotters into SVG strings, to be inlined in the HTML
//! report (no scripts, no fonts, no network).

mod bars;
mod lines;

pub use bars::bars;
pub use lines::{throughput_by_size, Line};

use plotters::style::RGBColor;

pub const WIDTH: u32 = 720;
pub const HEIGHT: u32 = 400;

/// Colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Why a chart could not be drawn (plotters reports drawing errors as text).
#[derive(Debug)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "drawing a chart failed: {}", self.0)
    }
}

impl std::error::Error for ChartError {}

pub(crate) fn err<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError(e.to_string())
}
