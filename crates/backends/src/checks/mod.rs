//! The checks every backend passes: before a cell is timed (known answers,
//! round trips, tamper rejection, the timed path against the verified one:
//! [`verify`]) and in `cryptobench verify` (fingerprints across libraries
//! and chunked streaming: [`agreement`]; Wycheproof files: [`vectors`];
//! NIST CAVP files: [`cavp`]).

pub mod agreement;
pub mod cavp;
pub mod known_answers;
pub mod ocb_iterated;
pub mod vectors;
pub mod verify;
