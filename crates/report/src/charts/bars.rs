//! One bar per configuration (throughput at one size, or an on/off factor).

use plotters::prelude::*;

use super::{colour, err, ChartError, HEIGHT, WIDTH};

/// `bars`: (name, colour index, value in display units); `y_desc` names the unit.
pub fn bars(title: &str, bars: &[(String, usize, f64)], y_desc: &str) -> Result<String, ChartError> {
    if bars.is_empty() {
        return Err(ChartError(format!("{title}: nothing to draw")));
    }
    let max_y = bars.iter().map(|b| b.2).fold(0.0, f64::max);
    let n = bars.len();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n as f64, 0.0..max_y * 1.15 + f64::MIN_POSITIVE)
            .map_err(err)?;
        let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .max_light_lines(1)
            .y_desc(y_desc)
            .x_labels(n * 2 + 1)
            .x_label_formatter(&|x| {
                // Bar i is centred on i + 0.5.
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 0.05 && i >= 0.0 && (i as usize) < names.len() {
                    names[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        chart
            .draw_series(
                bars.iter()
                    .enumerate()
                    .map(|(i, b)| Rectangle::new([(i as f64 + 0.15, 0.0), (i as f64 + 0.85, b.2)], colour(b.1).filled())),
            )
            .map_err(err)?;
        chart
            .draw_series(
                bars.iter()
                    .enumerate()
                    .map(|(i, b)| Text::new(format_value(b.2), (i as f64 + 0.3, b.2 * 1.02 + max_y * 0.04), ("sans-serif", 14))),
            )
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn format_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
