//! `cryptobench-worker`: the worker alone (what `cryptobench worker` runs),
//! for a configuration placed on another architecture. It takes the same
//! job on stdin; the argument `worker`, which the orchestrator appends to a
//! worker command, is accepted and nothing else is.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(args.is_empty() || args == ["worker"]) {
        eprintln!(
            "error: cryptobench-worker takes no arguments but `worker` (got {}); it reads a job on stdin and is started by \
             `cryptobench run --arch …`",
            args.join(" ")
        );
        return ExitCode::from(2);
    }
    match cryptobench_worker::serve() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
