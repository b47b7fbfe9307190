//! The checks every backend passes: before a cell is timed (known answers,
//! round trips, tamper rejection, the timed path against the verified one:
//! [`verify`]) and in `cryptobench verify` (fingerprints across libraries
//! and chunked streaming: [`agreement`]; Wycheproof files: [`vectors`];
//! NIST CAVP files: [`cavp`]); the same for public key ([`pk_verify`],
//! [`pk_known_answers`], [`pk_agreement`], [`pk_vectors`]).

pub mod agreement;
pub mod cavp;
pub mod defects;
pub mod known_answers;
pub mod malleability;
pub mod ocb_iterated;
pub mod pk_agreement;
pub mod pk_known_answers;
pub mod pk_vectors;
pub mod pk_verify;
pub mod vectors;
pub mod verify;
