//! OpenSSL builds as variants: what a libcrypto says of its own build
//! (compiler, optimisation level, assembly or not), and the lab's cache of
//! variants built by bench/openssl-lab, which `--backend openssl=@NAME`
//! names.
//!
//! The build is read from the library itself, never from the name it was
//! given: `OpenSSL_version(OPENSSL_CFLAGS)` ("compiler: gcc -fPIC … -O3 …"),
//! and the compiler's version from the `.comment` strings compilers leave in
//! an ELF file ("GCC: (Debian 12.2.0-14) 12.2.0", "Debian clang version 14.0.6").

use std::path::{Path, PathBuf};

/// The folder of lab variants, when set: one folder per variant name
/// holding `libcrypto.so` (bench/openssl-lab's `LAB_OUT`).
pub const LAB_ENV: &str = "CRYPTOBENCH_OPENSSL_LAB";

/// The lab's folder under a `target/` directory (bench/openssl-lab's default).
const LAB_FOLDER: &str = "openssl-lab";

/// A library's build, as the library states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// The compiler as OPENSSL_CFLAGS names it ("gcc", "clang", "x86_64-linux-gnu-gcc").
    pub compiler: String,
    /// Its version from the file's compiler notes, where found ("12.2.0", "14.0.6").
    pub compiler_version: Option<String>,
    /// The last -O option on the compiler line (the one in effect), e.g. "-O3".
    pub optimisation: Option<String>,
    /// Built without assembly (`no-asm`).
    pub no_asm: bool,
}

impl Build {
    /// Reads `cflags` (OPENSSL_CFLAGS's text: "compiler: …" from 1.1.0 on;
    /// anything else is not a compiler line) and the compiler notes of
    /// `file_text` (the library file's bytes).
    pub fn parse(cflags: &str, file_text: Option<&[u8]>) -> Option<Build> {
        let line = cflags.trim().strip_prefix("compiler:")?.trim();
        let mut words = line.split_whitespace();
        let first = words.next()?;
        if first.starts_with('-') || first == "information" {
            // "compiler: information not available" (OPENSSL_CFLAGS of builds without it)
            return None;
        }
        let compiler = first.rsplit('/').next().unwrap_or(first).to_string();
        let words: Vec<&str> = words.collect();
        let optimisation = words
            .iter()
            .rev()
            .find(|w| w.len() > 2 && w.starts_with("-O"))
            .map(|w| w.to_string());
        // -DOPENSSL_NO_ASM as bench/build-openssl passes it with no-asm; a
        // configure option copied into the flags by other build scripts.
        let no_asm = words.iter().any(|w| *w == "-DOPENSSL_NO_ASM" || *w == "no-asm");
        let compiler_version = file_text.and_then(|t| compiler_version(&compiler, t));
        Some(Build {
            compiler,
            compiler_version,
            optimisation,
            no_asm,
        })
    }

    /// The backend's details for the run record: `build` (the summary) and
    /// its parts `build.compiler`, `build.optimisation`, `build.assembly`.
    pub fn details(&self) -> Vec<(String, String)> {
        let compiler = match &self.compiler_version {
            Some(v) => format!("{} {v}", self.compiler),
            None => self.compiler.clone(),
        };
        let mut d = vec![
            ("build".to_string(), self.summary()),
            ("build.compiler".to_string(), compiler),
            (
                "build.assembly".to_string(),
                if self.no_asm { "no-asm" } else { "default" }.to_string(),
            ),
        ];
        if let Some(o) = &self.optimisation {
            d.push(("build.optimisation".to_string(), o.clone()));
        }
        d
    }

    /// "clang 14.0.6 -O3 · no-asm", "gcc 12.2.0 -O3".
    pub fn summary(&self) -> String {
        let mut s = self.compiler.clone();
        for part in [&self.compiler_version, &self.optimisation].into_iter().flatten() {
            s.push(' ');
            s.push_str(part);
        }
        if self.no_asm {
            s.push_str(" · no-asm");
        }
        s
    }
}

/// The compiler's version from the notes compilers leave in the file: clang
/// "… clang version 14.0.6 …", gcc "GCC: (Debian 12.2.0-14) 12.2.0". A
/// library built by clang also carries gcc's note (from the C runtime's
/// start files), so the family on the compiler line decides which is read.
fn compiler_version(compiler: &str, text: &[u8]) -> Option<String> {
    let (marker, from_end) = if compiler.contains("clang") {
        (&b"clang version "[..], false)
    } else if compiler.contains("gcc") || compiler == "cc" {
        (&b"GCC: ("[..], true)
    } else {
        return None;
    };
    let at = text.windows(marker.len()).position(|w| w == marker)? + marker.len();
    let rest = &text[at..];
    let end = rest.iter().position(|b| *b == 0 || *b == b'\n').unwrap_or(rest.len()).min(200);
    let note = String::from_utf8_lossy(&rest[..end]).into_owned();
    // gcc: the version is the note's last word, after the distribution's ")";
    // clang: the first word after "clang version".
    let word = if from_end {
        note.rsplit(|c: char| c == ')' || c.is_whitespace()).next()
    } else {
        note.split_whitespace().next()
    }?;
    let version: String = word.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    (!version.is_empty()).then_some(version)
}

