//! Throughput against message size: one line per configuration, sizes on a
//! logarithmic axis (they grow by powers of two and four).

use plotters::prelude::*;

use super::{colour, err, ChartError, HEIGHT, WIDTH};
use crate::size_label;
use cryptobench_core::units::Unit;

/// One configuration's line: (name, colour index, [(size, bytes per second)]).
pub type Line = (String, usize, Vec<(usize, f64)>);

/// `series`: (name, colour index, [(size, bytes per second)]), sizes ascending;
/// the colour index keeps a configuration's colour the same in every chart.
pub fn throughput_by_size(title: &str, series: &[Line], unit: Unit) -> Result<String, ChartError> {
    let points = series.iter().flat_map(|s| s.2.iter());
    let (min_size, max_size) = points.clone().fold((usize::MAX, 0), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    let max_y = points.map(|p| p.1 / unit.divisor()).fold(0.0, f64::max);
    if min_size == usize::MAX {
        return Err(ChartError(format!("{title}: nothing measured")));
    }
    let sizes: Vec<usize> = {
        let mut v: Vec<usize> = series.iter().flat_map(|s| s.2.iter().map(|p| p.0)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    // x is log2(size): sizes grow by powers of two, and each measured size gets a labelled tick.
    let (x0, x1) = ((min_size as f64).log2() - 0.4, (max_size as f64).log2() + 0.4);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, 0.0..max_y * 1.1 + f64::MIN_POSITIVE)
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_desc("message size (log scale)")
            .x_labels((x1 - x0).ceil() as usize + 1)
            .disable_x_mesh()
            .y_desc(unit.label())
            .x_label_formatter(&|x| {
                sizes
                    .iter()
                    .find(|&&s| ((s as f64).log2() - x).abs() < 1e-6)
                    .map(|&s| size_label(s))
                    .unwrap_or_default()
            })
            .draw()
            .map_err(err)?;
        for (name, index, pts) in series {
            let c = colour(*index);
            let data: Vec<(f64, f64)> = pts.iter().map(|&(s, v)| ((s as f64).log2(), v / unit.divisor())).collect();
            chart
                .draw_series(LineSeries::new(data.clone(), c.stroke_width(2)))
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
            chart
                .draw_series(data.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
