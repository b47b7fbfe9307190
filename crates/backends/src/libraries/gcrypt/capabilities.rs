//! libgcrypt's view of the CPU and its masks. libgcrypt names hardware
//! features in its "hwflist" (gcry_get_config, src/hwfeatures.c):
//! intel-aesni, intel-pclmul, intel-shaext, intel-vaes-vpclmul, …,
//! arm-aes, arm-pmull, arm-sha1, arm-sha2, …, ppc-vcrypto, ppc-arch_2_07,
//! ppc-arch_3_00, ppc-arch_3_10, s390x-msa, s390x-msa-4, s390x-msa-8,
//! s390x-msa-9, s390x-vx, and from 1.11 riscv-v, riscv-zbb, riscv-zbc,
//! riscv-zvkb, riscv-zvkg, riscv-zvkned, riscv-zvknha, riscv-zvknhb;
//! `GCRYCTL_DISABLE_HWF` with
//! such a name, before initialisation, switches the feature off (libgcrypt
//! manual, "Controlling the library"). cryptobench's gcrypt backend takes the
//! names from `CRYPTOBENCH_GCRYPT_DISABLE_HWF` in the worker's environment.
//! The registry's hooks are [`view`] and [`mask`].

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::Feature;

use crate::registry::{features_named, Mask, MaskContext};

/// The variable the gcrypt backend reads (mod.rs, before initialisation).
pub const DISABLE_HWF_ENV: &str = "CRYPTOBENCH_GCRYPT_DISABLE_HWF";

/// hwflist name → the feature names `cryptobench cpu` uses.
const NAMES: &[(&str, &[&str])] = &[
    ("intel-ssse3", &["ssse3"]),
    ("intel-aesni", &["aes"]),
    ("intel-pclmul", &["pclmulqdq"]),
    ("intel-vaes-vpclmul", &["vaes", "vpclmulqdq"]),
    ("intel-shaext", &["sha_ni"]),
    ("intel-avx", &["avx"]),
    ("intel-avx2", &["avx2"]),
    ("intel-avx512", &["avx512f"]),
    ("intel-gfni", &["gfni"]),
    ("arm-neon", &["neon"]),
    ("arm-aes", &["aes"]),
    ("arm-pmull", &["pmull"]),
    ("arm-sha1", &["sha1"]),
    ("arm-sha2", &["sha2"]),
    ("arm-sha3", &["sha3"]),
    ("arm-sha512", &["sha512"]),
    ("arm-sve", &["sve"]),
    ("arm-sve2", &["sve2"]),
    ("ppc-vcrypto", &["vcrypto"]),
    ("ppc-arch_2_07", &["arch_2_07"]),
    ("ppc-arch_3_00", &["arch_3_00"]),
    ("ppc-arch_3_10", &["arch_3_1"]),
    // The facilities (src/hwf-s390x.c: STFLE bits 17, 77, 146, 155, and 129 with HWCAP_S390_VXRS).
    ("s390x-msa", &["msa"]),
    ("s390x-msa-4", &["msa4"]),
    ("s390x-msa-8", &["msa8"]),
    ("s390x-msa-9", &["msa9"]),
    ("s390x-vx", &["vx"]),
    ("riscv-v", &["v"]),
    ("riscv-zbb", &["zbb"]),
    ("riscv-zbc", &["zbc"]),
    ("riscv-zvkb", &["zvkb"]),
    ("riscv-zvkg", &["zvkg"]),
    ("riscv-zvkned", &["zvkned"]),
    ("riscv-zvknha", &["zvknha"]),
    ("riscv-zvknhb", &["zvknhb"]),
];

/// What switching s390x-msa off takes away: libgcrypt uses every CPACF
/// function only under that one flag (rijndael-s390x.c, cipher-gcm.c,
/// sha256.c, sha512.c: `hwfeatures & HWF_S390X_MSA`, then the query).
const S390X_MSA_FUNCTIONS: &[&str] = &[
    "km_aes",
    "kmctr_aes",
    "kma_gcm",
    "kimd_ghash",
    "kimd_sha1",
    "kimd_sha256",
    "kimd_sha512",
    "kimd_sha3",
];

