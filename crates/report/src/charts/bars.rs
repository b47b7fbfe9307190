//! Horizontal bars in groups: one group per algorithm, one bar per
//! configuration (throughput at one size, cycles per byte, an on/off
//! factor). Names sit left of their group and figures at the end of their
//! bar, so no label ever crosses another however many groups there are,
//! on a wide screen or a phone.

use plotters::prelude::*;

use super::svg::{text_width, Overlay};
use super::{err, font, ChartError};

/// The width of a chart of throughput bars; a factor chart beside a table is narrower.
pub const WIDTH: u32 = 620;
const BAR: f64 = 15.0;
const BAR_GAP: f64 = 3.0;
const GROUP_GAP: f64 = 12.0;
const CAPTION: u32 = 30;
const AXIS: u32 = 40;
const NAME_PX: f64 = 13.0;
const VALUE_PX: f64 = 12.0;

pub struct Bar {
    /// The configuration's position in the report: its colour and marker.
    pub style: usize,
    pub value: f64,
    /// Written at the end of the bar, e.g. "4605" or "7.32× ~".
    pub text: String,
    pub tooltip: String,
    /// A second figure drawn as a hollow diamond on the bar (e.g. the factor at 16 B), with its tooltip.
    pub second: Option<(f64, String)>,
}

pub struct Group {
    pub name: String,
    pub bars: Vec<Bar>,
}

pub struct BarChart<'a> {
    pub title: &'a str,
    pub groups: &'a [Group],
    pub x_desc: &'a str,
    /// A vertical rule, e.g. (1.0, "factor 1: no effect").
    pub reference: Option<(f64, &'a str)>,
    /// The chart's class, for styles and tests ("factors", "at-size").
    pub class: &'a str,
    /// Pixel width of the drawing (it scales with the page).
    pub width: u32,
    /// Values on a logarithmic axis, ticked at powers of ten and labelled in
    /// the values' own unit ("1", "10", "1k", "1M"): public key, where RSA
    /// key generation and X25519 differ by five orders of magnitude.
    pub log: bool,
}

/// Pixel height of the chart for these groups.
fn height(groups: &[Group]) -> u32 {
    let bars: usize = groups.iter().map(|g| g.bars.len()).sum();
    let plot = bars as f64 * (BAR + BAR_GAP) + groups.len() as f64 * GROUP_GAP;
    CAPTION + AXIS + plot.ceil() as u32 + 8
}

