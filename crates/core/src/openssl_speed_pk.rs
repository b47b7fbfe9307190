//! The public-key sections of `openssl speed` output (apps/speed.c of
//! 1.1.1w, 3.0.22, 3.5.5 and 4.0.3; docs/METHOD.md, "Public key and openssl
//! speed"), as operations per second of public-key catalog ids.
//!
//! Human tables: a header line ending in `sign/s verify/s`, `op/s`,
//! `encr./s decr./s` or `keygens/s …` announces the operations of the rows
//! below it; a row names its algorithm (`rsa 2048 bits`, ` 256 bits ecdsa
//! (nistp256)`, `EC (prime256v1)` in 4.0, `ecdh (X25519)`, `EdDSA
//! (Ed25519)`, `ML-KEM-768`) and ends with one rate per operation.
//!
//! `-mr`: `+F2` (RSA: index, bits, sign/s, verify/s[, encrypt/s, decrypt/s]),
//! `+F4` (ECDSA, and EdDSA in 4.0: index, bits, sign/s, verify/s), `+F5`
//! (ECDH: index, bits, op/s, seconds), `+F6` (EdDSA in 1.1.1 and 3.x: index,
//! bits, name, sign/s, verify/s). KEMs and signature algorithms (3.5+) are
//! read from the `+R15`…`+R20` lines on stderr (count, name, seconds),
//! because their `+F` lines carry an index into a list `openssl speed`
//! builds at run time, and their number differs between 3.5 (`+F9`/`+F10`)
//! and 4.0 (`+F8`/`+F9`, where 3.x's `+F8` was FFDH).

use crate::cell::Operation;
use crate::pk;

/// One figure: catalog id, operation, operations per second, and what
/// openssl speed's loop signs (its message length), per version.
#[derive(Debug, Clone, PartialEq)]
pub struct PkFigure {
    pub algorithm: &'static str,
    pub operation: Operation,
    pub ops_per_second: f64,
}

/// The catalog id of a curve or algorithm name as openssl speed prints it.
fn id_of(kind: &str, name: &str) -> Option<&'static str> {
    let n = name.trim().trim_matches(|c| c == '(' || c == ')');
    let curve = |c: &str| -> Option<&'static str> {
        Some(match c {
            "nistp256" | "prime256v1" | "secp256r1" | "P-256" => "p256",
            "nistp384" | "secp384r1" | "P-384" => "p384",
            "nistp521" | "secp521r1" | "P-521" => "p521",
            _ => return None,
        })
    };
    let id = match kind {
        "ecdsa" | "EC" => match n {
            "Ed25519" => "ed25519".to_string(),
            "Ed448" => "ed448".to_string(),
            other => format!("ecdsa{}", curve(other)?),
        },
        "EdDSA" => n.to_ascii_lowercase(),
        "ecdh" => match n {
            "X25519" => "x25519".to_string(),
            "X448" => "x448".to_string(),
            other => format!("ecdh{}", curve(other)?),
        },
        _ => n.to_ascii_lowercase().replace('-', ""),
    };
    pk::find(&id).map(|a| a.id)
}

/// What openssl speed signs per call, in bytes (apps/speed.c): RSA 36 raw
/// bytes, ECDSA and EdDSA 20, ML-DSA and SLH-DSA 32 zero bytes.
pub fn speed_message_len(algorithm: &str, op: Operation) -> usize {
    let Some(alg) = pk::find(algorithm) else { return 0 };
    if !matches!(op, Operation::Sign | Operation::Verify) {
        return 0;
    }
    match alg.kind {
        pk::PkKind::RsaPkcs1 | pk::PkKind::RsaPss => 36,
        pk::PkKind::Ecdsa | pk::PkKind::EdDsa => 20,
        _ => 32,
    }
}

/// How openssl speed's loop differs from cryptobench's cell of the same operation.
pub fn semantics_note(algorithm: &str, op: Operation) -> &'static str {
    let Some(alg) = pk::find(algorithm) else { return "" };
    match (alg.kind, op) {
        (pk::PkKind::RsaPkcs1, Operation::Sign | Operation::Verify) => {
            "openssl speed signs 36 raw bytes with PKCS#1 v1.5 padding and no DigestInfo (cryptobench: a SHA-256 digest with its DigestInfo; the same private-key operation)"
        }
        (pk::PkKind::Ecdsa, Operation::Sign | Operation::Verify) => {
            "openssl speed signs 20 raw bytes (cryptobench: the curve's digest length)"
        }
        (pk::PkKind::MlDsa | pk::PkKind::SlhDsa, Operation::Sign | Operation::Verify) => "openssl speed signs 32 zero bytes",
        (pk::PkKind::EdDsa, _) => "openssl speed signs 20 bytes, as cryptobench by default",
        _ => "the same operation as cryptobench's",
    }
}

