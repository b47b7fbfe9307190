//! The public-key rows `openssl speed` measures when given no algorithm, by
//! version, and which of them cryptobench measures (`--algos openssl-speed`).
//!
//! Read in `apps/speed.c`, the block after "No parameters; turn on
//! everything": every entry of `rsa_doit`, `dsa_doit`, `ecdsa_doit`,
//! `ecdh_doit` and `eddsa_doit` is set (1.1.1w `speed.c:1821-1840`), plus
//! `ffdh_doit` and `sm2_doit` in 3.0.8 (`:1841-1851`), plus `kems_doit` and
//! `sigs_doit` in 3.5.5 (`:2655-2673`) and 4.0.3 (`:2479-2493`, where
//! Ed25519, Ed448 and SM2 moved into `ecdsa_choices`, `:500-535`). The lists
//! themselves are `rsa_choices`, `dsa_choices`, `ecdsa_choices`,
//! `ecdh_choices`, `eddsa_choices`, `ffdh_choices` and `sm2_choices` of each
//! file. From 3.5 the KEM and signature rows are collected at run time from
//! the providers (`EVP_KEM_do_all_provided`, `EVP_SIGNATURE_do_all_provided`,
//! 3.5.5 `speed.c:2281-2371`): with the default provider these are the
//! `deflt_asym_kem` and `deflt_signature` tables of `providers/defltprov.c`
//! (RSA expands to every `rsa_choices` size, EC to ECP-256/384/521; RSA*,
//! DSA*, ED*, ECDSA*, SM2 and the MACs are skipped as measured elsewhere).

use crate::speed_row::{not, row, SpeedRow};

const SMALL_RSA: &str = "RSA below 2048 bits is not in the catalog";
const LARGE_RSA: &str = "RSA 7680 and 15360 are not in the catalog";
const SMALL_CURVE: &str = "curves below 256 bits are not in the catalog";
const BINARY: &str = "binary-field (Koblitz and random) curves are not in the catalog";
const BRAINPOOL: &str = "Brainpool curves are not in the catalog";
const DSA: &str = "DSA (withdrawn by FIPS 186-5) is not in the catalog";
const FFDH: &str = "finite-field Diffie-Hellman is not in the catalog";
const SM2: &str = "SM2 is not in the catalog";
const RSA_KEM: &str = "the RSA KEM (RSASVE, SP 800-56B) is not in the catalog";
const DHKEM: &str = "DHKEM (RFC 9180) is not in the catalog; the catalog's ECDH cells measure the raw derive";
const HYBRID: &str = "hybrid ML-KEM KEMs are not in the catalog (their parts are: mlkem768/1024, x25519, x448, ecdhp256/384)";
const SLH_OTHER: &str = "only SLH-DSA-SHA2-128s/128f and SLH-DSA-SHAKE-128f are in the catalog";

/// `rsa_choices` (all versions).
macro_rules! rsa_rows {
    ($why_small:expr) => {
        [
            not("rsa512", $why_small),
            not("rsa1024", $why_small),
            row("rsa2048", "rsa2048"),
            row("rsa3072", "rsa3072"),
            row("rsa4096", "rsa4096"),
            not("rsa7680", LARGE_RSA),
            not("rsa15360", LARGE_RSA),
        ]
    };
}

/// `ecdsa_choices` up to the Brainpool curves (all versions).
macro_rules! ecdsa_rows {
    () => {
        [
            not("ecdsap160", SMALL_CURVE),
            not("ecdsap192", SMALL_CURVE),
            not("ecdsap224", SMALL_CURVE),
            row("ecdsap256", "ecdsap256"),
            row("ecdsap384", "ecdsap384"),
            row("ecdsap521", "ecdsap521"),
            not("ecdsak163", BINARY),
            not("ecdsak233", BINARY),
            not("ecdsak283", BINARY),
            not("ecdsak409", BINARY),
            not("ecdsak571", BINARY),
            not("ecdsab163", BINARY),
            not("ecdsab233", BINARY),
            not("ecdsab283", BINARY),
            not("ecdsab409", BINARY),
            not("ecdsab571", BINARY),
            not("ecdsabrp256r1", BRAINPOOL),
            not("ecdsabrp256t1", BRAINPOOL),
            not("ecdsabrp384r1", BRAINPOOL),
            not("ecdsabrp384t1", BRAINPOOL),
            not("ecdsabrp512r1", BRAINPOOL),
            not("ecdsabrp512t1", BRAINPOOL),
        ]
    };
}

/// `ecdh_choices` (all versions).
macro_rules! ecdh_rows {
    () => {
        [
            not("ecdhp160", SMALL_CURVE),
            not("ecdhp192", SMALL_CURVE),
            not("ecdhp224", SMALL_CURVE),
            row("ecdhp256", "ecdhp256"),
            row("ecdhp384", "ecdhp384"),
            not("ecdhp521", "ECDH over P-521 is not in the catalog"),
            not("ecdhk163", BINARY),
            not("ecdhk233", BINARY),
            not("ecdhk283", BINARY),
            not("ecdhk409", BINARY),
            not("ecdhk571", BINARY),
            not("ecdhb163", BINARY),
            not("ecdhb233", BINARY),
            not("ecdhb283", BINARY),
            not("ecdhb409", BINARY),
            not("ecdhb571", BINARY),
            not("ecdhbrp256r1", BRAINPOOL),
            not("ecdhbrp256t1", BRAINPOOL),
            not("ecdhbrp384r1", BRAINPOOL),
            not("ecdhbrp384t1", BRAINPOOL),
            not("ecdhbrp512r1", BRAINPOOL),
            not("ecdhbrp512t1", BRAINPOOL),
            row("ecdhx25519", "x25519"),
            row("ecdhx448", "x448"),
        ]
    };
}

