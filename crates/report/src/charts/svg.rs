//! SVG written beside what plotters draws: markers, lines and bars that carry
//! a `<title>` (the tooltip a browser shows on hover) and a class (what the
//! browser test counts), and text placed at exact pixel positions. Plotters
//! draws the axes and the grid; these elements go on top of them, in the
//! same pixel coordinates ([`Overlay::finish`] inserts them before `</svg>`).

use super::style::{dash, hex, marker, marker_path};
use crate::escape::escape;

/// Estimated width of `text` in pixels at `font_px` in a sans-serif font:
/// generous, so that layout computed from it leaves room rather than overlaps.
pub fn text_width(text: &str, font_px: f64) -> f64 {
    text.chars().count() as f64 * font_px * 0.62
}

#[derive(Default)]
pub struct Overlay {
    body: String,
}

impl Overlay {
    /// A configuration's marker at (x, y), with its tooltip.
    pub fn point(&mut self, style: usize, x: f64, y: f64, tooltip: &str) {
        self.body.push_str(&format!(
            "<path class=\"point s{style}\" d=\"{}\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.8\"><title>{}</title></path>\n",
            marker_path(marker(style), x, y, 4.2),
            hex(style),
            escape(tooltip)
        ));
    }

    /// A configuration's line through `points`, in its colour and dash pattern.
    pub fn line(&mut self, style: usize, points: &[(f64, f64)], tooltip: &str) {
        if points.len() < 2 {
            return;
        }
        let coords: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let dasharray = match dash(style) {
            "" => String::new(),
            d => format!(" stroke-dasharray=\"{d}\""),
        };
        self.body.push_str(&format!(
            "<polyline class=\"line s{style}\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{dasharray}><title>{}</title></polyline>\n",
            coords.join(" "),
            hex(style),
            escape(tooltip)
        ));
    }

    /// A horizontal bar from x0 to x1 between y0 and y1, with the
    /// configuration's marker just past its end (greyscale print tells bars
    /// apart by it) and its tooltip.
    pub fn bar(&mut self, style: usize, (x0, x1): (f64, f64), (y0, y1): (f64, f64), tooltip: &str) {
        let (left, width) = if x1 >= x0 { (x0, x1 - x0) } else { (x1, x0 - x1) };
        self.body.push_str(&format!(
            "<g class=\"bar s{style}\"><title>{}</title><rect x=\"{left:.1}\" y=\"{y0:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
             <path d=\"{}\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.8\"/></g>\n",
            escape(tooltip),
            y1 - y0,
            hex(style),
            marker_path(marker(style), x1.max(x0) + 6.0, (y0 + y1) / 2.0, ((y1 - y0) / 2.0 - 1.0).clamp(2.5, 4.5)),
            hex(style),
        ));
    }

    /// A hollow marker (e.g. a second figure on a bar), with its tooltip.
    pub fn hollow(&mut self, x: f64, y: f64, tooltip: &str) {
        self.body.push_str(&format!(
            "<path class=\"second\" d=\"{}\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.2\"><title>{}</title></path>\n",
            marker_path(super::style::Marker::Diamond, x, y, 4.0),
            escape(tooltip)
        ));
    }

    /// The ideal a series is held against (e.g. linear scaling), a thin
    /// grey dashed line with its tooltip.
    pub fn ideal(&mut self, points: &[(f64, f64)], tooltip: &str) {
        if points.len() < 2 {
            return;
        }
        let coords: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        self.body.push_str(&format!(
            "<polyline class=\"ideal\" points=\"{}\" fill=\"none\" stroke=\"#777\" stroke-width=\"1.3\" stroke-dasharray=\"5 4\"><title>{}</title></polyline>\n",
            coords.join(" "),
            escape(tooltip)
        ));
    }

    /// A vertical interval (e.g. a 95% interval) in a configuration's colour, with its tooltip.
    pub fn range(&mut self, style: usize, x: f64, (y0, y1): (f64, f64), tooltip: &str) {
        self.body.push_str(&format!(
            "<path class=\"range s{style}\" d=\"M{x:.1},{y0:.1}L{x:.1},{y1:.1}M{:.1},{y0:.1}L{:.1},{y0:.1}M{:.1},{y1:.1}L{:.1},{y1:.1}\" stroke=\"{}\" stroke-width=\"1.4\" fill=\"none\"><title>{}</title></path>\n",
            x - 3.0,
            x + 3.0,
            x - 3.0,
            x + 3.0,
            hex(style),
            escape(tooltip)
        ));
    }

    /// A vertical reference line (e.g. "no effect" at a factor of 1).
    pub fn vertical_rule(&mut self, x: f64, (y0, y1): (f64, f64), tooltip: &str) {
        self.body.push_str(&format!(
            "<line class=\"rule\" x1=\"{x:.1}\" y1=\"{y0:.1}\" x2=\"{x:.1}\" y2=\"{y1:.1}\" stroke=\"#444\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"><title>{}</title></line>\n",
            escape(tooltip)
        ));
    }

    /// Text at (x, y) (the baseline), anchored "start", "middle" or "end".
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, font_px: f64, text: &str) {
        self.body.push_str(&format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" font-family=\"sans-serif\" font-size=\"{font_px}\" fill=\"#222\">{}</text>\n",
            escape(text)
        ));
    }

    /// Inserts everything into plotters' SVG, on top of what it drew, and
    /// lets the SVG scale with the page (its viewBox keeps the proportions).
    pub fn finish(self, mut svg: String, chart_class: &str, title: &str) -> String {
        if let Some(end) = svg.rfind("</svg>") {
            svg.insert_str(end, &self.body);
        }
        svg.replacen(
            "<svg ",
            &format!("<svg class=\"chart {chart_class}\" role=\"img\" aria-label=\"{}\" ", escape(title)),
            1,
        )
    }
}
