//! Throughput against the number of workers (`run --threads`): per library
//! the aggregate at each thread count with its 95% interval, the measured
//! points joined, and the ideal — the one-worker figure times the threads —
//! as a grey dashed line, so that what SMT siblings sharing an AES unit or
//! an all-core clock below the one-core clock cost is the gap between the
//! two. Both axes linear and from zero: the scaling is the slope.

use plotters::prelude::*;

use super::svg::Overlay;
use super::{err, font, ChartError};

pub const WIDTH: u32 = 380;
pub const HEIGHT: u32 = 270;

/// One thread count of one library, in display units.
pub struct ThreadPoint {
    pub threads: usize,
    pub value: f64,
    pub interval: (f64, f64),
    pub tooltip: String,
}

/// One library on one chart.
pub struct ThreadSeries {
    /// Its colour, dash and marker.
    pub style: usize,
    pub label: String,
    /// Ascending thread counts; the ideal starts from the one-worker point.
    pub points: Vec<ThreadPoint>,
}

/// One chart: a row (algorithm, operation, mode) at one size.
pub fn throughput_by_threads(title: &str, series: &[ThreadSeries], y_desc: &str) -> Result<String, ChartError> {
    let max_threads = series.iter().flat_map(|s| &s.points).map(|p| p.threads).max().unwrap_or(0);
    if max_threads == 0 {
        return Err(ChartError(format!("{title}: nothing measured")));
    }
    let ideal = |s: &ThreadSeries| {
        s.points
            .iter()
            .find(|p| p.threads == 1)
            .map(|base| (base.value, base.value * max_threads as f64))
    };
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.value.max(p.interval.1)).chain(ideal(s).map(|i| i.1)))
        .fold(0.0f64, f64::max)
        * 1.08;
    let x_max = max_threads as f64 + 0.5;
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
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..x_max, 0.0..top.max(f64::MIN_POSITIVE))
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(222, 222, 222))
            .x_labels((max_threads + 1).min(9))
            .y_labels(6)
            .x_label_formatter(&|x| {
                if (x - x.round()).abs() < 1e-6 && *x >= 1.0 {
                    format!("{}", x.round() as usize)
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| super::bars::format_value(*y))
            .label_style(font(11.0))
            .axis_desc_style(font(11.0))
            .x_desc("workers (threads)")
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        let px = |threads: f64, value: f64| {
            let (x, y) = chart.backend_coord(&(threads, value));
            (x as f64, y as f64)
        };
        for s in series {
            if let Some((one, all)) = ideal(s) {
                overlay.ideal(
                    &[px(1.0, one), px(max_threads as f64, all)],
                    &format!("{}: ideal, the one-worker figure times the workers", s.label),
                );
            }
        }
        for s in series {
            let joined: Vec<(f64, f64)> = s.points.iter().map(|p| px(p.threads as f64, p.value)).collect();
            overlay.line(s.style, &joined, &format!("{}: measured aggregate", s.label));
            for p in &s.points {
                let (x, y) = px(p.threads as f64, p.value);
                overlay.range(s.style, x, (px(0.0, p.interval.0).1, px(0.0, p.interval.1).1), &p.tooltip);
                overlay.point(s.style, x, y, &p.tooltip);
            }
        }
        root.present().map_err(err)?;
    }
    Ok(overlay.finish(svg, "scaling", title))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_intervals_and_the_ideal_are_drawn() {
        let s = vec![ThreadSeries {
            style: 0,
            label: "OpenSSL".into(),
            points: [(1, 100.0), (2, 190.0), (4, 330.0)]
                .iter()
                .map(|&(threads, value)| ThreadPoint {
                    threads,
                    value,
                    interval: (value * 0.98, value * 1.02),
                    tooltip: format!("{threads} workers: {value}"),
                })
                .collect(),
        }];
        let svg = throughput_by_threads("aes-128-gcm enc message, 16 KiB", &s, "MB/s").unwrap();
        assert_eq!(svg.matches("class=\"point s0\"").count(), 3);
        assert_eq!(svg.matches("class=\"range s0\"").count(), 3);
        assert_eq!(svg.matches("class=\"ideal\"").count(), 1);
        assert!(svg.contains("<title>4 workers: 330</title>"));
        assert!(svg.contains("class=\"chart scaling\""));
        assert!(throughput_by_threads("empty", &[], "MB/s").is_err());
    }
}
