//! The implementations BearSSL picks at run time, chosen the way its own
//! code chooses them (src/ssl/ssl_engine_default_aescbc.c, _aesgcm.c and
//! _chapol.c: the x86ni AES when `br_aes_x86ni_*_get_vtable` returns one,
//! else ct64 on 64-bit builds; pclmul GHASH, else ctmul64; sse2 ChaCha20,
//! else ct; ctmulq Poly1305, else ctmul; 3DES: the constant-time `ct`
//! code, as br_ssl_engine_set_default_des_cbc in
//! src/ssl/ssl_engine_default_descbc.c), with their names for the
//! configuration. The `*_get*` calls return NULL where the CPU lacks the
//! instructions (BearSSL reads CPUID itself and offers no override, so
//! there is no mask), which makes the names BearSSL's acceleration view.

use super::api::*;

/// One choice per primitive family, and what was chosen.
pub struct Impls {
    pub cbcenc: *const CbcClass,
    pub cbcdec: *const CbcClass,
    pub ctr: *const CtrClass,
    /// AES in CTR and CBC-MAC together, for CCM.
    pub ctrcbc: *const CtrCbcClass,
    pub des_cbcenc: *const CbcClass,
    pub des_cbcdec: *const CbcClass,
    pub ghash: Ghash,
    pub chacha20: ChaCha20Run,
    pub poly1305: Poly1305Run,
    pub ec: *const EcImpl,
    /// What each family runs, in words.
    pub names: Vec<String>,
}

// SAFETY: the pointers are to BearSSL's static, read-only vtables and code.
unsafe impl Send for Impls {}
// SAFETY: as above.
unsafe impl Sync for Impls {}

impl Impls {
    /// # Safety
    /// `api` and `lib` must be the same BearSSL, alive while the result is used.
    pub unsafe fn choose(api: &Api, lib: &libloading::Library) -> Result<Impls, &'static str> {
        let mut names = Vec::new();
        // SAFETY: plain queries and data-symbol lookups per the contract.
        unsafe {
            let (cbcenc, cbcdec, ctr) = match (
                (api.br_aes_x86ni_cbcenc_get_vtable)(),
                (api.br_aes_x86ni_cbcdec_get_vtable)(),
                (api.br_aes_x86ni_ctr_get_vtable)(),
            ) {
                (e, d, c) if !e.is_null() && !d.is_null() && !c.is_null() => {
                    names.push("aes: x86ni (AES-NI)".to_string());
                    (e, d, c)
                }
                _ => {
                    names.push("aes: ct64 (constant-time bitsliced; no AES-NI)".to_string());
                    (
                        data::<CbcClass>(lib, "br_aes_ct64_cbcenc_vtable\0")?,
                        data::<CbcClass>(lib, "br_aes_ct64_cbcdec_vtable\0")?,
                        data::<CtrClass>(lib, "br_aes_ct64_ctr_vtable\0")?,
                    )
                }
            };
            let ctrcbc = match (api.br_aes_x86ni_ctrcbc_get_vtable)() {
                c if !c.is_null() => c,
                _ => data::<CtrCbcClass>(lib, "br_aes_ct64_ctrcbc_vtable\0")?,
            };
            let des_cbcenc = data::<CbcClass>(lib, "br_des_ct_cbcenc_vtable\0")?;
            let des_cbcdec = data::<CbcClass>(lib, "br_des_ct_cbcdec_vtable\0")?;
            names.push("des: ct (constant-time)".to_string());
            let ghash = match (api.br_ghash_pclmul_get)() {
                Some(g) => {
                    names.push("ghash: pclmul".to_string());
                    g
                }
                None => {
                    names.push("ghash: ctmul64 (no PCLMULQDQ)".to_string());
                    api.br_ghash_ctmul64
                }
            };
            let chacha20 = match (api.br_chacha20_sse2_get)() {
                Some(c) => {
                    names.push("chacha20: sse2".to_string());
                    c
                }
                None => {
                    names.push("chacha20: ct".to_string());
                    api.br_chacha20_ct_run
                }
            };
            let poly1305 = match (api.br_poly1305_ctmulq_get)() {
                Some(p) => {
                    names.push("poly1305: ctmulq (64-bit multiplications)".to_string());
                    p
                }
                None => {
                    names.push("poly1305: ctmul".to_string());
                    api.br_poly1305_ctmul_run
                }
            };
            let i62 = !(api.br_rsa_i62_private_get)().is_null();
            names.push(if i62 { "rsa: i62" } else { "rsa: i31" }.to_string());
            let ec = (api.br_ec_get_default)();
            let m31 = data::<EcImpl>(lib, "br_ec_all_m31\0").unwrap_or(std::ptr::null());
            let m15 = data::<EcImpl>(lib, "br_ec_all_m15\0").unwrap_or(std::ptr::null());
            names.push(
                if ec == m31 {
                    "ec: all_m31 (P-256 p256_m31, Curve25519 c25519_m31, P-384/P-521 prime_i31)"
                } else if ec == m15 {
                    "ec: all_m15 (P-256 p256_m15, Curve25519 c25519_m15, P-384/P-521 prime_i15)"
                } else {
                    "ec: br_ec_get_default"
                }
                .to_string(),
            );
            Ok(Impls {
                cbcenc,
                cbcdec,
                ctr,
                ctrcbc,
                des_cbcenc,
                des_cbcdec,
                ghash,
                chacha20,
                poly1305,
                ec,
                names,
            })
        }
    }
}