/// Features the hwflist can express.
pub const UNDERSTOOD: &[&str] = &[
    "ssse3",
    "neon",
    "vcrypto",
    "aes",
    "pclmulqdq",
    "vaes",
    "vpclmulqdq",
    "sha_ni",
    "avx",
    "avx2",
    "avx512f",
    "gfni",
    "pmull",
    "sha1",
    "sha2",
    "sha3",
    "sha512",
    "sve",
    "sve2",
    "arch_2_07",
    "arch_3_00",
    "arch_3_1",
    "msa",
    "msa4",
    "msa8",
    "msa9",
    "vx",
    "v",
    "zbb",
    "zbc",
    "zvkb",
    "zvkg",
    "zvkned",
    "zvknha",
    "zvknhb",
];

/// Decodes "hwflist:intel-aesni:intel-pclmul:…" as the backend reports it;
/// "hwflist" alone is a list with nothing in it (libgcrypt found no
/// feature: under qemu-s390x 7.2 and qemu-riscv64 it does).
pub fn features(capabilities: &str) -> Option<Vec<Feature>> {
    let text = capabilities.trim();
    let list = text.strip_prefix("hwflist:").or((text == "hwflist").then_some(""))?;
    let flags = list.split(':').filter(|f| !f.is_empty());
    Some(features_named(flags, NAMES, |flag| format!("libgcrypt hwflist {flag}")))
}

/// The hwflist names that make up a family (every architecture's: the
/// backend disables them one by one, and libgcrypt refuses a name of
/// another architecture, which is not in its list, src/hwfeatures.c). VAES
/// comes bundled with VPCLMULQDQ in one flag, so it belongs to both
/// families; on s390x one flag, s390x-msa, carries all of CPACF.
fn family_flags(family: Family) -> &'static [&'static str] {
    match family {
        Family::Aes => &[
            "intel-aesni",
            "intel-vaes-vpclmul",
            "arm-aes",
            "ppc-vcrypto",
            "s390x-msa",
            "riscv-zvkned",
        ],
        Family::Clmul => &[
            "intel-pclmul",
            "intel-vaes-vpclmul",
            "arm-pmull",
            "ppc-vcrypto",
            "s390x-msa",
            "riscv-zbc",
            "riscv-zvkg",
        ],
        Family::Sha => &[
            "intel-shaext",
            "arm-sha1",
            "arm-sha2",
            "arm-sha512",
            "ppc-vcrypto",
            "s390x-msa",
            "riscv-zvknha",
            "riscv-zvknhb",
        ],
        Family::Simd => &[
            "intel-ssse3",
            "intel-avx",
            "intel-avx2",
            "intel-avx512",
            "arm-neon",
            "s390x-vx",
            "riscv-v",
            "riscv-zvkb",
        ],
        // libgcrypt's MPI assembly chooses no path by these: no switch.
        Family::Bignum => &[],
    }
}

/// The variable and value that switch `families` off.
fn env_mask(families: &[Family]) -> (&'static str, String) {
    let mut flags: Vec<&str> = Vec::new();
    for f in families {
        for flag in family_flags(*f) {
            if !flags.contains(flag) {
                flags.push(flag);
            }
        }
    }
    (DISABLE_HWF_ENV, flags.join(","))
}

/// The CPU features a mask of `families` switches off: the features of its hwflist names.
pub fn cleared(families: &[Family]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for family in families {
        for flag in family_flags(*family) {
            let functions = if *flag == "s390x-msa" { S390X_MSA_FUNCTIONS } else { &[] };
            for name in NAMES
                .iter()
                .filter(|(n, _)| n == flag)
                .flat_map(|(_, names)| names.iter())
                .chain(functions)
            {
                if !out.contains(name) {
                    out.push(*name);
                }
            }
        }
    }
    out
}

/// The registry's view hook: libgcrypt's hwflist as CPU features, and
/// what a hwflist can express (the same in every release).
pub fn view(capabilities: &str, version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])> {
    let _ = version;
    features(capabilities).map(|f| (f, UNDERSTOOD))
}

