//! What `openssl speed` measures when it is given no algorithm, by version,
//! and which of those rows cryptobench can measure (`--algos openssl-speed`).
//!
//! Read in `apps/speed.c` (the block after "No parameters; turn on
//! everything"): 1.1.1w turns on every `doit[]` entry but `D_EVP`
//! (`speed.c:1820-1825`); 3.0.8 (`:1813`), 3.5.5 (`:2624`) and 4.0.3 (`:2448`) set every entry and then
//! clear `D_EVP` and `D_EVP_CMAC` (so CMAC is *not* a default), drop the
//! digests and ciphers the loaded providers lack (`have_md`, `have_cipher`:
//! md2, mdc2, md4, whirlpool, single DES, RC4, IDEA, SEED, RC2, RC5,
//! Blowfish and CAST need the legacy provider), and drop GHASH and HMAC when
//! `EVP_MAC_fetch` finds no GMAC or HMAC. The HMAC row is `hmac(md5)` up to
//! 3.0 and `hmac(sha256)` in 3.5 and 4.0; 3.5 and 4.0 add KMAC-128/256.
//! Versions 3.1 to 3.4 were not read: they get the 3.0 list, with a note.
//! The public-key rows (rsa, ecdsa, ecdh, eddsa, and from 3.5 the KEMs and
//! signatures) are listed in [`crate::speed_defaults_pk`].

pub use crate::speed_row::SpeedRow;
use crate::speed_row::{not, row};

const LEGACY: &str = "needs OpenSSL's legacy provider (speed drops it without) and is not in the catalog";
const LEGACY_111: &str = "a legacy cipher not in the catalog";
const RAND: &str = "RAND_bytes is a random generator, not a cipher or digest of the catalog";

/// 1.1.1w: everything but `evp` (speed.c:1820).
static V111: &[SpeedRow] = &[
    not("md2", "not built by default (no-md2) and not in the catalog"),
    not("mdc2", LEGACY_111),
    not("md4", "a broken hash not in the catalog"),
    row("md5", "md5"),
    row("hmac(md5)", "hmac-md5"),
    row("sha1", "sha1"),
    not("rmd160", "RIPEMD-160 is not in the catalog"),
    not("rc4", LEGACY_111),
    not("des cbc", "single DES (56-bit key) is not in the catalog"),
    row("des ede3", "des-ede3-cbc"),
    not("idea cbc", LEGACY_111),
    not("seed cbc", LEGACY_111),
    not("rc2 cbc", LEGACY_111),
    not("rc5-32/12 cbc", "not built by default (no-rc5) and not in the catalog"),
    not("blowfish cbc", LEGACY_111),
    not("cast cbc", LEGACY_111),
    row("aes-128 cbc", "aes-128-cbc"),
    row("aes-192 cbc", "aes-192-cbc"),
    row("aes-256 cbc", "aes-256-cbc"),
    row("camellia-128 cbc", "camellia-128-cbc"),
    row("camellia-192 cbc", "camellia-192-cbc"),
    row("camellia-256 cbc", "camellia-256-cbc"),
    row("sha256", "sha256"),
    row("sha512", "sha512"),
    not("whirlpool", "Whirlpool is not in the catalog"),
    not("aes-128 ige", "IGE mode (OpenSSL's own, for MTProto) is not in the catalog"),
    not("aes-192 ige", "IGE mode (OpenSSL's own, for MTProto) is not in the catalog"),
    not("aes-256 ige", "IGE mode (OpenSSL's own, for MTProto) is not in the catalog"),
    row("ghash", "ghash"),
    not("rand", RAND),
];

/// 3.0 (read: 3.0.8): the `names[]` order; legacy rows are dropped by speed itself
/// unless the legacy provider is loaded.
static V30: &[SpeedRow] = &[
    not("md2", LEGACY),
    not("mdc2", LEGACY),
    not("md4", LEGACY),
    row("md5", "md5"),
    row("sha1", "sha1"),
    not("rmd160", "RIPEMD-160 is not in the catalog"),
    row("sha256", "sha256"),
    row("sha512", "sha512"),
    not("whirlpool", LEGACY),
    row("hmac(md5)", "hmac-md5"),
    not("des-cbc", LEGACY),
    row("des-ede3", "des-ede3-cbc"),
    not("rc4", LEGACY),
    not("idea-cbc", LEGACY),
    not("seed-cbc", LEGACY),
    not("rc2-cbc", LEGACY),
    not("rc5-cbc", LEGACY),
    not("blowfish", LEGACY),
    not("cast-cbc", LEGACY),
    row("aes-128-cbc", "aes-128-cbc"),
    row("aes-192-cbc", "aes-192-cbc"),
    row("aes-256-cbc", "aes-256-cbc"),
    row("camellia-128-cbc", "camellia-128-cbc"),
    row("camellia-192-cbc", "camellia-192-cbc"),
    row("camellia-256-cbc", "camellia-256-cbc"),
    row("ghash", "ghash"),
    not("rand", RAND),
];

