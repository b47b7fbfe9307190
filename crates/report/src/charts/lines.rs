//! Throughput against message size, log-log: one small chart per algorithm
//! with every configuration on it. Points are the measured medians (their
//! tooltip gives the median, its confidence interval and the sample count);
//! the line through them is the configuration's fitted overhead model
//! time = a + n/r∞ where one was fitted, else the medians joined. Charts of
//! one class share their axes ([`Axes`]), so that a grid of them compares at
//! a glance.

use plotters::prelude::*;

use super::svg::Overlay;
use super::{err, font, ChartError};
use crate::size_label;

pub const WIDTH: u32 = 380;
pub const HEIGHT: u32 = 270;

/// One measured median, in display units.
pub struct SizePoint {
    pub size: usize,
    pub value: f64,
    pub tooltip: String,
}

/// time per call = per_call_s + n / bytes_per_s.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    pub per_call_s: f64,
    pub bytes_per_s: f64,
}

/// One configuration on one chart.
pub struct SizeSeries {
    /// The configuration's position in the report: its colour, dash and marker.
    pub style: usize,
    pub label: String,
    pub points: Vec<SizePoint>,
    pub fit: Option<Fit>,
}

/// A size marked on a chart with a vertical rule and a label (a path's
/// crossover size, crates/core/src/paths.rs), in its series' colour.
pub struct Mark {
    pub style: usize,
    pub size: usize,
    pub label: String,
    pub tooltip: String,
}

/// The shared extent of a grid of charts: sizes in bytes, values in display units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axes {
    pub sizes: (usize, usize),
    pub values: (f64, f64),
}

impl Axes {
    /// The extent of every point of `series`, None when nothing is positive.
    pub fn of<'a>(series: impl IntoIterator<Item = &'a SizeSeries>) -> Option<Axes> {
        let mut axes: Option<Axes> = None;
        for p in series.into_iter().flat_map(|s| &s.points).filter(|p| p.value > 0.0 && p.size > 0) {
            let a = axes.get_or_insert(Axes {
                sizes: (p.size, p.size),
                values: (p.value, p.value),
            });
            a.sizes = (a.sizes.0.min(p.size), a.sizes.1.max(p.size));
            a.values = (a.values.0.min(p.value), a.values.1.max(p.value));
        }
        axes
    }
}

/// "1", "10", "1000", "0.1": a power of ten as a tick label.
fn decade(exponent: f64) -> String {
    let e = exponent.round() as i32;
    if e >= 0 {
        format!("{}", 10f64.powi(e))
    } else {
        format!("{:.*}", (-e) as usize, 10f64.powi(e))
    }
}

/// The value of the model at `size` bytes, in display units.
fn model(fit: Fit, size: f64, divisor: f64) -> f64 {
    size / (fit.per_call_s + size / fit.bytes_per_s) / divisor
}

/// One chart of the grid; `divisor` turns bytes per second into the display unit.
pub fn throughput_by_size(title: &str, series: &[SizeSeries], axes: Axes, y_desc: &str, divisor: f64) -> Result<String, ChartError> {
    throughput_by_size_marked(title, series, axes, y_desc, divisor, &[])
}

