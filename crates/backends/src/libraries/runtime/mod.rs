//! Runtime backends: crypto as a program in another language calls it —
//! Python's `hashlib` and pyca/cryptography, Node.js's `crypto`, Go's
//! standard library, Java's JCA. Each is a small *driver* in that language
//! (drivers/ in the repository, compiled into cryptobench and installed by
//! [`install`]) started as a child process of the worker, talking over a pipe
//! ([`pipe`]; docs/ARCHITECTURE.md, "Runtime drivers").
//!
//! The one-shot calls forward to the driver, so the known answers, round
//! trips, tamper checks, cross-backend agreement and Wycheproof vectors of
//! the Rust side apply unchanged, and no vector is written twice. A timed
//! [`Primitive::run`] asks the driver to run the calls in its own loop and
//! to time that loop with the runtime's monotonic clock
//! ([`Primitive::inside_timing`]); calibration, warm-up, the stop rule and
//! the statistics stay the harness's.

mod go;
mod install;
mod java;
mod node;
mod pipe;
mod primitive;
mod python;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use cryptobench_core::result::{BackendInfo, EMULATOR_ENV};
use cryptobench_core::{AlgorithmSpec, CellSpec, Mode, Operation};

use self::pipe::{Driver, Start};
use self::primitive::RuntimePrimitive;
use crate::error::{BackendError, OpenError};
use crate::backend::{check_key_and_iv, check_mode, Backend, CellInputs, Primitive, Sealed, Support};

/// Every runtime configuration, by backend id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    PythonHashlib,
    PythonCryptography,
    Node,
    Go,
    Java,
}

/// How to start a driver, and the file it runs.
pub struct Launch {
    pub command: Command,
    pub driver: PathBuf,
    /// The driver's source in the repository, e.g. "drivers/python/driver.py".
    pub source: &'static str,
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

/// A runtime configuration: its driver process and its self-description.
pub struct RuntimeBackend {
    runtime: Runtime,
    driver: RefCell<Driver>,
    info: BackendInfo,
    algorithms: Vec<String>,
    next_handle: Cell<u64>,
    /// Rows (algorithm, operation, mode) prepared before: their code is compiled.
    warmed: RefCell<Vec<(String, Operation, Mode)>>,
}

impl RuntimeBackend {
    /// Starts the driver; `program` is the runtime's executable where the
    /// configuration names one (`--backend go=/usr/lib/go-1.19/bin/go`).
    pub fn open(runtime: Runtime, program: Option<&str>) -> Result<RuntimeBackend, OpenError> {
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
        };
        Ok(RuntimeBackend {
            runtime,
            driver: RefCell::new(driver),
            info,
            algorithms,
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

fn operation(op: Operation) -> &'static str {
    match op {
        Operation::Encrypt => "encrypt",
        Operation::Decrypt => "decrypt",
        Operation::Digest => "digest",
        Operation::Mac => "mac",
        // Public-key cells go through `Backend::pk()`, which no runtime offers;
        // a driver asked for one of these answers `unsupported`.
        Operation::Sign => "sign",
        Operation::Verify => "verify",
        Operation::Keygen => "keygen",
        Operation::Encaps => "encaps",
        Operation::Decaps => "decaps",
        Operation::Derive => "derive",
    }
}

impl Backend for RuntimeBackend {
    fn info(&self) -> BackendInfo {
        self.info.clone()
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        Support::from(self.check_supported(alg))
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        self.check_supported(alg)?;
        check_key_and_iv(alg, key, iv)?;
        let mut d = self.driver.borrow_mut();
        d.send(
            format_args!("encrypt {} {} {} {} {}", alg.id, key.len(), iv.len(), aad.len(), plaintext.len()),
            &[key, iv, aad, plaintext],
        )?;
        let v = d.ok()?;
        let ciphertext = d.read_vec(v.get(0, self.name())?)?;
        let tag = d.read_vec(v.get(1, self.name())?)?;
        Ok(Sealed { ciphertext, tag })
    }

    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        self.check_supported(alg)?;
        check_key_and_iv(alg, key, iv)?;
        let mut d = self.driver.borrow_mut();
        d.send(
            format_args!(
                "decrypt {} {} {} {} {} {}",
                alg.id,
                key.len(),
                iv.len(),
                aad.len(),
                ciphertext.len(),
                tag.len()
            ),
            &[key, iv, aad, ciphertext, tag],
        )?;
        let v = d.ok()?;
        d.read_vec(v.get(0, self.name())?)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        self.check_supported(alg)?;
        let mut d = self.driver.borrow_mut();
        d.send(format_args!("digest {} {}", alg.id, message.len()), &[message])?;
        let v = d.ok()?;
        d.read_vec(v.get(0, self.name())?)
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        self.check_supported(alg)?;
        let mut d = self.driver.borrow_mut();
        d.send(format_args!("mac {} {} {}", alg.id, key.len(), message.len()), &[key, message])?;
        let v = d.ok()?;
        d.read_vec(v.get(0, self.name())?)
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        self.check_supported(alg)?;
        check_mode(alg, cell)?;
        if !alg.is_digest() {
            check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        }
        // Stream mode carries no AAD (as in every backend); a message decryption
        // decrypts a genuine message, sealed once here.
        let aad: &[u8] = if cell.mode == Mode::Message { &inputs.aad } else { &[] };
        let decrypts_message = cell.operation == Operation::Decrypt && cell.mode == Mode::Message;
        let sealed = if decrypts_message {
            self.encrypt_once(alg, &inputs.key, &inputs.iv, aad, message)?
        } else {
            Sealed {
                ciphertext: Vec::new(),
                tag: Vec::new(),
            }
        };
        let (key, iv): (&[u8], &[u8]) = if alg.is_digest() { (&[], &[]) } else { (&inputs.key, &inputs.iv) };
        let handle = self.next_handle.get();
        self.next_handle.set(handle + 1);
        let call = {
            let mut d = self.driver.borrow_mut();
            d.send(
                format_args!(
                    "prepare {handle} {} {} {} {} {} {} {} {} {} {}",
                    alg.id,
                    operation(cell.operation),
                    cell.mode.name(),
                    u8::from(cell.rekey),
                    message.len(),
                    key.len(),
                    iv.len(),
                    aad.len(),
                    sealed.ciphertext.len(),
                    sealed.tag.len()
                ),
                &[key, iv, aad, &sealed.ciphertext, &sealed.tag],
            )?;
            let v = d.ok()?;
            String::from_utf8_lossy(&d.read_vec(v.get(0, self.name())?)?).into_owned()
        };
        let row = (alg.id.to_string(), cell.operation, cell.mode);
        let first_of_row = !self.warmed.borrow().contains(&row);
        if first_of_row {
            self.warmed.borrow_mut().push(row);
        }
        Ok(Box::new(RuntimePrimitive::new(
            &self.driver,
            self.name(),
            handle,
            decrypts_message.then_some(message.len()),
            call,
            self.runtime.warmup_ns(first_of_row),
        )))
    }
}
