//! Workers on POWER (ppc64el), IBM Z (s390x) and RISC-V (riscv64) under
//! qemu-user, started by the native orchestrator: a quick verified run,
//! `verify` against the native library, `cpu` and the audit on POWER. The
//! workers are `cryptobench-worker` cross-built for each target and the
//! libraries come from a sysroot (`scripts/cross-sysroot NAME`; README,
//! "Other architectures"); `.ci/run` makes all three. Without them these
//! tests skip with the reason, and fail under CI=true.
//!
//! s390x is big-endian: the run and `verify` there are the checks that the
//! worker protocol, the known answers, the fingerprints and the vectors do
//! not depend on the byte order (the fingerprints must equal the native
//! x86-64 library's).

mod common;

use common::{cryptobench, json, FAST};

/// (`--arch` name, the worker's std::env::consts::ARCH, its label, the emulator, OpenSSL's vector variable)
const ISAS: &[(&str, &str, &str, &str, &str)] = &[
    ("ppc64el", "powerpc64", "ppc64le", "qemu-ppc64le", "OPENSSL_ppccap="),
    ("s390x", "s390x", "s390x", "qemu-s390x", "OPENSSL_s390xcap="),
    ("riscv64", "riscv64", "riscv64", "qemu-riscv64", "OPENSSL_riscvcap="),
];

/// Whether `--arch NAME` can run here; says why not otherwise.
fn ready(name: &str) -> bool {
    common::arch_ready(name, &format!("qemu-user, a cryptobench-worker and a sysroot for {name}"))
}

#[test]
fn a_quick_run_on_each_isa_is_verified_and_says_it_is_emulated() {
    for (name, arch, label, qemu, vector) in ISAS {
        if !ready(name) {
            continue;
        }
        let out = cryptobench()
            .args(["run", "--arch", name, "--algos", "aes-128-gcm,sha256,chacha20-poly1305"])
            .args(["--sizes", "16,1024", "--format", "json", "--no-save"])
            .args(FAST)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let run = json(&out);
        let c = &run["configurations"][0];
        assert_eq!(c["status"], "completed", "{name}: {c}");
        assert_eq!(c["platform"]["arch"], *arch);
        // The byte order the worker's checks ran in: IBM Z is big-endian, the others little.
        assert_eq!(
            c["platform"]["big_endian"].as_bool().unwrap_or(false),
            *name == "s390x",
            "{name}: {}",
            c["platform"]
        );
        let emulated = c["platform"]["emulated_by"].as_str().unwrap_or_default();
        assert!(emulated.starts_with(qemu), "{name}: {}", c["platform"]);
        let capabilities = c["backend"]["cpu_capabilities"].as_str().unwrap_or_default();
        assert!(capabilities.starts_with(vector), "{name}: {capabilities}");
        let verifications = c["verifications"].as_array().unwrap();
        assert!(
            !verifications.is_empty() && verifications.iter().all(|v| v["status"] == "passed"),
            "{name}: {c}"
        );
        let cells = c["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 6, "{name}: three algorithms at two sizes");
        assert!(cells.iter().all(|x| x["status"] == "measured"), "{name}: {c}");
        assert!(c["clock"]["not_meaningful"].as_str().unwrap().contains("emulator"), "{name}");
        // The terminal names the worker's architecture as its users do.
        let text = cryptobench()
            .args(["run", "--arch", name, "--algos", "sha256", "--sizes", "16", "--no-save"])
            .args(FAST)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains(&format!(" · {label}, emulated")), "{name}: {text}");
    }
}

#[test]
fn verify_on_each_isa_agrees_with_the_native_library() {
    for (name, ..) in ISAS {
        if ready(name) {
            common::assert_arch_agrees_with_native_openssl(
                name,
                "aes-128-gcm,aes-128-cbc,chacha20-poly1305,sha256,sha512,sha3-256,hmac-sha256",
            );
        }
    }
}

