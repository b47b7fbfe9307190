//! Runtime backends: crypto as a program in another language calls it —
//! Python's `hashlib` and pyca/cryptography, Node.js's `crypto`, Go's
//! standard library, Java's JCA. Each is a small *driver* in that language
//! (drivers/ in the repository, compiled into cryptobench and installed by
//! [`install`]) started as a child process of the worker, talking over a pipe
//! ([`pipe`]; docs/ARCHITECTURE.md, "Runtime drivers").
//!
//! A runtime is a [`Library`] like any other: its sessions (sessions.rs)
//! send the driver's one-shot requests, so support, the known answers,
//! round trips, tamper checks, cross-backend agreement and Wycheproof
//! vectors of the Rust side apply unchanged, and no vector is written
//! twice. Its timed cells alone are its own ([`Library::forwarded`],
//! forwarded.rs): a timed [`Primitive::run`] asks the driver to run the
//! calls in its own loop and to time that loop with the runtime's monotonic
//! clock ([`Primitive::inside_timing`]); calibration, warm-up, the stop
//! rule and the statistics stay the harness's.

mod defects;
mod forwarded;
mod go;
mod install;

/// The cache folder drivers are installed under (also where `--arch` looks for a target's sysroot).
pub use install::cache_root;
mod java;
mod node;
mod pipe;
mod pk;
mod pk_keys;
mod python;
mod sessions;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use cryptobench_core::result::{BackendInfo, EMULATOR_ENV};
use cryptobench_core::{AlgorithmSpec, CellSpec, Mode, Operation};

use self::forwarded::RuntimePrimitive;
use self::install::Launch;
use self::pipe::{Driver, Start};
use self::sessions::{DriverCipher, DriverDigest};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Sealed, Tamper};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::primitive::Primitive;
use crate::registry::{Entry, Kind};

/// Every runtime configuration, by backend id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    PythonHashlib,
    PythonCryptography,
    Node,
    Go,
    Java,
}

impl Runtime {
    pub const ALL: [Runtime; 5] = [
        Runtime::PythonHashlib,
        Runtime::PythonCryptography,
        Runtime::Node,
        Runtime::Go,
        Runtime::Java,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Runtime::PythonHashlib => "python:hashlib",
            Runtime::PythonCryptography => "python:cryptography",
            Runtime::Node => "node",
            Runtime::Go => "go",
            Runtime::Java => "java",
        }
    }

    pub fn from_id(id: &str) -> Option<Runtime> {
        Runtime::ALL.into_iter().find(|r| r.id() == id)
    }

    /// The name of its driver in error messages.
    fn driver_name(self) -> &'static str {
        match self {
            Runtime::PythonHashlib | Runtime::PythonCryptography => "the Python driver",
            Runtime::Node => "the Node.js driver",
            Runtime::Go => "the Go driver",
            Runtime::Java => "the Java driver",
        }
    }

    /// Finds the runtime (`program`: the executable a configuration names),
    /// installs and builds the driver, and says how to start it.
    fn launch(self, program: Option<&str>) -> Result<Launch, OpenError> {
        match self {
            Runtime::PythonHashlib => python::launch("hashlib", program),
            Runtime::PythonCryptography => python::launch("cryptography", program),
            Runtime::Node => node::launch(program),
            Runtime::Go => go::launch(program),
            Runtime::Java => java::launch(program),
        }
    }

    /// What to install when the driver runs but says its library is missing.
    fn module_hint(self) -> &'static str {
        match self {
            Runtime::PythonHashlib => python::HASHLIB_HINT,
            Runtime::PythonCryptography => python::CRYPTOGRAPHY_HINT,
            Runtime::Node => node::HINT,
            Runtime::Go => go::HINT,
            Runtime::Java => java::HINT,
        }
    }

    /// The least warm-up a timed cell needs, in nanoseconds: for the first
    /// cell of a row (algorithm, operation, mode) in this driver, and for the
    /// next ones, whose code is compiled by then. JIT compilers (HotSpot's
    /// C1 and C2, V8's TurboFan) compile the loop and the library's hot
    /// methods after thousands of calls; bench/jit-warmup measures how long
    /// that takes from a cold start (docs/METHOD.md, "Runtimes").
    fn warmup_ns(self, first_of_row: bool) -> u64 {
        match (self, first_of_row) {
            (Runtime::Java, true) => java::FIRST_WARMUP_NS,
            (Runtime::Java, false) => java::WARMUP_NS,
            (Runtime::Node, true) => node::FIRST_WARMUP_NS,
            (Runtime::Node, false) => node::WARMUP_NS,
            _ => 0,
        }
    }
}

