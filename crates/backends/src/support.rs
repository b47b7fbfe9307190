//! Whether a backend can do an algorithm, and if not, why.

use crate::error::BackendError;

/// Whether a backend can do an algorithm, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    Supported,
    Unsupported(String),
}

impl From<Result<(), BackendError>> for Support {
    /// Whether looking the algorithm up succeeded; the error says why not.
    fn from(found: Result<(), BackendError>) -> Support {
        match found {
            Ok(()) => Support::Supported,
            Err(e) => Support::Unsupported(e.to_string()),
        }
    }
}