/// Where lab variants are looked for: [`LAB_ENV`] when set, else
/// `target/openssl-lab` beside the running executable (target/release/..)
/// and under the current folder.
pub fn lab_dirs() -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os(LAB_ENV).filter(|d| !d.is_empty()) {
        return vec![PathBuf::from(dir)];
    }
    let mut dirs = Vec::new();
    if let Some(target) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(Path::to_path_buf))
    {
        dirs.push(target.join(LAB_FOLDER));
    }
    dirs.push(PathBuf::from("target").join(LAB_FOLDER));
    let mut unique: Vec<PathBuf> = Vec::new();
    for d in dirs {
        let key = d.canonicalize().unwrap_or_else(|_| d.clone());
        if !unique.iter().any(|u| u.canonicalize().unwrap_or_else(|_| u.clone()) == key) {
            unique.push(d);
        }
    }
    unique
}

/// The variants built in `dir`: the names of its folders that hold a libcrypto.so, sorted.
pub fn variants_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("libcrypto.so").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    names
}

/// The library file of the lab variant `name` (`--backend openssl=@NAME`),
/// or an error naming the folders searched and the variants built there.
pub fn resolve_in(name: &str, dirs: &[PathBuf]) -> Result<String, String> {
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(format!(
            "'@{name}' is not a lab variant name; give a name as bench/openssl-lab --list shows it, e.g. @3.5.5-gcc-O3"
        ));
    }
    for dir in dirs {
        let file = dir.join(name).join("libcrypto.so");
        if file.is_file() {
            return Ok(file.display().to_string());
        }
    }
    let built: Vec<String> = dirs.iter().flat_map(|d| variants_in(d)).collect();
    let searched = dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ");
    Err(if built.is_empty() {
        format!(
            "no OpenSSL lab variant named '{name}': none is built in {searched} (build some with bench/openssl-lab; {LAB_ENV} names another folder)"
        )
    } else {
        format!(
            "no OpenSSL lab variant named '{name}' in {searched}; built: {} (bench/openssl-lab --list)",
            built.join(", ")
        )
    })
}

/// [`resolve_in`] over [`lab_dirs`]: the registry's hook for `@NAME`.
pub fn resolve(name: &str) -> Result<String, String> {
    resolve_in(name, &lab_dirs())
}

#[cfg(test)]
mod tests {
    use super::*;

    // OPENSSL_CFLAGS of builds made by bench/openssl-lab (OpenSSL 3.0.8, Debian 12).
    const GCC_ASM: &str = "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O3 -fPIC -O3 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_BUILDING_OPENSSL -DNDEBUG";
    // no-asm drops -Wa,--noexecstack; bench/build-openssl's -DOPENSSL_NO_ASM comes last.
    const GCC_NOASM: &str = "compiler: gcc -fPIC -pthread -m64 -Wall -O3 -fPIC -O3 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_BUILDING_OPENSSL -DNDEBUG -DOPENSSL_NO_ASM";
    const CLANG_ASM: &str = "compiler: clang -fPIC -pthread -m64 -Wa,--noexecstack -Qunused-arguments -Wall -O3 -fPIC -O3 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_BUILDING_OPENSSL -DNDEBUG";
    const CLANG_NOASM: &str = "compiler: clang -fPIC -pthread -m64 -Wall -O3 -fPIC -O3 -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_BUILDING_OPENSSL -DNDEBUG -DOPENSSL_NO_ASM";
    // Debian 12's libssl3 3.0.19 (tests/fixtures/runs/three-builds.json): -O2.
    const DEBIAN: &str = "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -fzero-call-used-regs=used-gpr -DOPENSSL_TLS_SECURITY_LEVEL=2 -Wa,--noexecstack -g -O2 -ffile-prefix-map=/build/reproducible-path/openssl-3.0.19=. -fstack-protector-strong -Wformat -Werror=format-security -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_BUILDING_OPENSSL -DNDEBUG -Wdate-time -D_FORTIFY_SOURCE=2";
    // 1.1.1w by bench/build-openssl (the same fixture): its asm defines are on the line.
    const V111: &str = "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O3 -fPIC -DOPENSSL_USE_NODELETE -DL_ENDIAN -DOPENSSL_PIC -DOPENSSL_CPUID_OBJ -DOPENSSL_IA32_SSE2 -DOPENSSL_BN_ASM_MONT -DOPENSSL_BN_ASM_MONT5 -DOPENSSL_BN_ASM_GF2m -DSHA1_ASM -DSHA256_ASM -DSHA512_ASM -DKECCAK1600_ASM -DRC4_ASM -DMD5_ASM -DAESNI_ASM -DVPAES_ASM -DGHASH_ASM -DECP_NISTZ256_ASM -DX25519_ASM -DPOLY1305_ASM -DNDEBUG";

