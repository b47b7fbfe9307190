//! What GnuTLS detects of the CPU. GnuTLS registers its accelerated
//! ciphers and digests during global initialisation and says what it found
//! only in its debug log (lib/accelerated/x86/x86-common.c,
//! register_x86_intel_crypto: "Intel AES accelerator was detected", "Intel
//! GCM accelerator (AVX) was detected", "Intel SHA was detected", "Intel
//! SSSE3 was detected", or "… acceleration requested but not available"
//! under `GNUTLS_CPUID_OVERRIDE`). Loading the library initialises it
//! implicitly, before a log function can be set; so the first open in a
//! process undoes that initialisation once (`gnutls_global_deinit`, which
//! balances the implicit init, lib/global.c) and initialises again with a
//! log function that keeps those lines. Later opens reuse them.

use std::ffi::{c_char, c_int};
use std::sync::{Mutex, OnceLock};

use super::api::Api;
use crate::native::text;

static LINES: Mutex<Vec<String>> = Mutex::new(Vec::new());
static DETECTED: OnceLock<Result<Vec<String>, String>> = OnceLock::new();

unsafe extern "C" fn keep(_level: c_int, msg: *const c_char) {
    if let Some(line) = text(msg) {
        let line = line.trim().to_string();
        if line.contains("was detected") || line.contains("requested but not available") {
            if let Ok(mut lines) = LINES.lock() {
                lines.push(line);
            }
        }
    }
}

/// The accelerator lines of GnuTLS's initialisation (see the module docs).
pub fn detected(api: &Api) -> Result<Vec<String>, String> {
    DETECTED
        .get_or_init(|| {
            // SAFETY: documented global calls; the log function is static and thread-safe.
            let rc = unsafe {
                (api.gnutls_global_set_log_function)(keep);
                // Level 2 carries _gnutls_debug_log (lib/errors.h).
                (api.gnutls_global_set_log_level)(2);
                (api.gnutls_global_deinit)();
                let rc = (api.gnutls_global_init)();
                (api.gnutls_global_set_log_level)(0);
                rc
            };
            if rc < 0 {
                // SAFETY: gnutls_strerror returns a static string for any code.
                let why = text(unsafe { (api.gnutls_strerror)(rc) }).unwrap_or_default();
                return Err(format!("gnutls_global_init failed: {why}"));
            }
            Ok(LINES.lock().map(|l| l.clone()).unwrap_or_default())
        })
        .clone()
}