/// 3.5 (read: 3.5.5) and 4.0 (read: 4.0.3): HMAC over SHA-256, KMAC added.
static V35: &[SpeedRow] = &[
    not("md2", LEGACY),
    not("mdc2", LEGACY),
    not("md4", LEGACY),
    row("md5", "md5"),
    row("sha1", "sha1"),
    not("rmd160", "RIPEMD-160 is not in the catalog"),
    row("sha256", "sha256"),
    row("sha512", "sha512"),
    not("whirlpool", LEGACY),
    row("hmac(sha256)", "hmac-sha256"),
    not("des-cbc", LEGACY),
    row("des-ede3", "des-ede3-cbc"),
    not("rc4", LEGACY),
    not("idea-cbc", LEGACY),
    not("seed-cbc", LEGACY),
    not("rc2-cbc", LEGACY),
    not("rc5-cbc", LEGACY),
    not("blowfish", LEGACY),
    not("cast-cbc", LEGACY),
    row("aes-128-cbc", "aes-128-cbc"),
    row("aes-192-cbc", "aes-192-cbc"),
    row("aes-256-cbc", "aes-256-cbc"),
    row("camellia-128-cbc", "camellia-128-cbc"),
    row("camellia-192-cbc", "camellia-192-cbc"),
    row("camellia-256-cbc", "camellia-256-cbc"),
    row("ghash", "ghash"),
    not("rand", RAND),
    not("kmac128", "KMAC (NIST SP 800-185) is not in the catalog"),
    not("kmac256", "KMAC (NIST SP 800-185) is not in the catalog"),
];

/// The default rows of one `openssl speed` version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeedDefaults {
    /// The apps/speed.c whose list this is, e.g. "3.0.8".
    pub read: &'static str,
    pub rows: &'static [SpeedRow],
    /// The public-key rows; their `catalog` ids are public-key catalog ids (crates/core/src/pk.rs).
    pub public_key: &'static [SpeedRow],
    /// Said when the version itself was not read.
    pub note: Option<String>,
}

impl SpeedDefaults {
    /// The catalog ids of the rows cryptobench measures, in speed's order.
    pub fn measured(&self) -> Vec<&'static str> {
        self.rows.iter().filter_map(|r| r.catalog).collect()
    }

    /// (speed's name, why not) of the rows cryptobench does not measure,
    /// symmetric and public key.
    pub fn not_measured(&self) -> Vec<(&'static str, &'static str)> {
        self.rows
            .iter()
            .chain(self.public_key)
            .filter_map(|r| r.why_not.map(|w| (r.name, w)))
            .collect()
    }

    /// The public-key catalog ids of the public-key rows cryptobench
    /// measures, in speed's order, each once (3.5's rsa rows come twice:
    /// as the rsa and the signature section).
    pub fn measured_public_key(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = Vec::new();
        for id in self.public_key.iter().filter_map(|r| r.catalog) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }
}

