//! The timed loops, written once: [`symmetric`] for ciphers, digests and
//! MACs over a library's sessions, [`public_key`] for every public-key
//! operation over its public-key session.

pub mod public_key;
pub mod symmetric;
