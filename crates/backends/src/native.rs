//! What the backends over native C libraries share: finding and loading the
//! library file with `libloading`, resolving a table of typed symbols, and
//! memory for the library's context structures (sized and aligned without
//! its headers).

use std::ffi::{c_char, c_void, CStr};

use libloading::Library;

use crate::error::OpenError;

/// A loaded library and the file it really came from.
pub struct Loaded {
    pub library: Library,
    /// The path the user gave or the name that was found (e.g. "libnettle.so.8").
    pub tried: String,
}

/// The file names a library has on this platform, of its names on macOS,
/// on Windows and elsewhere (Linux, the BSDs): the `defaults` of [`load`].
pub const fn per_platform(
    macos: &'static [&'static str],
    windows: &'static [&'static str],
    other: &'static [&'static str],
) -> &'static [&'static str] {
    if cfg!(target_os = "macos") {
        macos
    } else if cfg!(windows) {
        windows
    } else {
        other
    }
}

/// Loads `path`, or else the first of `defaults` that the dynamic loader finds.
pub fn load(path: Option<&str>, defaults: &[&str], library: &'static str, id: &'static str) -> Result<Loaded, OpenError> {
    match path {
        Some(p) => {
            // SAFETY: loading runs the library's initialisers; this is the point of the worker process.
            let lib = unsafe { Library::new(p) }.map_err(|e| OpenError::Load {
                path: p.to_string(),
                reason: e.to_string(),
            })?;
            Ok(Loaded {
                library: lib,
                tried: p.to_string(),
            })
        }
        None => defaults
            .iter()
            // SAFETY: as above.
            .find_map(|name| {
                unsafe { Library::new(*name) }.ok().map(|l| Loaded {
                    library: l,
                    tried: name.to_string(),
                })
            })
            .ok_or_else(|| OpenError::NotFound {
                library,
                id,
                tried: defaults.join(", "),
            }),
    }
}

/// The canonical file that holds `symbol`, or what was asked for.
pub fn file_of(symbol: *const c_void, tried: &str) -> String {
    crate::library_path::of_symbol(symbol).unwrap_or_else(|| tried.to_string())
}

impl Loaded {
    /// The function `symbol` that tells the library apart (its version
    /// call), and the canonical file it lives in; a library without it is
    /// not `expected`.
    ///
    /// # Safety
    /// `F` must be the symbol's function type.
    pub unsafe fn probe<F: Copy>(&self, symbol: &'static str, expected: &'static str) -> Result<(F, String), OpenError> {
        let not_that = || OpenError::NotThatLibrary {
            path: self.tried.clone(),
            expected,
            symbol,
        };
        // SAFETY: the address only, never called or read.
        let address = unsafe { self.library.get::<*const c_void>(symbol.as_bytes()) }.map_err(|_| not_that())?;
        let path = file_of(*address, &self.tried);
        // SAFETY: the caller names the symbol's type.
        let function = unsafe { self.library.get::<F>(symbol.as_bytes()) }.map_err(|_| not_that())?;
        Ok((*function, path))
    }
}

/// What a library of `version` at `path` lacks when its symbol table fails to load.
pub fn missing_symbol(path: &str, library: &'static str, version: &str) -> impl FnOnce(&'static str) -> OpenError {
    let (path, version) = (path.to_string(), version.to_string());
    move |symbol| OpenError::MissingSymbol {
        path,
        symbol,
        library,
        version,
    }
}

/// A static C string as text.
pub fn text(ptr: *const c_char) -> Option<String> {
    // SAFETY: the callers pass strings the libraries document as static and NUL-terminated, or NULL.
    (!ptr.is_null()).then(|| unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
}

/// Zeroed memory for a C context structure, 64-byte aligned (libsodium's
/// BLAKE2b state needs 64; the others need less). Sized generously where the
/// library does not export the size; the size is then checked against the
/// headers' structure in a comment at the use site.
pub struct CtxMem {
    words: Vec<Align64>,
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Align64([u8; 64]);

impl CtxMem {
    pub fn new(bytes: usize) -> CtxMem {
        CtxMem {
            words: vec![Align64([0; 64]); bytes.div_ceil(64).max(1)],
        }
    }
    pub fn ptr(&mut self) -> *mut c_void {
        self.words.as_mut_ptr().cast()
    }
    pub fn as_const(&self) -> *const c_void {
        self.words.as_ptr().cast()
    }
    /// Copies `other`'s bytes into this memory of the same size, without allocating.
    pub fn copy_from(&mut self, other: &CtxMem) {
        self.words.copy_from_slice(&other.words);
    }
}

impl Clone for CtxMem {
    /// A byte copy: valid for the plain-data contexts of Nettle and libsodium
    /// (no pointers into themselves), which the libraries copy the same way.
    fn clone(&self) -> CtxMem {
        CtxMem { words: self.words.clone() }
    }
}

/// Declares a table of C functions resolved from a [`Library`]: required
/// ones fail the load with their name, optional ones are `None` when absent.
macro_rules! api_table {
    (
        required { $($name:ident: fn($($arg:ty),*) -> $ret:ty;)* }
        optional { $($oname:ident: fn($($oarg:ty),*) -> $oret:ty;)* }
    ) => {
        #[allow(non_snake_case)]
        pub struct Api {
            $(pub $name: unsafe extern "C" fn($($arg),*) -> $ret,)*
            $(pub $oname: Option<unsafe extern "C" fn($($oarg),*) -> $oret>,)*
        }

        impl Api {
            /// Resolves every symbol; the first missing required one is returned by name.
            ///
            /// # Safety
            /// `lib` must be the library these signatures describe, and must outlive the table.
            pub unsafe fn load(lib: &libloading::Library) -> Result<Api, &'static str> {
                Ok(Api {
                    $($name: *unsafe { lib.get(concat!(stringify!($name), "\0").as_bytes()) }
                        .map_err(|_| stringify!($name))?,)*
                    $($oname: unsafe { lib.get(concat!(stringify!($oname), "\0").as_bytes()) }.ok().map(|s| *s),)*
                })
            }
        }
    };
}
pub(crate) use api_table;