// The registry's entries of the runtimes: no install hint, since the
// reason a runtime is unavailable says what to install (the runtime, its
// module, or its compiler).
pub static PYTHON_HASHLIB: Entry = Entry::new("python:hashlib", "Python hashlib", Kind::Runtime, |program| {
    RuntimeLibrary::open_boxed(Runtime::PythonHashlib, program)
});
pub static PYTHON_CRYPTOGRAPHY: Entry = Entry::new("python:cryptography", "Python cryptography", Kind::Runtime, |program| {
    RuntimeLibrary::open_boxed(Runtime::PythonCryptography, program)
});
pub static NODE: Entry = Entry::new("node", "Node.js", Kind::Runtime, |program| {
    RuntimeLibrary::open_boxed(Runtime::Node, program)
});
pub static GO: Entry = Entry::new("go", "Go", Kind::Runtime, |program| {
    RuntimeLibrary::open_boxed(Runtime::Go, program)
})
.with_defects(defects::GO);
pub static JAVA: Entry = Entry::new("java", "Java", Kind::Runtime, |program| {
    RuntimeLibrary::open_boxed(Runtime::Java, program)
})
.with_defects(defects::JAVA);

/// A runtime configuration: its driver process and its self-description.
pub struct RuntimeLibrary {
    runtime: Runtime,
    driver: RefCell<Driver>,
    info: BackendInfo,
    algorithms: Vec<String>,
    /// Why the driver has no cell of a public-key algorithm, by id
    /// (`pk_not_offered=ID: REASON; …` in its self-description).
    pk_not_offered: BTreeMap<String, String>,
    next_handle: Cell<u64>,
    /// Rows (algorithm, operation, mode) prepared before: their code is compiled.
    warmed: RefCell<Vec<(String, Operation, Mode)>>,
}

impl RuntimeLibrary {
    fn open_boxed(runtime: Runtime, program: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
        Ok(Box::new(RuntimeLibrary::open(runtime, program)?))
    }

    /// Starts the driver; `program` is the runtime's executable where the
    /// configuration names one (`--backend go=/usr/lib/go-1.19/bin/go`).
    pub fn open(runtime: Runtime, program: Option<&str>) -> Result<RuntimeLibrary, OpenError> {
        // A worker started through an emulator (`--arch`) would start a native
        // driver: its figures would not describe the emulated machine. (The
        // wording is matched by cryptobench_testkit::RUNTIME_NOT_EMULATED.)
        if let Some(emulator) = std::env::var(EMULATOR_ENV).ok().filter(|e| !e.trim().is_empty()) {
            return Err(OpenError::Runtime {
                reason: format!(
                    "this worker runs under {emulator}, but a language runtime's driver would run natively, so its figures would not describe the emulated machine"
                ),
                hint: "measure the language runtimes in a native worker (without --arch)".into(),
            });
        }
        let launch = runtime.launch(program)?;
        let name = runtime.driver_name();
        let mut driver = match Driver::start(name, launch.command) {
            Start::Ready(d) => d,
            Start::Unavailable(reason) => {
                return Err(OpenError::Runtime {
                    reason: format!("{name} says: {reason}"),
                    hint: runtime.module_hint().into(),
                })
            }
            Start::Failed(reason) => {
                return Err(OpenError::Runtime {
                    reason: format!("{name} did not start: {reason}"),
                    hint: runtime.module_hint().into(),
                })
            }
        };
        let fail = |e: BackendError| OpenError::Runtime {
            reason: format!("{name} did not describe itself: {e}"),
            hint: runtime.module_hint().into(),
        };
        driver.send(format_args!("info"), &[]).map_err(fail)?;
        let n = driver.ok().and_then(|v| v.get(0, name)).map_err(fail)?;
        let text = String::from_utf8_lossy(&driver.read_vec(n).map_err(fail)?).into_owned();
        let mut details: BTreeMap<String, String> = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let algorithms = details
            .remove("algorithms")
            .unwrap_or_default()
            .split(',')
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect();
        let pk_not_offered = details
            .remove("pk_not_offered")
            .unwrap_or_default()
            .split("; ")
            .filter_map(|r| r.split_once(": "))
            .map(|(id, why)| (id.trim().to_string(), why.trim().to_string()))
            .collect();
        details.insert("driver".into(), launch.driver.display().to_string());
        details.insert("driver_source".into(), launch.source.into());
        if runtime.warmup_ns(true) > 0 {
            details.insert(
                "min_warmup_ms".into(),
                format!(
                    "{} for the first cell of a row, {} for the next",
                    runtime.warmup_ns(true) / 1_000_000,
                    runtime.warmup_ns(false) / 1_000_000
                ),
            );
        }
        let info = BackendInfo {
            id: runtime.id().into(),
            name: details.remove("name").unwrap_or_else(|| runtime.id().into()),
            version: details.remove("version").unwrap_or_default(),
            library_path: details.remove("library_path"),
            cpu_capabilities: details.remove("cpu"),
            details,
            kind: None,
            ecdsa_nonce: None,
        };
        Ok(RuntimeLibrary {
            runtime,
            driver: RefCell::new(driver),
            info,
            algorithms,
            pk_not_offered,
            next_handle: Cell::new(1),
            warmed: RefCell::new(Vec::new()),
        })
    }

