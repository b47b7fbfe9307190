//! How a configuration is drawn: a colour, a dash pattern and a marker
//! shape, all chosen by its position in the report, so that it looks the
//! same in every chart and stays distinguishable when printed in grey
//! (colour alone would not: the dash and the marker still differ).

use plotters::style::RGBColor;

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

/// SVG stroke-dasharray values; "" is a solid line.
const DASHES: [&str; 4] = ["", "7 4", "2 3", "9 3 2 3"];

/// Marker shapes, in the order configurations get them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    Cross,
    Plus,
    Star,
}

const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
    Marker::Plus,
    Marker::Star,
];

/// The colour of the configuration at position `i` of a report.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// "#0072b2": the colour as SVG and CSS write it.
pub fn hex(i: usize) -> String {
    let RGBColor(r, g, b) = colour(i);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The dash pattern of configuration `i`.
pub fn dash(i: usize) -> &'static str {
    DASHES[i % DASHES.len()]
}

/// The marker of configuration `i`; past the palette's length the shapes
/// shift, so that no two of the first 64 configurations share colour and shape.
pub fn marker(i: usize) -> Marker {
    MARKERS[(i + i / PALETTE.len()) % MARKERS.len()]
}

/// The SVG path of `m` centred on (x, y) with radius `r`.
pub fn marker_path(m: Marker, x: f64, y: f64, r: f64) -> String {
    let p = |dx: f64, dy: f64| format!("{:.1},{:.1}", x + dx * r, y + dy * r);
    match m {
        Marker::Circle => format!(
            "M{:.1},{:.1}a{r:.1},{r:.1} 0 1,0 {:.1},0a{r:.1},{r:.1} 0 1,0 {:.1},0Z",
            x - r,
            y,
            2.0 * r,
            -2.0 * r
        ),
        Marker::Square => format!("M{}L{}L{}L{}Z", p(-0.85, -0.85), p(0.85, -0.85), p(0.85, 0.85), p(-0.85, 0.85)),
        Marker::Triangle => format!("M{}L{}L{}Z", p(0.0, -1.1), p(1.0, 0.75), p(-1.0, 0.75)),
        Marker::TriangleDown => format!("M{}L{}L{}Z", p(0.0, 1.1), p(1.0, -0.75), p(-1.0, -0.75)),
        Marker::Diamond => format!("M{}L{}L{}L{}Z", p(0.0, -1.2), p(1.0, 0.0), p(0.0, 1.2), p(-1.0, 0.0)),
        Marker::Cross => format!(
            "M{}L{}L{}L{}L{}L{}L{}L{}L{}L{}L{}L{}Z",
            p(-1.0, -0.6),
            p(-0.6, -1.0),
            p(0.0, -0.4),
            p(0.6, -1.0),
            p(1.0, -0.6),
            p(0.4, 0.0),
            p(1.0, 0.6),
            p(0.6, 1.0),
            p(0.0, 0.4),
            p(-0.6, 1.0),
            p(-1.0, 0.6),
            p(-0.4, 0.0)
        ),
        Marker::Plus => format!(
            "M{}L{}L{}L{}L{}L{}L{}L{}L{}L{}L{}L{}Z",
            p(-0.3, -1.0),
            p(0.3, -1.0),
            p(0.3, -0.3),
            p(1.0, -0.3),
            p(1.0, 0.3),
            p(0.3, 0.3),
            p(0.3, 1.0),
            p(-0.3, 1.0),
            p(-0.3, 0.3),
            p(-1.0, 0.3),
            p(-1.0, -0.3),
            p(-0.3, -0.3)
        ),
        Marker::Star => {
            let mut d = String::new();
            for k in 0..10 {
                let angle = std::f64::consts::PI * (k as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
                let radius = if k % 2 == 0 { 1.2 } else { 0.5 };
                d.push(if k == 0 { 'M' } else { 'L' });
                d.push_str(&p(radius * angle.cos(), radius * angle.sin()));
            }
            d.push('Z');
            d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_configurations_differ_in_colour_dash_or_marker() {
        for a in 0..64 {
            for b in a + 1..64 {
                assert!(colour(a) != colour(b) || marker(a) != marker(b), "{a} and {b} look alike");
            }
        }
        // Neighbours differ in every channel, which is what greyscale print needs.
        for i in 0..7 {
            assert!(dash(i) != dash(i + 1) && marker(i) != marker(i + 1));
        }
    }
}