fn rate(token: &str) -> Option<f64> {
    let v: f64 = token.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// The operations a human-table header announces, in column order (None for other lines).
fn header_ops(line: &str) -> Option<Vec<Option<Operation>>> {
    let t = line.trim_end();
    if t.ends_with("keygens/s  encaps/s  decaps/s") || t.ends_with("keygens/s encaps/s decaps/s") {
        return Some(vec![Some(Operation::Keygen), Some(Operation::Encaps), Some(Operation::Decaps)]);
    }
    if t.contains("keygens/s") && t.ends_with("verify/s") {
        return Some(vec![Some(Operation::Keygen), Some(Operation::Sign), Some(Operation::Verify)]);
    }
    if t.ends_with("encr./s  decr./s") {
        // 3.5+: RSA encryption there is PKCS#1 v1.5, not the catalog's OAEP.
        return Some(vec![Some(Operation::Sign), Some(Operation::Verify), None, None]);
    }
    if t.ends_with("sign/s verify/s") {
        return Some(vec![Some(Operation::Sign), Some(Operation::Verify)]);
    }
    if t.ends_with("op/s") && t.trim_start().starts_with("op") {
        return Some(vec![Some(Operation::Derive)]);
    }
    None
}

/// The algorithm of a human-table row, from the tokens before its figures.
fn row_algorithm(name: &[&str]) -> Option<&'static str> {
    match name {
        ["rsa", bits, "bits", ..] => pk::find(&format!("rsa{bits}")).map(|a| a.id),
        [_, "bits", kind @ ("ecdsa" | "EdDSA" | "ecdh" | "EC"), curve, ..] => id_of(kind, curve),
        [single] => id_of("", single),
        _ => None,
    }
}

/// Whether a line belongs to a public-key section (a header or a row), so
/// the symmetric reader does not count it as unknown.
pub fn is_pk_line(line: &str) -> bool {
    header_ops(line).is_some() || {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        (1..tokens.len()).any(|i| row_algorithm(&tokens[..i]).is_some() && tokens[i].ends_with('s'))
    }
}