    fn name(&self) -> &'static str {
        self.runtime.driver_name()
    }

    fn check_supported(&self, alg: &AlgorithmSpec) -> Result<(), BackendError> {
        if self.algorithms.iter().any(|a| a == alg.id) {
            Ok(())
        } else {
            Err(BackendError::Unsupported(format!("{} (not offered by {})", alg.id, self.info.name)))
        }
    }
}

impl Library for RuntimeLibrary {
    fn info(&self) -> BackendInfo {
        self.info.clone()
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let _ = iv; // every message sends its IV
        self.check_supported(alg)?;
        task.with(|_encrypt| {
            Ok(DriverCipher {
                driver: &self.driver,
                name: self.name(),
                alg: alg.id,
                key: key.to_vec(),
            })
        })
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        self.check_supported(alg)?;
        task.with(self.digest_session(alg, None))
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        self.check_supported(alg)?;
        task.with(self.digest_session(alg, Some(key)))
    }

    /// Public key through the driver (pk.rs), where it offers any.
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        let offers = |id: &str| cryptobench_core::pk::find(id).is_some_and(|a| a.id == id);
        self.algorithms
            .iter()
            .any(|a| offers(a))
            .then_some(self as &dyn crate::pk::PkBackend)
    }

    /// Every timed cell: prepared in the driver, whose loop times itself. A
    /// message decryption decrypts a genuine message, sealed once here (or
    /// the tamper checks' corrupted one).
    fn forwarded(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
        tamper: Option<Tamper>,
    ) -> Option<Result<Box<dyn Primitive + '_>, BackendError>> {
        Some(self.prepare_in_driver(cell, alg, inputs, message, tamper))
    }
}

impl RuntimeLibrary {
    fn digest_session(&self, alg: &AlgorithmSpec, key: Option<&[u8]>) -> DriverDigest<'_> {
        DriverDigest {
            driver: &self.driver,
            name: self.name(),
            alg: alg.id,
            key: key.map(<[u8]>::to_vec),
            updated: Vec::new(),
        }
    }

    fn prepare_in_driver(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
        tamper: Option<Tamper>,
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        self.check_supported(alg)?;
        if !alg.is_digest() {
            check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        }
        let sealed = if cell.operation == Operation::Decrypt && cell.mode == Mode::Message {
            let mut sealed = self.encrypt_once(alg, inputs.call(message))?;
            if let Some(tamper) = tamper {
                tamper.apply(&mut sealed);
            }
            sealed
        } else {
            Sealed {
                ciphertext: Vec::new(),
                tag: Vec::new(),
            }
        };
        let prepared = forwarded::CellRequest {
            handle: self.take_handle(),
            cell,
            alg: alg.id,
            keyless: alg.is_digest(),
            inputs,
            size: message.len(),
            sealed: &sealed,
        };
        let warmup = self.warmup_for(alg.id, cell);
        Ok(Box::new(RuntimePrimitive::prepare(&self.driver, self.name(), prepared, warmup)?))
    }

    /// The driver's name of a new cell.
    fn take_handle(&self) -> u64 {
        let handle = self.next_handle.get();
        self.next_handle.set(handle + 1);
        handle
    }

    /// The least warm-up of a cell: longer for the first of its row, whose
    /// code the runtime has not compiled yet (the row is then counted as warm).
    fn warmup_for(&self, alg: &str, cell: &CellSpec) -> u64 {
        let row = (alg.to_string(), cell.operation, cell.mode);
        let first_of_row = !self.warmed.borrow().contains(&row);
        if first_of_row {
            self.warmed.borrow_mut().push(row);
        }
        self.runtime.warmup_ns(first_of_row)
    }
}
