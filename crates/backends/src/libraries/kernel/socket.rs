//! Linux AF_ALG sockets (Documentation/crypto/userspace-if.rst): a
//! transformation socket is bound to an algorithm and keyed with
//! `setsockopt(SOL_ALG, ALG_SET_KEY)`; `accept` gives an operation socket on
//! which `sendmsg` passes the operation, IV and AAD length as control
//! messages with the data, and `read` returns the result.

use std::ffi::c_int;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Most bytes handed to the kernel per `sendmsg`: below the socket's send
/// buffer (`net.core.wmem_default`, 212992 bytes by default), so that a
/// single-threaded writer never waits for a reader.
pub const CHUNK: usize = 64 * 1024;

/// Most bytes of one AEAD request (AAD and data), which the kernel takes
/// whole before it computes: af_alg_sendmsg (crypto/af_alg.c) waits for room
/// while the unread data fill the socket's send buffer, `sk_sndbuf`
/// (net.core.wmem_default, 212992 bytes by default, rounded down to pages),
/// and nothing reads before the request is complete.
pub const AEAD_MAX: usize = 192 * 1024;

/// Most data parts of one `sendmsg` or `readv` (AAD, message, tag).
const MAX_PARTS: usize = 4;

/// Room for the control messages of one request: the operation, an IV of up
/// to 64 bytes and the AAD length, each with its header (CMSG_SPACE).
const CMSG_BUF: usize = 256;

/// The control buffer, aligned for `cmsghdr` (CMSG_FIRSTHDR points into it).
#[repr(C, align(8))]
struct CmsgBuf([u8; CMSG_BUF]);

/// A bound (and keyed) transformation socket.
pub struct Tfm {
    fd: OwnedFd,
}

fn check(rc: c_int) -> io::Result<c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

/// A socket of the AF_ALG family: fails with EAFNOSUPPORT (or EPERM in some
/// containers) where the kernel or its policy refuses it.
pub fn family_available() -> io::Result<()> {
    // SAFETY: plain socket(2) call; the descriptor is owned and closed below.
    let fd = check(unsafe { libc::socket(libc::AF_ALG, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0) })?;
    drop(unsafe { OwnedFd::from_raw_fd(fd) });
    Ok(())
}

impl Tfm {
    /// Binds to `kind` ("skcipher", "aead", "hash") and the kernel's algorithm name.
    pub fn bind(kind: &str, name: &str) -> io::Result<Tfm> {
        // SAFETY: socket(2); ownership moves into OwnedFd.
        let fd = check(unsafe { libc::socket(libc::AF_ALG, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0) })?;
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: sockaddr_alg is plain data; zero is a valid start.
        let mut sa: libc::sockaddr_alg = unsafe { std::mem::zeroed() };
        sa.salg_family = libc::AF_ALG as libc::sa_family_t;
        if kind.len() >= sa.salg_type.len() || name.len() >= sa.salg_name.len() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "algorithm name too long"));
        }
        sa.salg_type[..kind.len()].copy_from_slice(kind.as_bytes());
        sa.salg_name[..name.len()].copy_from_slice(name.as_bytes());
        // SAFETY: the address is a sockaddr_alg of the size passed.
        check(unsafe {
            libc::bind(
                fd.as_raw_fd(),
                (&sa as *const libc::sockaddr_alg).cast(),
                std::mem::size_of::<libc::sockaddr_alg>() as libc::socklen_t,
            )
        })?;
        Ok(Tfm { fd })
    }

    pub fn set_key(&self, key: &[u8]) -> io::Result<()> {
        // SAFETY: the key covers the length passed.
        check(unsafe {
            libc::setsockopt(
                self.fd.as_raw_fd(),
                libc::SOL_ALG,
                libc::ALG_SET_KEY,
                key.as_ptr().cast(),
                key.len() as libc::socklen_t,
            )
        })
        .map(drop)
    }

    /// The AEAD tag length: passed as the option length with no value (userspace-if.rst).
    pub fn set_authsize(&self, len: usize) -> io::Result<()> {
        // SAFETY: documented use with a NULL value.
        check(unsafe {
            libc::setsockopt(
                self.fd.as_raw_fd(),
                libc::SOL_ALG,
                libc::ALG_SET_AEAD_AUTHSIZE,
                std::ptr::null(),
                len as libc::socklen_t,
            )
        })
        .map(drop)
    }

    /// A new operation socket on this transformation.
    pub fn accept(&self) -> io::Result<Op> {
        accept(self.fd.as_raw_fd())
    }
}

fn accept(fd: c_int) -> io::Result<Op> {
    // SAFETY: accept(2) without a peer address; ownership moves into OwnedFd.
    let op = check(unsafe { libc::accept4(fd, std::ptr::null_mut(), std::ptr::null_mut(), libc::SOCK_CLOEXEC) })?;
    Ok(Op {
        fd: unsafe { OwnedFd::from_raw_fd(op) },
    })
}

/// An operation socket.
pub struct Op {
    fd: OwnedFd,
}

/// Control messages of one `sendmsg`.
#[derive(Default)]
pub struct Control<'a> {
    /// ALG_OP_ENCRYPT or ALG_OP_DECRYPT.
    pub op: Option<c_int>,
    pub iv: Option<&'a [u8]>,
    pub assoclen: Option<u32>,
}