/// [`throughput_by_size`] with `marks` drawn across the chart at their sizes.
pub fn throughput_by_size_marked(
    title: &str,
    series: &[SizeSeries],
    axes: Axes,
    y_desc: &str,
    divisor: f64,
    marks: &[Mark],
) -> Result<String, ChartError> {
    if series.iter().all(|s| s.points.is_empty()) {
        return Err(ChartError(format!("{title}: nothing measured")));
    }
    let x0 = (axes.sizes.0 as f64).log2() - 0.4;
    let x1 = (axes.sizes.1 as f64).log2() + 0.4;
    let mut y0 = axes.values.0.log10().floor();
    let mut y1 = axes.values.1.log10().ceil();
    if y1 - y0 < 1.0 {
        (y0, y1) = (y0 - 0.5, y1 + 0.5);
    }
    let decades = (y1 - y0).round() as usize;
    let mut svg = String::new();
    let mut overlay = Overlay::default();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, font(14.0))
            .margin(6)
            .margin_right(16)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(222, 222, 222))
            .x_labels(6)
            .y_labels(decades + 1)
            .x_label_formatter(&|x| {
                if (x - x.round()).abs() < 1e-6 && *x >= 0.0 {
                    size_label(2f64.powi(x.round() as i32) as usize)
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| if (y - y.round()).abs() < 1e-6 { decade(*y) } else { String::new() })
            .label_style(font(11.0))
            .axis_desc_style(font(11.0))
            .x_desc("message size")
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        let px = |size: f64, value: f64| {
            let (x, y) = chart.backend_coord(&(size.log2(), value.log10()));
            (x as f64, y as f64)
        };
        let inside = |value: f64| value > 0.0 && value.log10() >= y0 && value.log10() <= y1;
        for s in series {
            let sizes: Vec<f64> = s.points.iter().map(|p| p.size as f64).collect();
            let (lo, hi) = sizes.iter().fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
            match s.fit {
                Some(fit) if sizes.len() >= 2 => {
                    // The model over the sizes measured, never beyond them.
                    let steps = 48;
                    let curve: Vec<(f64, f64)> = (0..=steps)
                        .map(|k| 2f64.powf(lo.log2() + (hi.log2() - lo.log2()) * k as f64 / steps as f64))
                        .map(|n| (n, model(fit, n, divisor)))
                        .filter(|&(_, v)| inside(v))
                        .map(|(n, v)| px(n, v))
                        .collect();
                    overlay.line(
                        s.style,
                        &curve,
                        &format!(
                            "{}: fitted model, time per call = {:.0} ns + n / {:.0} MB/s",
                            s.label,
                            fit.per_call_s * 1e9,
                            fit.bytes_per_s / 1e6
                        ),
                    );
                }
                _ => {
                    let joined: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .filter(|p| inside(p.value))
                        .map(|p| px(p.size as f64, p.value))
                        .collect();
                    overlay.line(s.style, &joined, &format!("{}: measured medians joined (no model fitted)", s.label));
                }
            }
        }
        for (k, m) in marks.iter().enumerate() {
            let (x, top) = px(m.size as f64, 10f64.powf(y1));
            let (_, bottom) = px(m.size as f64, 10f64.powf(y0));
            overlay.range(m.style, x, (top, bottom), &m.tooltip);
            overlay.text(x + 4.0, top + 12.0 + 12.0 * k as f64, "start", 10.0, &m.label);
        }
        for s in series {
            for p in s.points.iter().filter(|p| inside(p.value)) {
                let (x, y) = px(p.size as f64, p.value);
                overlay.point(s.style, x, y, &p.tooltip);
            }
        }
        root.present().map_err(err)?;
    }
    Ok(overlay.finish(svg, "sizes", title))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(style: usize, values: &[(usize, f64)], fit: Option<Fit>) -> SizeSeries {
        SizeSeries {
            style,
            label: format!("library {style}"),
            points: values
                .iter()
                .map(|&(size, value)| SizePoint {
                    size,
                    value,
                    tooltip: format!("library {style} at {size}: {value}"),
                })
                .collect(),
            fit,
        }
    }

    #[test]
    fn a_mark_is_drawn_at_its_size_in_its_series_colour() {
        let s = vec![
            series(0, &[(16, 50.0), (1024, 1500.0), (16384, 4000.0)], None),
            series(1, &[(16, 5.0), (1024, 1000.0), (16384, 8000.0)], None),
        ];
        let axes = Axes::of(&s).unwrap();
        let mark = Mark {
            style: 1,
            size: 1024,
            label: "library 1 from 1 KiB".into(),
            tooltip: "library 1: crossover at 1 KiB".into(),
        };
        let svg = throughput_by_size_marked("aes-128-cbc enc stream: paths", &s, axes, "MB/s", 1e6, &[mark]).unwrap();
        assert_eq!(svg.matches("class=\"range s1\"").count(), 1, "{svg}");
        assert!(svg.contains(">library 1 from 1 KiB</text>"), "{svg}");
        assert!(svg.contains("<title>library 1: crossover at 1 KiB</title>"));
    }

    #[test]
    fn every_point_carries_its_tooltip_and_every_series_a_line() {
        let s = vec![
            series(0, &[(16, 50.0), (1024, 1500.0), (16384, 4000.0)], None),
            series(
                1,
                &[(16, 150.0), (1024, 3000.0), (16384, 4600.0)],
                Some(Fit {
                    per_call_s: 90e-9,
                    bytes_per_s: 4.7e9,
                }),
            ),
        ];
        let axes = Axes::of(&s).unwrap();
        let svg = throughput_by_size("aes-128-gcm enc message", &s, axes, "MB/s", 1e6).unwrap();
        assert_eq!(svg.matches("class=\"point ").count(), 6);
        assert_eq!(svg.matches("class=\"line ").count(), 2);
        assert!(svg.contains("<title>library 1 at 16: 150</title>"));
        assert!(svg.contains("fitted model, time per call = 90 ns"));
        assert!(svg.contains("stroke-dasharray"), "the second configuration is dashed");
        // Log axes: decades and powers-of-two sizes label the ticks.
        for tick in ["\n16 B\n<", "\n1 KiB\n<", "\n16 KiB\n<", "\n100\n<", "\n1000\n<"] {
            assert!(svg.contains(tick), "missing tick {tick}");
        }
    }
}