impl Impls {
    /// What runs `family` ("aes", "ghash", "chacha20", "poly1305", "rsa", "ec").
    pub fn name(&self, family: &str) -> Option<&str> {
        self.names.iter().find_map(|n| n.strip_prefix(family)?.strip_prefix(": "))
    }
}

/// What a choice shows BearSSL found: its x86ni AES needs AES-NI, its
/// pclmul GHASH PCLMULQDQ (src/symcipher/aes_x86ni.c and
/// src/hash/ghash_pclmul.c test those CPUID bits before returning them).
const CHOICES: &[(&str, &[&str])] = &[("aes: x86ni (AES-NI)", &["aes"]), ("ghash: pclmul", &["pclmulqdq"])];

/// The features the choices can show: x86's only (BearSSL 0.6 has no code
/// for the AES or PMULL instructions of other architectures, so there its
/// choices say nothing of them).
const UNDERSTOOD: &[&str] = if cfg!(any(target_arch = "x86_64", target_arch = "x86")) {
    &["aes", "pclmulqdq"]
} else {
    &[]
};

/// The registry's view hook: "bearssl: aes: x86ni (AES-NI); ghash: pclmul; …" decoded.
pub fn view(capabilities: &str, _version: Option<&str>) -> Option<(Vec<cryptobench_cpu::features::Feature>, &'static [&'static str])> {
    let choices = capabilities.trim().strip_prefix("bearssl:")?;
    let features = crate::registry::features_named(choices.split(';').map(str::trim), CHOICES, |c| format!("BearSSL chose {c}"));
    Some((features, UNDERSTOOD))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_name_the_features_they_need() {
        let (on, understood) = view(
            "bearssl: aes: x86ni (AES-NI); des: ct (constant-time); ghash: pclmul; chacha20: sse2",
            None,
        )
        .unwrap();
        let names: Vec<&str> = on.iter().map(|f| f.name).collect();
        assert_eq!(names, ["aes", "pclmulqdq"]);
        assert_eq!(understood, UNDERSTOOD);
        let (off, _) = view(
            "bearssl: aes: ct64 (constant-time bitsliced; no AES-NI); ghash: ctmul64 (no PCLMULQDQ)",
            None,
        )
        .unwrap();
        assert!(off.is_empty());
        assert!(view("gnutls: Intel AES accelerator was detected", None).is_none());
    }
}