    const GCC_NOTE: &[u8] = b"\x00GCC: (Debian 12.2.0-14+deb12u1) 12.2.0\x00";
    const CLANG_NOTES: &[u8] = b"\x00GCC: (Debian 12.2.0-14+deb12u1) 12.2.0\x00Debian clang version 14.0.6\x00";

    #[test]
    fn gcc_with_assembly() {
        let b = Build::parse(GCC_ASM, Some(GCC_NOTE)).unwrap();
        assert_eq!(b.compiler, "gcc");
        assert_eq!(b.compiler_version.as_deref(), Some("12.2.0"));
        assert_eq!(b.optimisation.as_deref(), Some("-O3"));
        assert!(!b.no_asm);
        assert_eq!(b.summary(), "gcc 12.2.0 -O3");
        let b = Build::parse(GCC_NOASM, Some(GCC_NOTE)).unwrap();
        assert_eq!(b.summary(), "gcc 12.2.0 -O3 · no-asm");
    }

    #[test]
    fn clang_reads_clangs_note_not_gccs() {
        let b = Build::parse(CLANG_ASM, Some(CLANG_NOTES)).unwrap();
        assert_eq!(b.summary(), "clang 14.0.6 -O3");
        let b = Build::parse(CLANG_NOASM, Some(CLANG_NOTES)).unwrap();
        assert_eq!(b.summary(), "clang 14.0.6 -O3 · no-asm");
        let d = b.details();
        for (k, v) in [
            ("build.compiler", "clang 14.0.6"),
            ("build.optimisation", "-O3"),
            ("build.assembly", "no-asm"),
        ] {
            assert!(d.contains(&(k.to_string(), v.to_string())), "{k}: {d:?}");
        }
    }

    #[test]
    fn the_last_optimisation_option_wins() {
        let b = Build::parse("compiler: gcc -Wall -O3 -O2 -DNDEBUG", None).unwrap();
        assert_eq!(b.optimisation.as_deref(), Some("-O2"));
        assert_eq!(b.summary(), "gcc -O2");
        assert_eq!(Build::parse(DEBIAN, None).unwrap().optimisation.as_deref(), Some("-O2"));
        assert_eq!(Build::parse(V111, Some(GCC_NOTE)).unwrap().summary(), "gcc 12.2.0 -O3");
        let s = Build::parse("compiler: /usr/bin/x86_64-linux-gnu-gcc -Os", Some(GCC_NOTE)).unwrap();
        assert_eq!(s.summary(), "x86_64-linux-gnu-gcc 12.2.0 -Os");
    }

    #[test]
    fn no_compiler_line_gives_no_build() {
        assert_eq!(Build::parse("compiler: information not available", None), None);
        assert_eq!(Build::parse("", None), None);
        assert_eq!(Build::parse("OpenSSL 3.0.0-fixture", None), None, "a version, not a compiler line");
        let b = Build::parse("compiler: icx -O2", Some(GCC_NOTE)).unwrap();
        assert_eq!(b.compiler_version, None, "an unknown compiler's version is not guessed");
    }

    #[test]
    fn named_variants_resolve_and_unknown_names_list_the_built_ones() {
        let dir = std::env::temp_dir().join(format!("cryptobench-lab-{}", std::process::id()));
        for name in ["3.5.5-gcc-O3", "3.0.8-clang-O3-noasm"] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            std::fs::write(dir.join(name).join("libcrypto.so"), b"").unwrap();
        }
        std::fs::create_dir_all(dir.join("half-built")).unwrap();
        let dirs = vec![dir.clone()];
        let found = resolve_in("3.5.5-gcc-O3", &dirs).unwrap();
        assert!(found.ends_with("3.5.5-gcc-O3/libcrypto.so"), "{found}");
        let err = resolve_in("3.5.5-clang-O3", &dirs).unwrap_err();
        assert!(err.contains("no OpenSSL lab variant named '3.5.5-clang-O3'"), "{err}");
        assert!(err.contains("built: 3.0.8-clang-O3-noasm, 3.5.5-gcc-O3 "), "{err}");
        assert!(!err.contains("half-built"), "{err}");
        let err = resolve_in("../etc", &dirs).unwrap_err();
        assert!(err.contains("not a lab variant name"), "{err}");
        let empty = vec![dir.join("none")];
        let err = resolve_in("x", &empty).unwrap_err();
        assert!(err.contains("none is built in") && err.contains(LAB_ENV), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