#[test]
fn cpu_on_power_lists_vector_crypto_with_its_source() {
    if !ready("ppc64le") {
        return;
    }
    let out = cryptobench().args(["cpu", "--arch", "ppc64le"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the worker: ppc64le, emulated by qemu-ppc64le"), "{text}");
    assert!(
        text.contains("vcrypto      yes   AT_HWCAP2 PPC_FEATURE2_VEC_CRYPTO (bit 25)"),
        "vector crypto with its HWCAP2 bit: {text}"
    );
    assert!(text.contains("OPENSSL_ppccap"), "{text}");
    assert!(text.contains("vcrypto (OPENSSL_ppccap bit 2)"), "OpenSSL's view decoded: {text}");
}

#[test]
fn cpu_on_z_reads_the_facility_list_and_the_cpacf_queries() {
    if !ready("s390x") {
        return;
    }
    let out = cryptobench().args(["cpu", "--arch", "s390x"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("msa          yes   STFLE facility 17"), "{text}");
    assert!(text.contains("the worker: s390x (big-endian), emulated by qemu-s390x"), "{text}");
    // What the emulator offers and what it lacks come from its own answers, both said.
    let features = text.split("crypto features").nth(1).unwrap();
    assert!(features.contains("KIMD query: function code"), "{text}");
    assert!(
        text.contains("emulated by qemu-s390x") && text.contains("it reports none of"),
        "{text}"
    );
    assert!(text.contains("OPENSSL_s390xcap"), "{text}");
    // OpenSSL's s390x vector (380 characters) is wrapped, not left to overflow the terminal.
    assert!(text.lines().all(|l| l.chars().count() <= 160), "{text}");
    // libgcrypt's view is read even where its hwflist is empty (it is under qemu-s390x 7.2).
    let out = cryptobench()
        .args(["cpu", "--arch", "s390x", "--backend", "gcrypt"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("capability vector: hwflist"), "{text}");
    assert!(!text.contains("not a capability vector cryptobench decodes"), "{text}");
}

#[test]
fn the_audit_on_power_switches_vector_crypto_off() {
    if !ready("ppc64le") {
        return;
    }
    let out = cryptobench()
        .args(["audit", "--arch", "ppc64le", "--algos", "aes-128-gcm", "--sizes", "16,16k"])
        .args(["--rounds", "1", "--format", "json", "--no-save"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let lib = &v["libraries"][0];
    assert_eq!(lib["worker_arch"], "powerpc64");
    let configs = v["run"]["configurations"].as_array().unwrap();
    // Each masked worker reports the vector it got: the mask took effect.
    for c in &configs[1..] {
        let mask = c["spec"]["env"]["OPENSSL_ppccap"].as_str().unwrap();
        let reported = c["backend"]["cpu_capabilities"].as_str().unwrap();
        assert!(reported.starts_with(&format!("OPENSSL_ppccap={mask}")), "{mask} vs {reported}");
    }
    let verdicts = lib["verdicts"].as_array().unwrap();
    let aes = verdicts.iter().find(|x| x["family"] == "aes").expect("an AES verdict");
    assert!(aes["text"].as_str().unwrap().contains("POWER8 vector crypto"), "{aes}");
    assert!(
        verdicts.iter().all(|x| x["text"].as_str().unwrap().starts_with("under emulation")),
        "{verdicts:?}"
    );
    assert!(aes["factor_large"].as_f64().is_some(), "measured with it switched off: {aes}");
}

/// IBM Z is big-endian: every C library the s390x sysroot holds passes the
/// same checks there as on this machine, with the same seed, and shows the
/// same library defects (the byte order changes none of the known answers,
/// fingerprints, key imports or signature encodings cryptobench handles).
#[test]
fn every_library_on_big_endian_z_checks_as_it_does_here() {
    if !ready("s390x") {
        return;
    }
    const LIBRARIES: [&str; 8] = ["openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "bearssl", "tomcrypt"];
    const ALGORITHMS: &str =
        "aes-128-gcm,aes-128-cbc,aes-128-ctr,chacha20-poly1305,sha256,sha512,sha3-256,hmac-sha256,poly1305,ecdsap256,ed25519,x25519";
    let verify = |arch: Option<&str>| {
        let mut cmd = cryptobench();
        cmd.arg("verify");
        if let Some(arch) = arch {
            cmd.args(["--arch", arch]);
        }
        for library in LIBRARIES {
            cmd.args(["--backend", library]);
        }
        let out = cmd
            .args(["--algos", ALGORITHMS, "--max-length", "1k", "--seed", "7", "--format", "json"])
            .output()
            .unwrap();
        // 3: every check passed and a library defect was named (src/exit.rs).
        assert!(
            matches!(out.status.code(), Some(0 | 3)),
            "{arch:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        json(&out)
    };
    // Per library: checks passed, failed, and its defects (algorithm, finding).
    let tally = |v: &serde_json::Value| {
        let mut out = std::collections::BTreeMap::<String, (u64, u64, Vec<String>)>::new();
        for s in v["summary"].as_array().unwrap() {
            let e = out.entry(s["configuration"].as_str().unwrap().to_string()).or_default();
            e.0 += s["tally"]["passed"].as_u64().unwrap();
            e.1 += s["tally"]["failed"].as_u64().unwrap();
        }
        for d in v["defects"].as_array().unwrap() {
            let e = out.entry(d["configuration"].as_str().unwrap().to_string()).or_default();
            e.2.push(format!("{} {}", d["defect"]["algorithm"], d["defect"]["finding"]));
        }
        out.values_mut().for_each(|e| e.2.sort());
        out
    };
    let here = tally(&verify(None));
    let z = tally(&verify(Some("s390x")));
    for library in LIBRARIES {
        let (Some(h), Some(b)) = (here.get(library), z.get(library)) else {
            cryptobench_testkit::missing(library, "checked on this machine and on s390x");
            continue;
        };
        assert!(h.0 > 0 && h.1 == 0, "{library} here: {h:?}");
        assert_eq!(b, h, "{library}: s390x (big-endian) against this machine");
    }
}
