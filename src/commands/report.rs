//! `cryptobench report RUN… --html FILE | --format markdown`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::cli::ReportArgs;
use crate::commands::run::{detail, unit};
use crate::orchestrate::store::load_runs;

pub fn report(args: &ReportArgs) -> Result<ExitCode> {
    let runs = load_runs(&args.runs, &args.db)?;
    let unit = unit(args.units);
    match &args.html {
        Some(path) => {
            let html = cryptobench_report::html::render(&runs, unit)?;
            // Written beside the target and renamed, so a failure never leaves half a file.
            let tmp = path.with_extension("html.partial");
            std::fs::write(&tmp, html).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => {
            let text = cryptobench_report::report_markdown::render(&runs, unit, detail(args.verbose));
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
                .context("writing to stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