/// Reads every public-key figure of the text.
pub fn parse(text: &str) -> Vec<PkFigure> {
    let mut out: Vec<PkFigure> = Vec::new();
    let mut push = |algorithm: Option<&'static str>, operation: Operation, v: Option<f64>| {
        if let (Some(algorithm), Some(ops_per_second)) = (algorithm, v) {
            if ops_per_second > 0.0 && pk::find(algorithm).is_some_and(|a| a.operations.contains(&operation)) {
                out.retain(|f| !(f.algorithm == algorithm && f.operation == operation));
                out.push(PkFigure {
                    algorithm,
                    operation,
                    ops_per_second,
                });
            }
        }
    };
    let mut ops: Option<Vec<Option<Operation>>> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.starts_with('+') {
            let f: Vec<&str> = line.split(':').collect();
            let num = |i: usize| f.get(i).and_then(|t| rate(t));
            match f[0] {
                "+F2" => {
                    let id = f.get(2).and_then(|b| pk::find(&format!("rsa{b}"))).map(|a| a.id);
                    push(id, Operation::Sign, num(3));
                    push(id, Operation::Verify, num(4));
                }
                // P-256/384/521 are at indices 3, 4, 5 of every version's curve table;
                // 4.0's EdDSA rows have bits 253 and 456, which no other curve has.
                "+F4" => {
                    let id = match (f.get(1).copied(), f.get(2).copied()) {
                        (Some("3"), Some("256")) => Some("ecdsap256"),
                        (Some("4"), Some("384")) => Some("ecdsap384"),
                        (Some("5"), Some("521")) => Some("ecdsap521"),
                        (_, Some("253")) => Some("ed25519"),
                        (_, Some("456")) => Some("ed448"),
                        _ => None,
                    };
                    push(id, Operation::Sign, num(3));
                    push(id, Operation::Verify, num(4));
                }
                "+F5" => {
                    let id = match (f.get(1).copied(), f.get(2).copied()) {
                        (Some("3"), Some("256")) => Some("ecdhp256"),
                        (Some("4"), Some("384")) => Some("ecdhp384"),
                        (_, Some("253")) => Some("x25519"),
                        (_, Some("448")) => Some("x448"),
                        _ => None,
                    };
                    push(id, Operation::Derive, num(3));
                }
                "+F6" if f.len() >= 6 => {
                    let id = f.get(3).and_then(|n| id_of("EdDSA", n));
                    push(id, Operation::Sign, num(4));
                    push(id, Operation::Verify, num(5));
                }
                r @ ("+R15" | "+R16" | "+R17" | "+R18" | "+R19" | "+R20") if f.len() >= 4 => {
                    let op = match r {
                        "+R15" | "+R18" => Operation::Keygen,
                        "+R16" => Operation::Encaps,
                        "+R17" => Operation::Decaps,
                        "+R19" => Operation::Sign,
                        _ => Operation::Verify,
                    };
                    // RSA's keygen/sign/verify rows of 3.5's KEM and signature tables
                    // time PKCS#1 work like the rsa rows; only keygen is new.
                    let id = id_of("", f[2]).filter(|id| !id.starts_with("rsa") || op == Operation::Keygen);
                    let v = match (num(1), num(3)) {
                        (Some(count), Some(seconds)) if seconds > 0.0 => Some(count / seconds),
                        _ => None,
                    };
                    push(id, op, v);
                }
                _ => {}
            }
            continue;
        }
        if let Some(h) = header_ops(raw) {
            ops = Some(h);
            continue;
        }
        let Some(columns) = &ops else { continue };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // name … then one time per operation ("0.000992s") then one rate per operation.
        let n = columns.len();
        if tokens.len() < 2 * n + 1 {
            continue;
        }
        let (name, figures) = tokens.split_at(tokens.len() - 2 * n);
        let Some(id) = row_algorithm(name) else { continue };
        for (op, v) in columns.iter().zip(&figures[n..]) {
            let Some(op) = op else { continue };
            // 3.5's KEM/signature tables also list rsa2048: keep only its key generation.
            if id.starts_with("rsa") && columns[0] == Some(Operation::Keygen) && *op != Operation::Keygen {
                continue;
            }
            push(Some(id), *op, rate(v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_rows_of_each_version() {
        let text = "                  sign    verify    sign/s verify/s\n\
                    rsa 2048 bits 0.000992s 0.000054s   1008.0  18366.3\n\
                                                  sign    verify    sign/s verify/s\n\
                    \x20256 bits ecdsa (nistp256)   0.0001s   0.0001s  15717.0   8643.0\n\
                                                  op      op/s\n\
                    \x20253 bits ecdh (X25519)   0.0001s  17167.0\n\
                    \x20256 bits EC (prime256v1)   0.0001s   0.0002s  13216.8   4263.4\n";
        let f = parse(text);
        let get = |a: &str, o| f.iter().find(|x| x.algorithm == a && x.operation == o).map(|x| x.ops_per_second);
        assert_eq!(get("rsa2048", Operation::Verify), Some(18366.3));
        assert_eq!(get("x25519", Operation::Derive), Some(17167.0));
        assert_eq!(get("ecdsap256", Operation::Sign), None.or(Some(15717.0)));
        assert!(is_pk_line(" 253 bits ecdh (X25519)   0.0001s  17167.0"));
        assert!(!is_pk_line("aes-128-gcm  1000.00k"));
    }

    #[test]
    fn machine_readable_lines() {
        let f = parse("+F2:2:2048:1248.000000:18588.118812\n+F6:0:253:Ed25519:7327.722772:3179.000000\n+R16:14206:ML-KEM-768:1.01\n");
        assert_eq!(f.len(), 5);
        assert!(f
            .iter()
            .any(|x| x.algorithm == "mlkem768" && x.operation == Operation::Encaps && (x.ops_per_second - 14065.3).abs() < 0.1));
        assert_eq!(speed_message_len("rsa2048", Operation::Sign), 36);
        assert_eq!(speed_message_len("mlkem768", Operation::Encaps), 0);
    }
}
