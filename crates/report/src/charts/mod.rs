//! Charts drawn with plotters into SVG strings, to be inlined in the HTML
//! report (no scripts, no fonts, no network). One module per chart kind;
//! [`style`] gives each configuration its colour, dash and marker, and
//! [`svg`] the elements drawn over plotters' axes (tooltips, bars, markers).

pub mod bars;
pub mod lines;
pub mod scaling;
pub mod style;
pub mod svg;

pub use bars::{horizontal_bars, Bar, BarChart, Group};
pub use lines::{throughput_by_size, throughput_by_size_marked, Axes, Fit, Mark, SizePoint, SizeSeries};
pub use scaling::{throughput_by_threads, ThreadPoint, ThreadSeries};
pub use style::colour;

/// The font size to ask plotters for so that its SVG text is `px` pixels
/// high: plotters divides the size it is given by 1.24.
pub(crate) fn font(px: f64) -> (&'static str, f64) {
    ("sans-serif", px * 1.24)
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
