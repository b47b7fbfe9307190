//! `--provider NAME[=PATH]` and `--engine ID|PATH`: an OpenSSL 3 provider or an
//! ENGINE as a configuration of the openssl library, each cell naming the
//! provider or engine that served it, and an algorithm it lacks run on the
//! default path, saying so.

mod common;

use common::{cryptobench, json, system_openssl_available, FAST};

/// The (algorithm, implementation) of every cell of configuration `i`.
fn served(v: &serde_json::Value, i: usize) -> Vec<(String, String)> {
    v["configurations"][i]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["status"], "measured", "{c}");
            (
                c["algorithm"].as_str().unwrap().to_string(),
                c["implementation"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn each_cell_names_the_provider_that_served_it() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args(["run", "--backend", "openssl", "--backend", "openssl", "--provider", "legacy"])
        .args([
            "--algos",
            "aes-128-cbc,sha256,hmac-sha256,ed25519",
            "--ops",
            "enc,sign",
            "--sizes",
            "64",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let version = v["configurations"][0]["backend"]["version"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if !version.starts_with("OpenSSL 3") && !version.starts_with("OpenSSL 4") {
        cryptobench_testkit::platform_lacks("OpenSSL 3 providers", format!("the system's libcrypto is {version}"));
        return;
    }
    for (alg, how) in served(&v, 0) {
        assert_eq!(how, "provider default", "{alg}");
    }
    // The legacy provider has none of these: the default path serves them, and
    // says so (a public-key cell: the provider of its key's operation).
    for (alg, how) in served(&v, 1) {
        let not_legacy = if alg == "ed25519" {
            "provider default: the default path, provider legacy does not serve this key"
        } else {
            "provider default: the default path, provider legacy does not offer"
        };
        assert!(how.starts_with(not_legacy), "{alg}: {how}");
    }
    assert!(
        served(&v, 0).iter().any(|(alg, _)| alg == "ed25519"),
        "the public-key cell is there"
    );
    let second = &v["configurations"][1]["backend"];
    assert!(second["version"].as_str().unwrap().ends_with("+ provider legacy"), "{second}");
}

#[test]
fn a_provider_a_library_cannot_load_is_refused_with_the_reason() {
    if !system_openssl_available() {
        return;
    }
    for (backend, says) in [
        ("openssl", "OSSL_PROVIDER_load(no-such-provider)"),
        ("rustcrypto", "has no providers"),
    ] {
        let out = cryptobench()
            .args([
                "run",
                "--backend",
                backend,
                "--provider",
                "no-such-provider",
                "--algos",
                "sha256",
                "--sizes",
                "64",
                "--no-save",
            ])
            .args(FAST)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{backend}: {err}");
        assert!(err.contains(says), "{backend}: {err}");
    }
}

/// libp11's engine (`libengine-pkcs11-openssl`) offers keys on a token, no
/// ciphers or digests: every symmetric cell runs on the default path and says so.
#[test]
fn an_engine_that_does_not_offer_an_algorithm_leaves_it_to_the_default_path_and_says_so() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args(["run", "--backend", "openssl", "--engine", "pkcs11"])
        .args(["--algos", "aes-128-cbc,sha256", "--sizes", "64", "--format", "json", "--no-save"])
        .args(FAST)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("ENGINE_by_id failed") {
        if cryptobench_testkit::own_emulator().is_some() {
            // .ci/run's aarch64 run: libengine-pkcs11-openssl:arm64 needs p11-kit:arm64,
            // which is not Multi-Arch: same and would replace the amd64 one (as Botan's libtspi1).
            cryptobench_testkit::platform_lacks("libp11's pkcs11 engine for this emulated architecture", err);
        } else {
            cryptobench_testkit::missing("libp11's pkcs11 engine (apt-get install libengine-pkcs11-openssl)", err);
        }
        return;
    }
    assert!(out.status.success(), "{err}");
    let v = json(&out);
    assert!(v["configurations"][0]["backend"]["version"]
        .as_str()
        .unwrap()
        .ends_with("+ engine pkcs11"));
    for (alg, how) in served(&v, 0) {
        assert!(
            how.ends_with(&format!("the default path, engine pkcs11 does not offer {alg}")),
            "{alg}: {how}"
        );
    }
}

/// `--properties QUERY` fetches every algorithm with that query: one that
/// matches measures and is named in the version; one nothing matches (no
/// FIPS provider here) refuses the configuration with OpenSSL's reason.
#[test]
fn a_property_query_is_used_or_refused_with_the_reason() {
    if !system_openssl_available() {
        return;
    }
    let run = |query: &str| {
        cryptobench()
            .args(["run", "--backend", "openssl", "--properties", query])
            .args(["--algos", "sha256", "--sizes", "64", "--format", "json", "--no-save"])
            .args(FAST)
            .output()
            .unwrap()
    };
    let out = run("provider=default");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    if err.contains("has no property queries") {
        cryptobench_testkit::platform_lacks("OpenSSL 3 property queries", err);
        return;
    }
    assert!(out.status.success(), "{err}");
    let v = json(&out);
    let version = v["configurations"][0]["backend"]["version"].as_str().unwrap();
    assert!(version.ends_with("+ properties provider=default"), "{version}");
    for (alg, how) in served(&v, 0) {
        assert_eq!(how, "provider default", "{alg}");
    }
    let out = run("fips=yes");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("--properties fips=yes: no SHA2-256 matches it"), "{err}");
}