/// The registry's mask hook: the hwflist names of `families`, on every
/// architecture (libgcrypt ignores the names of another).
pub fn mask(ctx: &MaskContext<'_>, families: &[Family]) -> Result<Mask, String> {
    let _ = ctx;
    Ok(Mask::new(env_mask(families), cleared(families)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_hwflist() {
        let f = features("hwflist:intel-bmi2:intel-ssse3:intel-pclmul:intel-aesni:intel-avx2:intel-shaext:intel-vaes-vpclmul").unwrap();
        let names: Vec<&str> = f.iter().map(|x| x.name).collect();
        assert_eq!(names, vec!["ssse3", "pclmulqdq", "aes", "avx2", "sha_ni", "vaes", "vpclmulqdq"]);
        assert_eq!(f[2].source, "libgcrypt hwflist intel-aesni");
        assert!(features("OPENSSL_ia32cap=0x1").is_none());
    }

    #[test]
    fn masks_name_whole_families() {
        assert_eq!(
            env_mask(&[Family::Aes]).1,
            "intel-aesni,intel-vaes-vpclmul,arm-aes,ppc-vcrypto,s390x-msa,riscv-zvkned"
        );
        assert_eq!(
            env_mask(&[Family::Sha]),
            (
                DISABLE_HWF_ENV,
                "intel-shaext,arm-sha1,arm-sha2,arm-sha512,ppc-vcrypto,s390x-msa,riscv-zvknha,riscv-zvknhb".to_string()
            )
        );
        let aes = cleared(&[Family::Aes]);
        assert_eq!(&aes[..4], ["aes", "vaes", "vpclmulqdq", "vcrypto"]);
        assert!(
            aes.contains(&"msa") && aes.contains(&"km_aes") && aes.contains(&"kimd_sha256"),
            "s390x-msa takes all of CPACF: {aes:?}"
        );
        assert_eq!(&cleared(&[Family::Sha])[..5], ["sha_ni", "sha1", "sha2", "sha512", "vcrypto"]);
        assert_eq!(
            cleared(&[Family::Simd]),
            vec!["ssse3", "avx", "avx2", "avx512f", "neon", "vx", "v", "zvkb"]
        );
        let all = env_mask(&Family::ALL).1;
        assert_eq!(all.matches("intel-vaes-vpclmul").count(), 1);
    }

    #[test]
    fn the_other_architectures_names() {
        let f = features("hwflist:s390x-msa:s390x-msa-4:s390x-vx").unwrap();
        let names: Vec<&str> = f.iter().map(|x| x.name).collect();
        assert_eq!(names, vec!["msa", "msa4", "vx"]);
        let f = features("hwflist:ppc-vcrypto:ppc-arch_3_00:ppc-arch_2_07").unwrap();
        assert_eq!(
            f.iter().map(|x| x.name).collect::<Vec<_>>(),
            vec!["vcrypto", "arch_3_00", "arch_2_07"]
        );
        assert_eq!(features("hwflist:riscv-v:riscv-zvkned").unwrap().len(), 2);
        // An empty list is a view (it sees nothing), not an unknown string.
        assert_eq!(features("hwflist").unwrap(), Vec::new());
        assert!(features("hwf").is_none());
    }

    #[test]
    fn the_registry_hooks_read_and_mask_the_hwflist() {
        let (features, understood) = view("hwflist:intel-aesni:intel-pclmul", Some("libgcrypt 1.10.1")).unwrap();
        assert_eq!(features.len(), 2);
        assert!(understood.contains(&"aes"));
        let ctx = MaskContext {
            capabilities: None,
            cpu: &[],
            vendor: None,
            arch: "x86_64",
        };
        let m = mask(&ctx, &[Family::Aes]).unwrap();
        assert_eq!(m.var, "CRYPTOBENCH_GCRYPT_DISABLE_HWF");
        assert_eq!(m.value, "intel-aesni,intel-vaes-vpclmul,arm-aes,ppc-vcrypto,s390x-msa,riscv-zvkned");
        assert_eq!(&m.cleared[..4], ["aes", "vaes", "vpclmulqdq", "vcrypto"]);
    }
}
