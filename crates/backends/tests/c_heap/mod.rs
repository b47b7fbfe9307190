//! Heap allocations counted where the libraries make them: in C.
//!
//! The libraries under test are C (or call C), and a C library allocates
//! with `malloc`, which Rust's `#[global_allocator]` never sees. On Linux
//! with glibc this test binary therefore defines the C allocator itself:
//! `malloc`, `calloc`, `realloc`, `free`, `posix_memalign`,
//! `aligned_alloc`, `memalign`, `valloc` and `pvalloc`, each counting the
//! call for its thread and forwarding to glibc's own allocator
//! (`__libc_malloc` and its siblings, which glibc exports for this purpose).
//! An executable's symbols come first in the dynamic linker's search
//! order, so every shared library the process loads — libc's own internal
//! calls included, and every library `dlopen`ed later — calls these; the
//! linker exports them because libc.so defines the same names. Rust's
//! `System` allocator calls `malloc` too, so on glibc this one count holds
//! Rust's allocations and C's, each once.
//!
//! Elsewhere (macOS, Windows, musl, where an executable's `malloc` does not
//! replace the C library's the same way) only Rust's allocations are
//! counted, by the counting `#[global_allocator]` of tests/common.
//!
//! The aarch64 run of .ci/run (a cross build under qemu-user, glibc for
//! arm64) takes the same path: qemu runs the target's own dynamic linker.

#![allow(dead_code)] // each test binary uses its own part

/// Heap allocations this thread makes while `f` runs: C's and Rust's on
/// glibc, Rust's alone elsewhere (see the module's notes).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn heap_allocations_during(f: impl FnOnce()) -> u64 {
    glibc::calls_during(f)
}

/// Heap allocations this thread makes while `f` runs: Rust's alone here
/// (see the module's notes).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn heap_allocations_during(f: impl FnOnce()) -> u64 {
    crate::common::allocations_during(f)
}

/// Whether C's allocations are counted in this build.
pub const COUNTS_C: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::cell::Cell;
    use std::ffi::{c_int, c_void};

    thread_local! {
        /// Allocating calls of this thread (const-initialised and without a
        /// destructor: reading it allocates nothing, even inside `malloc`).
        static CALLS: Cell<u64> = const { Cell::new(0) };
    }

    fn count() {
        let _ = CALLS.try_with(|n| n.set(n.get() + 1));
    }

    pub fn calls_during(f: impl FnOnce()) -> u64 {
        let before = CALLS.with(Cell::get);
        f();
        CALLS.with(Cell::get) - before
    }

    extern "C" {
        fn __libc_malloc(size: usize) -> *mut c_void;
        fn __libc_calloc(n: usize, size: usize) -> *mut c_void;
        fn __libc_realloc(ptr: *mut c_void, size: usize) -> *mut c_void;
        fn __libc_free(ptr: *mut c_void);
        fn __libc_memalign(align: usize, size: usize) -> *mut c_void;
        fn __libc_valloc(size: usize) -> *mut c_void;
        fn __libc_pvalloc(size: usize) -> *mut c_void;
    }

    /// # Safety
    /// As C's `malloc`.
    #[no_mangle]
    pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
        count();
        // SAFETY: glibc's allocator, called as its replacement must.
        unsafe { __libc_malloc(size) }
    }

    /// # Safety
    /// As C's `calloc`.
    #[no_mangle]
    pub unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
        count();
        // SAFETY: as above.
        unsafe { __libc_calloc(n, size) }
    }

    /// # Safety
    /// As C's `realloc`.
    #[no_mangle]
    pub unsafe extern "C" fn realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
        count();
        // SAFETY: `ptr` came from glibc's allocator (every allocation goes through it).
        unsafe { __libc_realloc(ptr, size) }
    }

    /// # Safety
    /// As C's `free`.
    #[no_mangle]
    pub unsafe extern "C" fn free(ptr: *mut c_void) {
        // SAFETY: as for `realloc`.
        unsafe { __libc_free(ptr) }
    }

    /// # Safety
    /// As C's `memalign`.
    #[no_mangle]
    pub unsafe extern "C" fn memalign(align: usize, size: usize) -> *mut c_void {
        count();
        // SAFETY: as above.
        unsafe { __libc_memalign(align, size) }
    }

    /// # Safety
    /// As C's `aligned_alloc`.
    #[no_mangle]
    pub unsafe extern "C" fn aligned_alloc(align: usize, size: usize) -> *mut c_void {
        count();
        // SAFETY: as above.
        unsafe { __libc_memalign(align, size) }
    }

    /// # Safety
    /// As C's `posix_memalign`: `out` is writable.
    #[no_mangle]
    pub unsafe extern "C" fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int {
        if !align.is_power_of_two() || !align.is_multiple_of(std::mem::size_of::<*mut c_void>()) {
            return libc::EINVAL;
        }
        count();
        // SAFETY: as above; the alignment is valid.
        let p = unsafe { __libc_memalign(align, size) };
        if p.is_null() {
            return libc::ENOMEM;
        }
        // SAFETY: the caller passes a writable pointer.
        unsafe { *out = p };
        0
    }

    /// # Safety
    /// As C's `valloc`.
    #[no_mangle]
    pub unsafe extern "C" fn valloc(size: usize) -> *mut c_void {
        count();
        // SAFETY: as above.
        unsafe { __libc_valloc(size) }
    }

    /// # Safety
    /// As C's `pvalloc`.
    #[no_mangle]
    pub unsafe extern "C" fn pvalloc(size: usize) -> *mut c_void {
        count();
        // SAFETY: as above.
        unsafe { __libc_pvalloc(size) }
    }
}