impl Op {
    /// Sends `parts` (one request's data, e.g. AAD and message) with the control
    /// messages; `more` sets MSG_MORE (more data of the same request follows).
    /// Nothing is allocated: the control messages and the I/O vector live on
    /// the stack, since this runs inside timed loops.
    pub fn send(&self, control: &Control<'_>, parts: &[&[u8]], more: bool) -> io::Result<()> {
        if parts.len() > MAX_PARTS {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "too many parts for one sendmsg"));
        }
        let mut cmsg_buf = CmsgBuf([0u8; CMSG_BUF]);
        let empty = libc::iovec {
            iov_base: std::ptr::null_mut(),
            iov_len: 0,
        };
        let mut iov = [empty; MAX_PARTS];
        for (slot, p) in iov.iter_mut().zip(parts) {
            *slot = libc::iovec {
                iov_base: p.as_ptr() as *mut libc::c_void,
                iov_len: p.len(),
            };
        }
        let total: usize = parts.iter().map(|p| p.len()).sum();
        // SAFETY: msghdr is plain data; the control buffer is checked to hold the messages written
        // below (CMSG_SPACE of each), which the CMSG_* macros lay out.
        unsafe {
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = iov.as_mut_ptr();
            msg.msg_iovlen = parts.len() as _;
            let mut space = 0usize;
            if control.op.is_some() {
                space += libc::CMSG_SPACE(4) as usize;
            }
            if let Some(iv) = control.iv {
                space += libc::CMSG_SPACE((4 + iv.len()) as u32) as usize;
            }
            if control.assoclen.is_some() {
                space += libc::CMSG_SPACE(4) as usize;
            }
            if space > CMSG_BUF {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, "IV too long for the control buffer"));
            }
            if space > 0 {
                msg.msg_control = cmsg_buf.0.as_mut_ptr().cast();
                msg.msg_controllen = space as _;
                let mut c = libc::CMSG_FIRSTHDR(&msg);
                let header = |c: *mut libc::cmsghdr, kind: c_int, len: usize| {
                    (*c).cmsg_level = libc::SOL_ALG;
                    (*c).cmsg_type = kind;
                    (*c).cmsg_len = libc::CMSG_LEN(len as u32) as _;
                    libc::CMSG_DATA(c)
                };
                if let Some(op) = control.op {
                    let data = header(c, libc::ALG_SET_OP, 4);
                    std::ptr::copy_nonoverlapping((op as u32).to_ne_bytes().as_ptr(), data, 4);
                    c = libc::CMSG_NXTHDR(&msg, c);
                }
                if let Some(iv) = control.iv {
                    // struct af_alg_iv { __u32 ivlen; __u8 iv[]; }
                    let data = header(c, libc::ALG_SET_IV, 4 + iv.len());
                    std::ptr::copy_nonoverlapping((iv.len() as u32).to_ne_bytes().as_ptr(), data, 4);
                    std::ptr::copy_nonoverlapping(iv.as_ptr(), data.add(4), iv.len());
                    c = libc::CMSG_NXTHDR(&msg, c);
                }
                if let Some(n) = control.assoclen {
                    let data = header(c, libc::ALG_SET_AEAD_ASSOCLEN, 4);
                    std::ptr::copy_nonoverlapping(n.to_ne_bytes().as_ptr(), data, 4);
                }
            }
            let flags = if more { libc::MSG_MORE } else { 0 };
            let sent = libc::sendmsg(self.fd.as_raw_fd(), &msg, flags);
            if sent < 0 {
                return Err(io::Error::last_os_error());
            }
            if sent as usize != total {
                return Err(io::Error::other(format!("the kernel took {sent} of {total} bytes")));
            }
        }
        Ok(())
    }

    /// Reads exactly the total length of `parts`, filling them in order
    /// (`readv`): an AEAD result lands as AAD ‖ data ‖ tag in separate buffers, with no copy.
    pub fn read_parts(&self, parts: &mut [&mut [u8]]) -> io::Result<()> {
        if parts.len() > MAX_PARTS {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "too many parts for one readv"));
        }
        let total: usize = parts.iter().map(|p| p.len()).sum();
        let mut done = 0usize;
        while done < total {
            let empty = libc::iovec {
                iov_base: std::ptr::null_mut(),
                iov_len: 0,
            };
            let mut iov = [empty; MAX_PARTS];
            let mut n = 0;
            let mut skip = done;
            for p in parts.iter_mut() {
                if skip >= p.len() {
                    skip -= p.len();
                    continue;
                }
                iov[n] = libc::iovec {
                    iov_base: p[skip..].as_mut_ptr().cast(),
                    iov_len: p.len() - skip,
                };
                skip = 0;
                n += 1;
            }
            // SAFETY: every iovec points into a live, exclusively borrowed part.
            let got = unsafe { libc::readv(self.fd.as_raw_fd(), iov.as_ptr(), n as c_int) };
            if got < 0 {
                return Err(io::Error::last_os_error());
            }
            if got == 0 {
                break;
            }
            done += got as usize;
        }
        if done != total {
            return Err(io::Error::other(format!("the kernel returned {done} of {total} bytes")));
        }
        Ok(())
    }

    /// Reads exactly `out.len()` bytes of result.
    pub fn read(&self, out: &mut [u8]) -> io::Result<()> {
        let mut at = 0;
        while at < out.len() {
            // SAFETY: reads into the rest of `out`.
            let n = unsafe { libc::read(self.fd.as_raw_fd(), out[at..].as_mut_ptr().cast(), out.len() - at) };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            if n == 0 {
                break;
            }
            at += n as usize;
        }
        if at != out.len() {
            return Err(io::Error::other(format!("the kernel returned {at} of {} bytes", out.len())));
        }
        Ok(())
    }

    /// For hashes: a new operation socket with a copy of this one's state (algif_hash `hash_accept`).
    pub fn clone_state(&self) -> io::Result<Op> {
        accept(self.fd.as_raw_fd())
    }
}