/// The defaults of the `openssl speed` of a library whose version string is
/// `version` ("OpenSSL 3.0.22 25 Aug 2026", "3.5.5"); None for what is not
/// OpenSSL 1.1.1 or later (LibreSSL, BoringSSL, older releases).
pub fn defaults_for(version: &str) -> Option<SpeedDefaults> {
    if !version.trim_start().starts_with("OpenSSL") && !version.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (major, minor, _) = crate::openssl_speed::version_number(version)?;
    use crate::speed_defaults_pk::{PK_V111, PK_V30, PK_V35, PK_V40};
    let (read, rows, public_key, note): (_, _, &'static [SpeedRow], _) = match (major, minor) {
        (1, 1) => ("1.1.1w", V111, &PK_V111, None),
        (3, 0) => ("3.0.8", V30, &PK_V30, None),
        (3, 1..=4) => (
            "3.0.8",
            V30,
            &PK_V30,
            Some(format!(
                "apps/speed.c of {major}.{minor} was not read; its defaults are taken as those of 3.0 (3.5 changed hmac(md5) to hmac(sha256) and added KMAC)"
            )),
        ),
        (3, 5..) => ("3.5.5", V35, &PK_V35, None),
        (4, 0) => ("4.0.3", V35, &PK_V40, None),
        (4.., _) => (
            "4.0.3",
            V35,
            &PK_V40,
            Some(format!("apps/speed.c of {major}.{minor} was not read; its defaults are taken as those of 4.0")),
        ),
        _ => return None,
    };
    Some(SpeedDefaults {
        read,
        rows,
        public_key,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speed_defaults_pk::{PK_V111, PK_V30, PK_V35, PK_V40};

    #[test]
    fn every_measured_row_is_in_the_catalog() {
        for rows in [V111, V30, V35] {
            for r in rows {
                assert!(r.catalog.is_some() != r.why_not.is_some(), "{}", r.name);
                if let Some(id) = r.catalog {
                    assert_eq!(crate::catalog::find(id).map(|a| a.id), Some(id));
                    // Importing speed's output maps the printed name to the same id.
                    assert_eq!(crate::openssl_speed::catalog_id(r.name), Some(id), "{}", r.name);
                }
            }
        }
    }

    #[test]
    fn versions_pick_their_list() {
        let v30 = defaults_for("OpenSSL 3.0.22 25 Aug 2026").unwrap();
        assert_eq!(v30.read, "3.0.8");
        assert!(v30.measured().contains(&"hmac-md5") && !v30.measured().contains(&"hmac-sha256"));
        assert!(
            !v30.measured().contains(&"aes-128-cmac"),
            "CMAC is not a default (doit[D_EVP_CMAC] = 0)"
        );
        let v35 = defaults_for("OpenSSL 3.5.5 27 Jan 2026").unwrap();
        assert!(v35.measured().contains(&"hmac-sha256"));
        assert!(v35.not_measured().iter().any(|(n, _)| *n == "kmac128"));
        assert!(defaults_for("OpenSSL 3.2.1 30 Jan 2024").unwrap().note.is_some());
        assert_eq!(defaults_for("OpenSSL 1.1.1w  11 Sep 2023").unwrap().read, "1.1.1w");
        assert_eq!(defaults_for("OpenSSL 4.0.3 1 Apr 2026").unwrap().read, "4.0.3");
        assert!(defaults_for("LibreSSL 3.8.2").is_none());
        assert!(defaults_for("OpenSSL 1.0.2u 20 Dec 2019").is_none());
    }

    #[test]
    fn every_measured_public_key_row_is_in_the_public_key_catalog() {
        for rows in [&PK_V111[..], &PK_V30, &PK_V35, &PK_V40] {
            for r in rows {
                assert!(r.catalog.is_some() != r.why_not.is_some(), "{}", r.name);
                if let Some(id) = r.catalog {
                    assert_eq!(crate::pk::find(id).map(|a| a.id), Some(id), "{}", r.name);
                }
            }
        }
    }

    #[test]
    fn public_key_rows_follow_the_version() {
        let v30 = defaults_for("OpenSSL 3.0.22 25 Aug 2026").unwrap().measured_public_key();
        assert_eq!(
            v30,
            [
                "rsa2048",
                "rsa3072",
                "rsa4096",
                "ecdsap256",
                "ecdsap384",
                "ecdsap521",
                "ecdhp256",
                "ecdhp384",
                "x25519",
                "x448",
                "ed25519",
                "ed448"
            ]
        );
        let v35 = defaults_for("OpenSSL 3.5.5 27 Jan 2026").unwrap().measured_public_key();
        assert!(v35.contains(&"mlkem768") && v35.contains(&"mldsa65") && v35.contains(&"slhdsa-shake-128f"));
        assert!(!defaults_for("OpenSSL 3.2.1 30 Jan 2024")
            .unwrap()
            .measured_public_key()
            .contains(&"mlkem768"));
        let v40 = defaults_for("OpenSSL 4.0.3 1 Apr 2026").unwrap();
        assert!(v40.not_measured().iter().any(|(n, _)| *n == "LMS"));
        assert_eq!(v40.measured_public_key().iter().filter(|id| **id == "ed25519").count(), 1);
    }
}
