//! docs/METHOD.md's table of named extra work, as the tests that hold the
//! libraries (crates/backends/tests/every_backend.rs) and `cryptobench
//! algorithms` (tests/algorithms.rs) to it read it: one row per library and
//! group of cells, the algorithms as catalog ids, `*` standing for any part
//! of an id (`aes-*-gcm`, `hmac-*`).

use std::path::Path;

/// The header line that begins the table.
pub const EXTRA_WORK_HEADER: &str = "| Library | Algorithms | Cells | The work beyond (or short of) the mode, and why |";

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraWorkRow {
    /// The library's id in the registry (`openssl`, `pkcs11`).
    pub library: String,
    /// Catalog ids, or patterns of them with `*`.
    pub algorithms: Vec<String>,
    /// Which cells, as the library names them (`message decryption`, `verify`).
    pub cells: String,
}

/// docs/METHOD.md of this repository.
pub fn method_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/METHOD.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `id` matches `pattern`, where `*` stands for any run of characters.
pub fn matches(pattern: &str, id: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == id,
        Some((head, tail)) => id.starts_with(head) && (head.len()..=id.len()).any(|i| matches(tail, &id[i..])),
    }
}

/// The words between backticks in `cell`, in order.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The rows of the table of named extra work in `method` (its text), or
/// what is wrong with it.
pub fn extra_work_rows(method: &str) -> Result<Vec<ExtraWorkRow>, String> {
    let mut lines = method.lines().skip_while(|l| l.trim() != EXTRA_WORK_HEADER);
    if lines.next().is_none() {
        return Err(format!("docs/METHOD.md has no table beginning `{EXTRA_WORK_HEADER}`"));
    }
    let mut rows = Vec::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        let [library, algorithms, which, work] = cells[..] else {
            return Err(format!("a row of the table of named extra work has not four columns: {line}"));
        };
        let library = match quoted(library).as_slice() {
            [id] => id.clone(),
            _ => return Err(format!("the library of a row is not one `id`: {line}")),
        };
        let algorithms = quoted(algorithms);
        if algorithms.is_empty() || work.is_empty() {
            return Err(format!("a row names no algorithm or no work: {line}"));
        }
        rows.push(ExtraWorkRow {
            library,
            algorithms,
            cells: which.replace('`', ""),
        });
    }
    if rows.is_empty() {
        return Err("the table of named extra work has no rows".into());
    }
    Ok(rows)
}

/// The cells the table names for `library` and the algorithm `id`, sorted.
pub fn named_cells(rows: &[ExtraWorkRow], library: &str, id: &str) -> Vec<String> {
    let mut cells: Vec<String> = rows
        .iter()
        .filter(|r| r.library == library && r.algorithms.iter().any(|p| matches(p, id)))
        .map(|r| r.cells.clone())
        .collect();
    cells.sort();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_catalog_ids() {
        assert!(matches("aes-*-gcm", "aes-128-gcm"));
        assert!(matches("hmac-*", "hmac-sha256"));
        assert!(matches("*", "sha256"));
        assert!(!matches("aes-*-gcm", "aes-128-gcm-siv"));
        assert!(!matches("aes-128-gcm", "aes-128-gcm-siv"));
    }

    #[test]
    fn the_table_is_read_by_library_algorithm_and_cells() {
        let text = format!(
            "intro\n\n{EXTRA_WORK_HEADER}\n|---|---|---|---|\n| `nss` | `hmac-*`, `aes-128-cmac` | `message` | keys anew |\n\
             | `rustcrypto` | `aes-*-xts` | `message` decryption | a copy |\n\nafter\n| not | a | row | here |\n"
        );
        let rows = extra_work_rows(&text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(named_cells(&rows, "nss", "hmac-sha1"), ["message"]);
        assert_eq!(named_cells(&rows, "rustcrypto", "aes-256-xts"), ["message decryption"]);
        assert!(named_cells(&rows, "nss", "sha256").is_empty());
        assert!(extra_work_rows("no table").is_err());
    }

    #[test]
    fn method_md_has_the_table() {
        let rows = extra_work_rows(&method_text()).unwrap();
        assert!(rows.iter().any(|r| r.library == "openssl"));
    }
}
