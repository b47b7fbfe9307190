//! The public-key part of a plan (crates/core/src/pk.rs): which names on
//! `--algos` are public-key algorithms, and their cells. Kept apart from
//! plan.rs so that the symmetric planning stays as it was.

use anyhow::Result;
use cryptobench_core::pk::{self, PkAlgorithmSpec, PK_CATALOG};
use cryptobench_core::{catalog, CellSpec, Mode, Operation};

use crate::exit::usage;

/// Splits `--algos` into symmetric names (kept as given, for plan.rs) and
/// public-key algorithms; `all` stands for both catalogs.
pub fn split(names: &[String]) -> Result<(Vec<String>, Vec<&'static PkAlgorithmSpec>)> {
    let mut symmetric = Vec::new();
    let mut public_key: Vec<&'static PkAlgorithmSpec> = Vec::new();
    for name in names.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        if name.eq_ignore_ascii_case("all") {
            symmetric.push(name.to_string());
            public_key = PK_CATALOG.iter().collect();
        } else if let Some(alg) = pk::find(name) {
            if !public_key.contains(&alg) {
                public_key.push(alg);
            }
        } else if catalog::find(name).is_some() || name.eq_ignore_ascii_case(catalog::OPENSSL_SPEED) {
            symmetric.push(name.to_string());
        } else {
            return Err(usage(format!(
                "unknown algorithm '{name}'; valid: {}, {}, or all, or {} (what `openssl speed` measures by default)",
                catalog::valid_names(),
                pk::valid_names(),
                catalog::OPENSSL_SPEED
            )));
        }
    }
    Ok((symmetric, public_key))
}

/// The cells of public-key algorithms: per algorithm the operations asked
/// for that it has (all of `openssl speed`'s when none are asked for), and
/// per operation the message lengths: `--sizes` for schemes that hash the
/// message themselves, the digest length for RSA and ECDSA, none for
/// operations without a message.
pub fn cells(algs: &[&'static PkAlgorithmSpec], ops: Option<&[Operation]>, sizes: Option<&[usize]>) -> Result<Vec<CellSpec>> {
    let mut cells = Vec::new();
    for alg in algs {
        let chosen: Vec<Operation> = match ops {
            Some(ops) => alg.operations.iter().copied().filter(|o| ops.contains(o)).collect(),
            None => alg.default_operations.to_vec(),
        };
        if chosen.is_empty() && ops.is_some_and(|o| o.iter().any(|x| !matches!(x, Operation::Encrypt | Operation::Decrypt))) {
            return Err(usage(format!(
                "--ops names no operation of {}; it has {}",
                alg.id,
                alg.operations.iter().map(|o| o.short()).collect::<Vec<_>>().join(", ")
            )));
        }
        for operation in chosen {
            let lengths: Vec<usize> = if !alg.takes_message(operation) {
                vec![0]
            } else if alg.message_sized {
                sizes.map(<[usize]>::to_vec).unwrap_or_else(|| vec![alg.message_len])
            } else {
                vec![alg.message_len]
            };
            for size in lengths {
                cells.push(CellSpec {
                    algorithm: alg.id.to_string(),
                    operation,
                    mode: Mode::Message,
                    rekey: false,
                    size,
                    aad: cryptobench_core::cell::DEFAULT_AAD_LEN,
                    unit: cryptobench_core::cell::CellUnit::Operations,
                });
            }
        }
    }
    Ok(cells)
}
