//! Errors of backends, worded to say what happened and what to do.

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("unknown backend '{id}'; valid: {valid}")]
    UnknownBackend { id: String, valid: String },
    #[error("cannot load {path}: {reason}")]
    Load { path: String, reason: String },
    #[error("{path} is not a {expected}: it has no symbol {symbol}")]
    NotThatLibrary {
        path: String,
        expected: &'static str,
        symbol: &'static str,
    },
    #[error("{path} lacks the symbol {symbol}, which cryptobench needs ({library} {version}); is the build complete?")]
    MissingSymbol {
        path: String,
        symbol: &'static str,
        library: &'static str,
        version: String,
    },
    #[error("{path} is {library} {version}; cryptobench supports {supported}")]
    UnsupportedVersion {
        path: String,
        library: &'static str,
        version: String,
        supported: &'static str,
    },
    /// The OS refuses the way to the backend (e.g. the AF_ALG socket family).
    #[error("{0}")]
    Refused(String),
    /// The backend is compiled in only with a cargo feature this build lacks.
    /// (The wording is what crates/testkit recognises: LEFT_OUT_OF_THIS_BUILD.)
    #[error("this build of cryptobench leaves out {library}: rebuild with `--features {feature}` ({needs})")]
    LeftOut {
        library: &'static str,
        feature: &'static str,
        needs: &'static str,
    },
    #[error("{id} is linked into cryptobench and loads no library; drop the path from --backend {id}={path}")]
    NoLibraryFile { id: &'static str, path: String },
    /// A language runtime, its module or its driver cannot be used; the hint says how to install it.
    #[error("{reason}; {hint}")]
    Runtime { reason: String, hint: String },
    #[error("no {library} found on this system (tried {tried}); install it or give its path with --backend {id}=PATH")]
    NotFound {
        library: &'static str,
        id: &'static str,
        tried: String,
    },
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BackendError {
    /// What the backend cannot do, and why where the message says: shown
    /// after "not supported by this backend: ", whatever its own wording.
    #[error("not supported by this backend: {0}")]
    Unsupported(String),
    #[error("{call} failed{detail}", detail = if .detail.is_empty() { String::new() } else { format!(": {}", .detail) })]
    Call { call: &'static str, detail: String },
    #[error("authentication failed: the tag did not verify")]
    AuthenticationFailed,
    #[error("{0}")]
    Invalid(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_left_out_of_the_build_says_so_as_the_tests_expect() {
        let e = OpenError::LeftOut {
            library: "BoringSSL",
            feature: "boringssl",
            needs: "cmake",
        };
        assert!(e.to_string().contains(cryptobench_testkit::LEFT_OUT_OF_THIS_BUILD), "{e}");
    }
}
