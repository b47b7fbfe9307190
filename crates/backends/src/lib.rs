//! Backends: one folder per crypto library under [`libraries`], listed in
//! its registry ([`libraries::LIBRARIES`], entries of [`registry::Entry`]).
//! A library supplies its self-description and *sessions*
//! ([`library::Library`], [`sessions`], [`pk::PkLibrary`]); the timed loops
//! ([`timed`]), support, the one-shot calls and `prepare` are written once
//! for all of them, and so are the checks every backend passes before
//! anything is timed ([`checks`], [`pk::verify`]).
//!
//! Native libraries are loaded at run time with `libloading`: a missing
//! library or symbol makes a backend *unavailable* with a reason, never a
//! build failure or a crash.

pub mod backend;
pub mod checks;
pub mod error;
pub mod known_defects;
pub mod libraries;
pub mod library;
mod library_path;
pub mod named;
mod native;
pub mod pk;
pub mod primitive;
pub mod registry;
pub mod sessions;
pub mod support;
pub mod timed;

pub use backend::{catalog_lengths_only, check_mode, AeadCall, Backend, CellInputs, Sealed, Tamper};
pub use error::{BackendError, OpenError};
pub use libraries::{install_hint, open, LIBRARIES};
pub use named::{Allocation, Heap, NamedWork};
pub use primitive::Primitive;
pub use support::Support;
