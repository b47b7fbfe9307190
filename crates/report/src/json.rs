use cryptobench_core::result::RunResult;

pub fn render(run: &RunResult) -> String {
    let mut text = serde_json::to_string_pretty(run).expect("the result model always serialises");
    text.push('\n');
    text
}