pub fn horizontal_bars(c: &BarChart) -> Result<String, ChartError> {
    let bars = c.groups.iter().flat_map(|g| &g.bars);
    if bars.clone().next().is_none() {
        return Err(ChartError(format!("{}: nothing to draw", c.title)));
    }
    let values = || {
        bars.clone()
            .flat_map(|b| std::iter::once(b.value).chain(b.second.as_ref().map(|s| s.0)))
            .chain(c.reference.map(|r| r.0))
    };
    // A log axis starts at the power of ten at least a decade below the
    // smallest value, so that every bar has a length and the axis two ticks
    // at least; a bar's length is then its value's decades above that start.
    let start = if c.log {
        let lowest = values().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
        if lowest.is_finite() {
            (lowest.log10() - 1.0).floor()
        } else {
            0.0
        }
    } else {
        0.0
    };
    let scale = |v: f64| {
        if c.log {
            (v.max(f64::MIN_POSITIVE).log10() - start).max(0.0)
        } else {
            v
        }
    };
    let highest = values().map(scale).fold(0.0f64, f64::max);
    let widest_text = bars.clone().map(|b| text_width(&b.text, VALUE_PX)).fold(0.0, f64::max);
    let names = c.groups.iter().map(|g| text_width(&g.name, NAME_PX)).fold(0.0, f64::max);
    let left = (names + 16.0).ceil() as u32;
    let plot_width = c.width as f64 - left as f64 - 16.0;
    // Room right of the longest bar for its marker and figure.
    let room = ((widest_text + 26.0) / plot_width).min(0.6);
    let x_max = (highest / (1.0 - room)).max(f64::MIN_POSITIVE);
    let total_height = height(c.groups);
    let mut svg = String::new();
    let mut overlay = Overlay::default();
    {
        let root = SVGBackend::with_string(&mut svg, (c.width, total_height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(c.title, font(15.0))
            .margin(6)
            .margin_right(10)
            .x_label_area_size(AXIS)
            .y_label_area_size(left)
            .build_cartesian_2d(0.0..x_max, 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_labels(if c.log { x_max.floor() as usize + 1 } else { 6 })
            .y_labels(0)
            .x_label_formatter(&|x| {
                if !c.log {
                    axis_value(*x)
                } else if (x - x.round()).abs() < 1e-6 {
                    decade_label(x.round() + start)
                } else {
                    String::new()
                }
            })
            .label_style(font(12.0))
            .axis_desc_style(font(12.0))
            .x_desc(c.x_desc)
            .draw()
            .map_err(err)?;
        let rows = chart.plotting_area().get_pixel_range().1;
        let (top, bottom) = (rows.start as f64, rows.end as f64);
        let x = |v: f64| chart.backend_coord(&(v, 0.5)).0 as f64;
        let x0 = x(0.0);
        let mut y = top + GROUP_GAP / 2.0;
        for g in c.groups {
            let group_top = y;
            for b in &g.bars {
                let x1 = x(scale(b.value));
                overlay.bar(b.style, (x0, x1), (y, y + BAR), &b.tooltip);
                // The figure goes right of the bar's marker and of the second figure's diamond.
                let mut end = x1.max(x0) + 11.0;
                if let Some((v, tip)) = &b.second {
                    overlay.hollow(x(scale(*v)), y + BAR / 2.0, tip);
                    end = end.max(x(scale(*v)) + 5.0);
                }
                overlay.text(end + 3.0, y + BAR - 3.5, "start", VALUE_PX, &b.text);
                y += BAR + BAR_GAP;
            }
            let middle = (group_top + y - BAR_GAP) / 2.0;
            overlay.text(x0 - 8.0, middle + NAME_PX * 0.35, "end", NAME_PX, &g.name);
            y += GROUP_GAP;
        }
        if let Some((v, tip)) = c.reference {
            overlay.vertical_rule(x(scale(v)), (top, bottom), tip);
        }
        root.present().map_err(err)?;
    }
    Ok(overlay.finish(svg, c.class, c.title))
}

/// A log axis's tick at 10^`exponent`: "0.1", "1", "10", "100", "1k", "10k", "1M".
fn decade_label(exponent: f64) -> String {
    let e = exponent.round() as i32;
    match e {
        e if e < 0 => format!("{:.*}", (-e) as usize, 10f64.powi(e)),
        0..=2 => format!("{}", 10i64.pow(e as u32)),
        3..=5 => format!("{}k", 10i64.pow(e as u32 - 3)),
        6..=8 => format!("{}M", 10i64.pow(e as u32 - 6)),
        _ => format!("{}G", 10f64.powi(e - 9)),
    }
}

/// Tick labels: "0", "2.5", "5", "10000".
fn axis_value(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Bar figures with as many digits as they need.
pub fn format_value(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_carry_tooltips_markers_and_their_figures() {
        let groups = vec![
            Group {
                name: "aes-128-gcm".into(),
                bars: vec![
                    Bar {
                        style: 1,
                        value: 7.3,
                        text: "7.30×".into(),
                        tooltip: "AES off: 7.30× at 16 KiB".into(),
                        second: Some((2.7, "2.70× at 16 B".into())),
                    },
                    Bar {
                        style: 2,
                        value: 7.9,
                        text: "7.90×".into(),
                        tooltip: "CLMUL off".into(),
                        second: None,
                    },
                ],
            },
            Group {
                name: "chacha20-poly1305".into(),
                bars: vec![Bar {
                    style: 4,
                    value: 1.05,
                    text: "1.05×".into(),
                    tooltip: "all off".into(),
                    second: None,
                }],
            },
        ];
        let svg = horizontal_bars(&BarChart {
            title: "on/off factor at 16 KiB",
            groups: &groups,
            x_desc: "factor (×)",
            reference: Some((1.0, "no effect")),
            class: "factors",
            width: WIDTH,
            log: false,
        })
        .unwrap();
        assert_eq!(svg.matches("class=\"bar ").count(), 3);
        assert_eq!(svg.matches("class=\"second\"").count(), 1);
        assert!(svg.contains("<title>AES off: 7.30× at 16 KiB</title>"));
        assert!(svg.contains(">chacha20-poly1305</text>"));
        assert!(svg.contains("class=\"rule\""));
    }
}
