//! The named exceptions to equal work (docs/METHOD.md, "Equal work"): what
//! a library cannot avoid, said by its session and shown with every cell it
//! applies to. Two kinds:
//!
//! - [`Allocation`]: a timed call allocates on the heap, in the library's
//!   own code. Where it allocates (its C code, or its own Rust as a Rust
//!   crate) is part of the name, so that the allocation test can hold the
//!   rest of the process to none at all: an allocation in Rust under a C
//!   library's exception is the harness's, never the library's.
//! - [`NamedWork`]: a cell does work its mode does not name (or leaves out
//!   work other libraries do), shown as `yes*` in `cryptobench algorithms`.

/// Where a named allocation is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heap {
    /// In the library's C (or C++) code, through `malloc`: nothing of it
    /// is Rust's, so the Rust heap must stay untouched.
    C,
    /// In the library's own Rust code (a Rust crate: `rsa`'s big integers,
    /// aws-lc-rs's key types), and possibly in C underneath it.
    Rust,
}

/// A timed call that allocates, and why the library cannot avoid it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocation {
    /// Which call allocates and what (shown with the cell).
    pub why: &'static str,
    pub heap: Heap,
}

impl Allocation {
    /// An allocation of the library's C code.
    pub const fn in_c(why: &'static str) -> Allocation {
        Allocation { why, heap: Heap::C }
    }

    /// An allocation of the library's own Rust code.
    pub const fn in_rust(why: &'static str) -> Allocation {
        Allocation { why, heap: Heap::Rust }
    }
}

/// Work some cells of an algorithm do beyond what their mode names (or
/// short of it), as a library names it: which cells, and the work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedWork {
    /// The cells it applies to: `message`, `message decryption`, `verify`,
    /// `sign, verify` (public-key operations, as `Operation::short` names them).
    pub cells: String,
    pub work: String,
}

impl NamedWork {
    /// One line: "cells: work".
    pub fn line(&self) -> String {
        format!("{}: {}", self.cells, self.work)
    }

    /// Named works as the worker's hello carries them: one line each.
    pub fn lines(named: &[NamedWork]) -> String {
        named.iter().map(NamedWork::line).collect::<Vec<_>>().join("\n")
    }

    /// `works` of several cells, those with the same work merged into one
    /// entry naming all their cells ("sign, verify"), in the order given.
    pub fn merged<'a>(works: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<NamedWork> {
        let mut named: Vec<NamedWork> = Vec::new();
        for (cells, work) in works {
            match named.iter_mut().find(|n| n.work == work) {
                Some(n) => {
                    n.cells.push_str(", ");
                    n.cells.push_str(cells);
                }
                None => named.push(NamedWork {
                    cells: cells.to_string(),
                    work: work.to_string(),
                }),
            }
        }
        named
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_with_the_same_work_are_named_together() {
        let named = NamedWork::merged([("sign", "a"), ("verify", "a"), ("keygen", "b")]);
        assert_eq!(named.len(), 2);
        assert_eq!(named[0].line(), "sign, verify: a");
        assert_eq!(NamedWork::lines(&named), "sign, verify: a\nkeygen: b");
    }
}