/// The KEM rows of the default provider (`deflt_asym_kem`, 3.5.5 and 4.0.3).
macro_rules! kem_rows {
    ($($extra:expr),*) => {
        [
            not("rsa512 (KEM)", RSA_KEM),
            not("rsa1024 (KEM)", RSA_KEM),
            not("rsa2048 (KEM)", RSA_KEM),
            not("rsa3072 (KEM)", RSA_KEM),
            not("rsa4096 (KEM)", RSA_KEM),
            not("rsa7680 (KEM)", RSA_KEM),
            not("rsa15360 (KEM)", RSA_KEM),
            not("X25519 (KEM)", DHKEM),
            not("X448 (KEM)", DHKEM),
            not("ECP-256", DHKEM),
            not("ECP-384", DHKEM),
            not("ECP-521", DHKEM),
            row("ML-KEM-512", "mlkem512"),
            row("ML-KEM-768", "mlkem768"),
            row("ML-KEM-1024", "mlkem1024"),
            not("X25519MLKEM768", HYBRID),
            not("X448MLKEM1024", HYBRID),
            not("SecP256r1MLKEM768", HYBRID),
            not("SecP384r1MLKEM1024", HYBRID),
            $($extra,)*
        ]
    };
}

/// The signature rows of the default provider that speed keeps
/// (`deflt_signature`, RSA/DSA/EdDSA/ECDSA/SM2/MACs skipped), 3.5.5 and 4.0.3.
macro_rules! sig_rows {
    ($($extra:expr),*) => {
        [
            row("ML-DSA-44", "mldsa44"),
            row("ML-DSA-65", "mldsa65"),
            row("ML-DSA-87", "mldsa87"),
            $($extra,)*
            row("SLH-DSA-SHA2-128s", "slhdsa-sha2-128s"),
            row("SLH-DSA-SHA2-128f", "slhdsa-sha2-128f"),
            not("SLH-DSA-SHA2-192s", SLH_OTHER),
            not("SLH-DSA-SHA2-192f", SLH_OTHER),
            not("SLH-DSA-SHA2-256s", SLH_OTHER),
            not("SLH-DSA-SHA2-256f", SLH_OTHER),
            not("SLH-DSA-SHAKE-128s", SLH_OTHER),
            row("SLH-DSA-SHAKE-128f", "slhdsa-shake-128f"),
            not("SLH-DSA-SHAKE-192s", SLH_OTHER),
            not("SLH-DSA-SHAKE-192f", SLH_OTHER),
            not("SLH-DSA-SHAKE-256s", SLH_OTHER),
            not("SLH-DSA-SHAKE-256f", SLH_OTHER),
        ]
    };
}

const EDDSA: [SpeedRow; 2] = [row("ed25519", "ed25519"), row("ed448", "ed448")];

const fn concat<const N: usize>(parts: &[&[SpeedRow]]) -> [SpeedRow; N] {
    let mut out = [not("", ""); N];
    let (mut i, mut p) = (0, 0);
    while p < parts.len() {
        let mut j = 0;
        while j < parts[p].len() {
            out[i] = parts[p][j];
            i += 1;
            j += 1;
        }
        p += 1;
    }
    assert!(i == N, "the length given is the sum of the parts");
    out
}

/// 1.1.1w: rsa, dsa (512-2048), ecdsa, ecdh, eddsa.
pub static PK_V111: [SpeedRow; 58] = concat(&[
    &rsa_rows!(SMALL_RSA),
    &[not("dsa512", DSA), not("dsa1024", DSA), not("dsa2048", DSA)],
    &ecdsa_rows!(),
    &ecdh_rows!(),
    &EDDSA,
]);

/// 3.0.8: as 1.1.1w plus ffdh and sm2.
pub static PK_V30: [SpeedRow; 64] = concat(&[
    &rsa_rows!(SMALL_RSA),
    &[
        not("ffdh2048", FFDH),
        not("ffdh3072", FFDH),
        not("ffdh4096", FFDH),
        not("ffdh6144", FFDH),
        not("ffdh8192", FFDH),
    ],
    &[not("dsa512", DSA), not("dsa1024", DSA), not("dsa2048", DSA)],
    &ecdsa_rows!(),
    &ecdh_rows!(),
    &EDDSA,
    &[not("curveSM2", SM2)],
]);

const FFDH_ROWS: [SpeedRow; 5] = [
    not("ffdh2048", FFDH),
    not("ffdh3072", FFDH),
    not("ffdh4096", FFDH),
    not("ffdh6144", FFDH),
    not("ffdh8192", FFDH),
];

/// 3.5.5: dsa512 gone; the KEM and signature rows of the default provider.
pub static PK_V35: [SpeedRow; 97] = concat(&[
    &rsa_rows!(SMALL_RSA),
    &FFDH_ROWS,
    &[not("dsa1024", DSA), not("dsa2048", DSA)],
    &ecdsa_rows!(),
    &ecdh_rows!(),
    &EDDSA,
    &[not("curveSM2", SM2)],
    &kem_rows!(),
    &sig_rows!(),
]);

/// 4.0.3: EdDSA and SM2 among the ecdsa rows; curveSM2MLKEM768 and LMS added.
pub static PK_V40: [SpeedRow; 99] = concat(&[
    &rsa_rows!(SMALL_RSA),
    &FFDH_ROWS,
    &[not("dsa1024", DSA), not("dsa2048", DSA)],
    &ecdsa_rows!(),
    &EDDSA,
    &[not("sm2", SM2)],
    &ecdh_rows!(),
    &kem_rows!(not("curveSM2MLKEM768", HYBRID)),
    &sig_rows!(not("LMS", "LMS (OpenSSL verifies only, SP 800-208) is not in the catalog")),
]);
