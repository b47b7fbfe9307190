#!/usr/bin/env python3
"""cryptobench driver for Python: `hashlib` or pyca/cryptography.

Started by cryptobench's runtime backends (crates/backends/src/runtime/python.rs)
as `python3 driver.py hashlib` or `python3 driver.py cryptography`, it speaks
the pipe protocol of docs/ARCHITECTURE.md ("Runtime drivers") on stdin and
stdout: one ASCII header line per request, then the raw bytes it announces.
It holds no test vectors: the Rust side verifies every call it forwards.

Timed loops run here, in Python, and time themselves with
time.perf_counter_ns (wall), time.thread_time_ns (this thread's CPU) and
time.process_time_ns (the whole process's CPU: work on other threads shows
as the difference), so the pipe costs nothing inside a sample. A cell keeps
its key across messages where pyca allows it, and says when it cannot
(`keys_every_message`). Calls per mode: docs/METHOD.md.
"""

import itertools
import os
import platform
import struct
import sys
import time

PROTOCOL = 1


class Unsupported(Exception):
    """The binding has no call for this cell: cryptobench reports it n/a with this reason."""


class AuthFailed(Exception):
    """An AEAD tag did not verify."""


def python_version():
    return f"{platform.python_implementation()} {platform.python_version()}"


def mapped_files(word):
    """Files of this process whose name contains `word` (/proc/self/maps, Linux)."""
    try:
        with open("/proc/self/maps") as f:
            names = [line.split()[-1] for line in f if word in line and "/" in line]
    except OSError:
        return []
    return sorted(set(names))


def elf_needed(path):
    """DT_NEEDED entries of a 64-bit little-endian ELF file (its shared-library dependencies)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    needed = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link]
        for at in range(offset, offset + size, entsize or 16):
            tag, value = struct.unpack_from("<qQ", data, at)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                start = strtab[4] + value
                needed.append(data[start:data.index(b"\0", start)].decode())
    return needed


class Prim:
    """A prepared cell. `msg` views the message bytes of the buffer, `room`
    the message plus 16 bytes (an AEAD tag, or the slack update_into asks for)."""

    call = ""
    fixed_len = None  # decryption of a prepared message: the buffer must have its length
    # A `message` cell whose every message sets the key again, the cell asking for none
    # (the `prepare` reply's second number; docs/ARCHITECTURE.md, "Runtime drivers").
    keys_every_message = False

    def __init__(self):
        self.len = -1
        self.out = None

    def load(self, data):
        n = len(data)
        if self.fixed_len is not None and n != self.fixed_len:
            raise ValueError(f"the buffer has {n} bytes, the prepared message {self.fixed_len}")
        if n != self.len:
            self.buf = bytearray(n + 16)
            self.mv = memoryview(self.buf)
            self.msg = self.mv[:n]
            self.room = self.mv[: n + 16]
            self.len = n
        self.msg[:] = data
        self.loaded()

    def loaded(self):
        """Called after the buffer was filled, outside the timing."""

    def result(self):
        return self.msg

    def output(self):
        return self.out


# --- hashlib ---------------------------------------------------------------

HASHLIB_NAMES = {
    "md5": "md5", "sha1": "sha1", "sha224": "sha224", "sha256": "sha256", "sha384": "sha384",
    "sha512": "sha512", "sha3-224": "sha3_224", "sha3-256": "sha3_256", "sha3-384": "sha3_384",
    "sha3-512": "sha3_512", "blake2b512": "blake2b", "blake2s256": "blake2s",
    "shake128": "shake_128", "shake256": "shake_256",
}

# SHAKE is read to twice its security level, as the Rust catalog says (FIPS 202 §A.2).
XOF_LENGTHS = {"shake128": 32, "shake256": 64}

# The stdlib hmac module over hashlib (OpenSSL's HMAC through _hashlib where it has the digest).
HMAC_DIGESTS = {"hmac-md5": "md5", "hmac-sha1": "sha1", "hmac-sha256": "sha256", "hmac-sha512": "sha512"}


class HashlibDigestMessage(Prim):
    def __init__(self, ctor, xof_len=None):
        super().__init__()
        self.ctor, self.xof_len = ctor, xof_len
        read = f"digest({xof_len})" if xof_len else "digest()"
        self.call = f"hashlib.{ctor.__name__}(buf).{read}"

    def run(self, n):
        ctor, m, d = self.ctor, self.msg, None
        if self.xof_len:
            k = self.xof_len
            for _ in itertools.repeat(None, n):
                d = ctor(m).digest(k)
        else:
            for _ in itertools.repeat(None, n):
                d = ctor(m).digest()
        self.out = d


class HashlibDigestStream(Prim):
    def __init__(self, ctor, xof_len=None):
        super().__init__()
        self.h = ctor()
        self.xof_len = xof_len
        self.call = f"{ctor.__name__}().update(buf)"

    def run(self, n):
        update, m = self.h.update, self.msg
        for _ in itertools.repeat(None, n):
            update(m)

    def output(self):
        h = self.h.copy()
        return h.digest(self.xof_len) if self.xof_len else h.digest()


def takes_memoryview(keyed):
    """Whether update() takes a memoryview; older cryptography (e.g. Debian 12's 38) wants bytes for CMAC."""
    try:
        keyed.copy().update(memoryview(b""))
        return True
    except TypeError:
        return False


class Keyed(Prim):
    """A MAC cell on a keyed object (hmac.new, cryptography's HMAC or CMAC)."""

    def __init__(self, keyed, call, finish):
        super().__init__()
        self.keyed, self.call, self.finish = keyed, call, finish
        self.view = takes_memoryview(keyed)

    def loaded(self):
        self.data = self.msg if self.view else bytes(self.msg)


class KeyedCopyMessage(Keyed):
    """MAC `message` under the kept key: a copy of the keyed object per message
    (its key schedule is not run again), update, then the tag."""

    def run(self, n):
        copy, finish, m, d = self.keyed.copy, self.finish, self.data, None
        for _ in itertools.repeat(None, n):
            h = copy()
            h.update(m)
            d = finish(h)
        self.out = d


class KeyedStream(Keyed):
    """MAC `stream`: one keyed object, one update per call; the tag from a copy."""

    def run(self, n):
        update, m = self.keyed.update, self.data
        for _ in itertools.repeat(None, n):
            update(m)

    def output(self):
        return self.finish(self.keyed.copy())


class Hashlib:
    name = "Python hashlib"

    def __init__(self):
        import hashlib
        import ssl

        self.hashlib = hashlib
        self.ctors = {}
        self.own = {}
        for alg, attr in HASHLIB_NAMES.items():
            ctor = getattr(hashlib, attr, None)
            if ctor is None:
                continue
            try:
                ctor(b"").digest(*([XOF_LENGTHS[alg]] if alg in XOF_LENGTHS else []))
            except ValueError:  # e.g. md5 refused by an OpenSSL in FIPS mode
                continue
            self.ctors[alg] = ctor
            if not getattr(ctor, "__name__", "").startswith("openssl_"):
                module = getattr(ctor, "__module__", None) or type(ctor).__module__
                self.own[alg] = f"CPython's built-in {module} module (not OpenSSL)"
        import hmac

        self.hmac = hmac
        self.macs = [alg for alg, d in HMAC_DIGESTS.items() if d in self.ctors]
        self.openssl = ssl.OPENSSL_VERSION

    def info(self):
        libs = mapped_files("libcrypto")
        lines = {
            "name": self.name,
            # "hashlib 3.11.7 …": reports label it by the interpreter's version.
            "version": f"hashlib {platform.python_version()} ({platform.python_implementation()}), {self.openssl}",
            "runtime": python_version(),
            "binding": "hashlib",
            "underneath": f"{self.openssl} (ssl.OPENSSL_VERSION; _hashlib links the same libcrypto)",
            "underneath.name": self.openssl.split()[0],
            "underneath.version": self.openssl.split()[1],
            "library_path": libs[0] if libs else sys.executable,
            "executable": sys.executable,
            "algorithms": ",".join(list(self.ctors) + self.macs),
            "mac": "the hmac module (hmac.new over hashlib's constructors)",
        }
        for alg, what in self.own.items():
            lines[f"underneath.{alg}"] = what
        return lines

    def ctor(self, alg):
        if alg not in self.ctors:
            raise Unsupported(f"{alg} (not in this Python's hashlib)")
        return self.ctors[alg]

    def digest(self, alg, msg):
        h = self.ctor(alg)()
        h.update(msg)
        return h.digest(XOF_LENGTHS[alg]) if alg in XOF_LENGTHS else h.digest()

    def mac(self, alg, key, msg):
        if alg not in self.macs:
            raise Unsupported(f"{alg} (hashlib has no such digest here)")
        # The one-shot function, another path than the timed copies.
        return self.hmac.digest(key, msg, HMAC_DIGESTS[alg])

    def encrypt(self, alg, *_):
        raise Unsupported(f"{alg} (hashlib has digests only)")

    decrypt = encrypt

    def prepare(self, alg, op, mode, rekey, key, iv, aad, ct, tag):
        if op == "mac":
            if alg not in self.macs:
                raise Unsupported(f"{alg} (hashlib has no such digest here)")
            name = HMAC_DIGESTS[alg]
            keyed = self.hmac.new(key, digestmod=name)
            finish = lambda h: h.digest()  # noqa: E731
            if mode == "message":
                return KeyedCopyMessage(keyed, f"hmac.new(key, digestmod='{name}') once, copy() + update + digest() per message", finish)
            return KeyedStream(keyed, f"hmac.new(key, digestmod='{name}').update(buf)", finish)
        if op != "digest":
            raise Unsupported(f"{alg} (hashlib has digests only)")
        ctor = self.ctor(alg)
        xof_len = XOF_LENGTHS.get(alg)
        return HashlibDigestMessage(ctor, xof_len) if mode == "message" else HashlibDigestStream(ctor, xof_len)


# --- pyca/cryptography -----------------------------------------------------

class AeadEncrypt(Prim):
    """AEAD message: one call seals the buffer in place, the tag after it."""

    def __init__(self, cls, key, nonce, aad, rekey):
        super().__init__()
        self.cls, self.key, self.nonce, self.aad, self.rekey = cls, key, nonce, aad, rekey
        self.aead = cls(key)
        self.into = hasattr(self.aead, "encrypt_into")
        name = cls.__name__
        call = f"{name}.encrypt_into" if self.into else f"{name}.encrypt (returns new bytes)"
        self.call = f"{name}(key) + {call}" if rekey else call

    def run(self, n):
        nonce, aad, m, room = self.nonce, self.aad, self.msg, self.room
        if self.into:
            if self.rekey:
                cls, key = self.cls, self.key
                for _ in itertools.repeat(None, n):
                    cls(key).encrypt_into(nonce, m, aad, room)
            else:
                enc = self.aead.encrypt_into
                for _ in itertools.repeat(None, n):
                    enc(nonce, m, aad, room)
            self.out = bytes(room[self.len:])
            return
        # cryptography before encrypt_into (before 45): every call allocates
        # its result; each call seals the same plaintext (bytes: older
        # versions take no memoryview), the last result is kept.
        r, data = b"", self.data
        if self.rekey:
            cls, key = self.cls, self.key
            for _ in itertools.repeat(None, n):
                r = cls(key).encrypt(nonce, data, aad)
        else:
            enc = self.aead.encrypt
            for _ in itertools.repeat(None, n):
                r = enc(nonce, data, aad)
        room[:] = r
        self.out = bytes(room[self.len:])

    def loaded(self):
        if not self.into:
            self.data = bytes(self.msg)


class AeadDecrypt(Prim):
    """AEAD message decryption of the prepared ciphertext and tag into the buffer."""

    def __init__(self, cls, key, nonce, aad, rekey, ct, tag):
        super().__init__()
        self.cls, self.key, self.nonce, self.aad, self.rekey = cls, key, nonce, aad, rekey
        self.sealed = bytes(ct) + bytes(tag)
        self.fixed_len = len(ct)
        self.aead = cls(key)
        self.into = hasattr(self.aead, "decrypt_into")
        name = cls.__name__
        call = f"{name}.decrypt_into" if self.into else f"{name}.decrypt (returns new bytes)"
        self.call = f"{name}(key) + {call}" if rekey else call

    def run(self, n):
        from cryptography.exceptions import InvalidTag

        nonce, aad, sealed, m = self.nonce, self.aad, self.sealed, self.msg
        try:
            if self.into:
                if self.rekey:
                    cls, key = self.cls, self.key
                    for _ in itertools.repeat(None, n):
                        cls(key).decrypt_into(nonce, sealed, aad, m)
                else:
                    dec = self.aead.decrypt_into
                    for _ in itertools.repeat(None, n):
                        dec(nonce, sealed, aad, m)
                return
            # cryptography before decrypt_into: every call allocates its result.
            r = b""
            if self.rekey:
                cls, key = self.cls, self.key
                for _ in itertools.repeat(None, n):
                    r = cls(key).decrypt(nonce, sealed, aad)
            else:
                dec = self.aead.decrypt
                for _ in itertools.repeat(None, n):
                    r = dec(nonce, sealed, aad)
            m[:] = r
        except InvalidTag:
            raise AuthFailed()


class CipherStream(Prim):
    """`stream`: one encryptor/decryptor, one update_into per call, in place."""

    def __init__(self, cipher, encrypt):
        super().__init__()
        self.ctx = cipher.encryptor() if encrypt else cipher.decryptor()
        mode = f", {cipher.mode.name}" if cipher.mode is not None else ""
        self.call = f"Cipher({cipher.algorithm.name}{mode}).{'encryptor' if encrypt else 'decryptor'}().update_into"

    def run(self, n):
        update, m, room = self.ctx.update_into, self.msg, self.room
        for _ in itertools.repeat(None, n):
            update(m, room)


class CipherMessage(Prim):
    """Plain-cipher `message`; decryption decrypts the prepared ciphertext into
    the buffer. The key is kept across messages where pyca allows it: ECB (no
    IV; one context, update_into per message computes what a fresh context
    would) and CTR and ChaCha20 (one context; reset_nonce(iv), cryptography
    43+, then update_into per message). CBC and CFB have no call that sets a
    new IV on a context: each message is a new encryptor or decryptor, whose
    key is set again, and the cell says so. With --rekey: a new Cipher and
    context per message."""

    def __init__(self, make, encrypt, rekey, ct, kind, iv):
        super().__init__()
        self.make, self.encrypt, self.rekey, self.iv = make, encrypt, rekey, iv
        self.cipher = make()
        self.ct = bytes(ct)
        if not encrypt:
            self.fixed_len = len(ct)
        side = "encryptor" if encrypt else "decryptor"
        self.ctx, self.reset = None, None
        if not rekey and kind == "ecb":
            self.ctx = self.context(self.cipher)
            self.call = f"Cipher(...).{side}() once, update_into per message (ECB has no IV; the key is kept)"
        elif not rekey and kind in ("ctr", "chacha20"):
            ctx = self.context(self.cipher)
            if hasattr(ctx, "reset_nonce"):
                self.ctx, self.reset = ctx, ctx.reset_nonce
                self.call = f"Cipher(...).{side}() once, reset_nonce(iv) + update_into per message (the key is kept)"
        if self.ctx is None:
            self.keys_every_message = not rekey
            self.call = (f"Cipher(...) + {side}() + update_into + finalize per message" if rekey
                         else f"Cipher(...).{side}() + update_into + finalize per message (the key is set every message: "
                              "pyca has no call that sets a new IV on a context of this mode)")

    def context(self, cipher):
        return cipher.encryptor() if self.encrypt else cipher.decryptor()

    def run(self, n):
        room = self.room
        src = self.msg if self.encrypt else self.ct
        if self.ctx is not None:
            update, reset, iv = self.ctx.update_into, self.reset, self.iv
            if reset is None:
                for _ in itertools.repeat(None, n):
                    update(src, room)
            else:
                for _ in itertools.repeat(None, n):
                    reset(iv)
                    update(src, room)
            return
        make, cipher, context = self.make, self.cipher, self.context
        for _ in itertools.repeat(None, n):
            ctx = context(make() if self.rekey else cipher)
            ctx.update_into(src, room)
            ctx.finalize()


class Poly1305Message(Prim):
    """Poly1305's key is one-time by design: every message sets it (as in every backend)."""

    def __init__(self, cls, key):
        super().__init__()
        self.cls, self.key = cls, key
        self.call = "Poly1305.generate_tag(key, buf)"

    def run(self, n):
        gen, key, m, d = self.cls.generate_tag, self.key, self.msg, None
        for _ in itertools.repeat(None, n):
            d = gen(key, m)
        self.out = d


class CryptographyDigestMessage(Prim):
    def __init__(self, hashes, algo):
        super().__init__()
        self.hashes, self.algo = hashes, algo
        self.call = f"hashes.Hash({algo.name}) + update + finalize"

    def run(self, n):
        Hash, algo, m, d = self.hashes.Hash, self.algo, self.msg, None
        for _ in itertools.repeat(None, n):
            h = Hash(algo)
            h.update(m)
            d = h.finalize()
        self.out = d


class CryptographyDigestStream(Prim):
    def __init__(self, hashes, algo):
        super().__init__()
        self.h = hashes.Hash(algo)
        self.call = f"hashes.Hash({algo.name}).update"

    def run(self, n):
        update, m = self.h.update, self.msg
        for _ in itertools.repeat(None, n):
            update(m)

    def output(self):
        return self.h.copy().finalize()


class Cryptography:
    name = "Python cryptography"

    def __init__(self):
        import cryptography
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers import aead

        self.version = cryptography.__version__
        self.hashes, self.Cipher, self.algorithms, self.modes = hashes, Cipher, algorithms, modes
        self.aeads = {
            "aes-128-gcm": aead.AESGCM, "aes-192-gcm": aead.AESGCM, "aes-256-gcm": aead.AESGCM,
            "chacha20-poly1305": aead.ChaCha20Poly1305,
        }
        # AEADs that seal whole messages only (the Rust side refuses their stream cells);
        # each where this cryptography has it (AESGCMSIV: 42+, with OpenSSL 3.2+).
        for alg, name in (("aes-128-ccm", "AESCCM"), ("aes-256-ccm", "AESCCM"), ("aes-128-ocb", "AESOCB3"),
                          ("aes-256-ocb", "AESOCB3"), ("aes-128-gcm-siv", "AESGCMSIV"), ("aes-256-gcm-siv", "AESGCMSIV")):
            cls = getattr(aead, name, None)
            if cls is not None and self.aead_works(cls, 16 if "-128-" in alg else 32):
                self.aeads[alg] = cls
        # CFB and Camellia moved to the decrepit modules in cryptography 43 (and leave the old ones in 49).
        try:
            from cryptography.hazmat.decrepit.ciphers import algorithms as decrepit_algorithms
            from cryptography.hazmat.decrepit.ciphers import modes as decrepit_modes
        except ImportError:
            decrepit_algorithms, decrepit_modes = algorithms, modes
        cfb = getattr(decrepit_modes, "CFB", None) or modes.CFB
        self.modes_of = {"cbc": modes.CBC, "ctr": modes.CTR, "gcm": modes.GCM, "cfb128": cfb}
        self.digests = {
            "md5": lambda: hashes.MD5(), "sha1": lambda: hashes.SHA1(), "sha224": lambda: hashes.SHA224(),
            "sha256": lambda: hashes.SHA256(), "sha384": lambda: hashes.SHA384(), "sha512": lambda: hashes.SHA512(),
            "sha3-224": lambda: hashes.SHA3_224(), "sha3-256": lambda: hashes.SHA3_256(),
            "sha3-384": lambda: hashes.SHA3_384(), "sha3-512": lambda: hashes.SHA3_512(),
            "blake2b512": lambda: hashes.BLAKE2b(64), "blake2s256": lambda: hashes.BLAKE2s(32),
            # Read to the catalog's lengths (twice the security level, FIPS 202 §A.2).
            "shake128": lambda: hashes.SHAKE128(32), "shake256": lambda: hashes.SHAKE256(64),
        }
        if hasattr(hashes, "SM3"):
            self.digests["sm3"] = lambda: hashes.SM3()
        # Plain ciphers: the catalog id -> (algorithm from the key, mode from the IV or None).
        self.plain = {}
        for bits in (128, 192, 256):
            for m in ("cbc", "ctr", "cfb128"):
                self.plain[f"aes-{bits}-{m}"] = (algorithms.AES, self.modes_of[m])
            self.plain[f"aes-{bits}-ecb"] = (algorithms.AES, lambda _iv: modes.ECB())
        # ChaCha20 takes OpenSSL's 16-byte IV (counter ‖ nonce), as the catalog does.
        self.plain["chacha20"] = (None, None)
        camellia = getattr(decrepit_algorithms, "Camellia", None) or getattr(algorithms, "Camellia", None)
        if camellia is not None:
            for bits in (128, 192, 256):
                self.plain[f"camellia-{bits}-cbc"] = (camellia, modes.CBC)
        if hasattr(algorithms, "SM4"):
            self.plain["sm4-cbc"] = (algorithms.SM4, modes.CBC)
        self.ciphers = [a for a in self.plain if self.cipher_works(a)]
        from cryptography.hazmat.primitives import cmac, hmac, poly1305

        self.hmac, self.cmac, self.poly1305 = hmac, cmac, poly1305
        self.macs = {
            "hmac-md5": hashes.MD5, "hmac-sha1": hashes.SHA1, "hmac-sha256": hashes.SHA256, "hmac-sha512": hashes.SHA512,
            "aes-128-cmac": None, "poly1305": None,
        }
        from cryptography.hazmat.backends.openssl.backend import backend

        self.openssl = backend.openssl_version_text()
        # The extension module that links OpenSSL: _openssl (CFFI) up to
        # cryptography 41, _rust since (it carries the OpenSSL calls itself).
        try:
            from cryptography.hazmat.bindings import _openssl as linked
        except ImportError:
            from cryptography.hazmat.bindings import _rust as linked
        self.module = linked.__file__
        try:
            from cryptography.hazmat.bindings._rust import openssl as rust_openssl
            self.flavour = ("BoringSSL" if getattr(rust_openssl, "CRYPTOGRAPHY_IS_BORINGSSL", False)
                            else "LibreSSL" if getattr(rust_openssl, "CRYPTOGRAPHY_IS_LIBRESSL", False)
                            else "AWS-LC" if getattr(rust_openssl, "CRYPTOGRAPHY_IS_AWSLC", False)
                            else None)
            self.fips = bool(rust_openssl.is_fips_enabled()) if hasattr(rust_openssl, "is_fips_enabled") else None
        except ImportError:
            self.flavour, self.fips = None, None

    @staticmethod
    def aead_works(cls, key_len):
        """Whether the linked OpenSSL has it (e.g. AESGCMSIV needs OpenSSL 3.2+)."""
        try:
            cls(bytes(key_len)).encrypt(bytes(12), b"", b"")
            return True
        except Exception:
            return False

    def cipher_works(self, alg):
        """Whether the linked OpenSSL has it (Camellia and SM4 are optional builds)."""
        parts = alg.split("-")
        key_len = 32 if alg == "chacha20" else 16 if alg.startswith("sm4") else int(parts[1]) // 8
        try:
            self.cipher(alg, bytes(key_len), bytes(16)).encryptor().update(bytes(16))
            return True
        except Exception:
            return False

    def algorithms_list(self):
        return list(self.aeads) + self.ciphers + list(self.digests) + list(self.macs)

    def info(self):
        needed = elf_needed(self.module) or []
        dynamic = any(n.startswith("libcrypto") for n in needed)
        libs = mapped_files("libcrypto") if dynamic else []
        words = self.openssl.split()
        name = self.flavour or words[0]
        linked = (f"linked dynamically: {libs[0]}" if libs else "linked dynamically") if dynamic \
            else f"statically linked into {os.path.basename(self.module)}"
        lines = {
            "name": self.name,
            "version": f"cryptography {self.version} on {python_version()}, {self.openssl}",
            "runtime": python_version(),
            "binding": f"cryptography {self.version}",
            "underneath": f"{self.openssl} (backend.openssl_version_text(); {linked})",
            "underneath.name": name,
            "underneath.version": words[1] if len(words) > 1 else "",
            "library_path": libs[0] if libs else self.module,
            "executable": sys.executable,
            "algorithms": ",".join(self.algorithms_list()),
        }
        if self.fips is not None:
            lines["fips"] = str(self.fips).lower()
        return lines

    def cipher(self, alg, key, iv):
        if alg == "chacha20":
            return self.Cipher(self.algorithms.ChaCha20(key, iv), None)
        if alg.endswith("-gcm"):
            return self.Cipher(self.algorithms.AES(key), self.modes.GCM(iv))
        algorithm, mode = self.plain[alg]
        return self.Cipher(algorithm(key), mode(iv) if mode else None)

    def mac_object(self, alg, key):
        if alg == "aes-128-cmac":
            return self.cmac.CMAC(self.algorithms.AES(key))
        return self.hmac.HMAC(key, self.macs[alg]())

    def mac(self, alg, key, msg):
        if alg not in self.macs:
            raise Unsupported(f"{alg} (not offered by this driver for cryptography)")
        if alg == "poly1305":
            return self.poly1305.Poly1305.generate_tag(key, msg)
        m = self.mac_object(alg, key)
        m.update(msg)
        return m.finalize()

    def encrypt(self, alg, key, iv, aad, pt):
        if alg in self.aeads:
            sealed = self.aeads[alg](key).encrypt(iv, pt, aad)
            return sealed[:-16], sealed[-16:]
        if alg in self.ciphers:
            e = self.cipher(alg, key, iv).encryptor()
            return e.update(pt) + e.finalize(), b""
        raise Unsupported(f"{alg} (not offered by this driver for cryptography)")

    def decrypt(self, alg, key, iv, aad, ct, tag):
        from cryptography.exceptions import InvalidTag

        if alg in self.aeads:
            try:
                return self.aeads[alg](key).decrypt(iv, ct + tag, aad)
            except InvalidTag:
                raise AuthFailed()
        if alg in self.ciphers:
            d = self.cipher(alg, key, iv).decryptor()
            return d.update(ct) + d.finalize()
        raise Unsupported(f"{alg} (not offered by this driver for cryptography)")

    def digest(self, alg, msg):
        if alg not in self.digests:
            raise Unsupported(f"{alg} (not offered by this driver for cryptography)")
        h = self.hashes.Hash(self.digests[alg]())
        h.update(msg)
        return h.finalize()

    def prepare(self, alg, op, mode, rekey, key, iv, aad, ct, tag):
        if op == "mac":
            if alg not in self.macs:
                raise Unsupported(f"{alg} (not offered by this driver for cryptography)")
            if alg == "poly1305":
                if mode == "stream":
                    raise Unsupported(f"{alg} in stream mode (cryptography's Poly1305 cannot be copied, so a stream's tag cannot be read without ending it)")
                return Poly1305Message(self.poly1305.Poly1305, key)
            keyed = self.mac_object(alg, key)
            name = "CMAC(AES(key))" if alg == "aes-128-cmac" else f"HMAC(key, {self.macs[alg].name.upper()}())"
            finish = lambda h: h.finalize()  # noqa: E731
            if mode == "message":
                return KeyedCopyMessage(keyed, f"{name} once, copy() + update + finalize() per message", finish)
            return KeyedStream(keyed, f"{name}.update(buf)", finish)
        if op == "digest":
            if alg not in self.digests:
                raise Unsupported(f"{alg} (not offered by this driver for cryptography)")
            algo = self.digests[alg]()
            if mode == "message":
                return CryptographyDigestMessage(self.hashes, algo)
            return CryptographyDigestStream(self.hashes, algo)
        encrypt = op == "encrypt"
        if alg in self.aeads:
            if mode == "message":
                cls = self.aeads[alg]
                if encrypt:
                    return AeadEncrypt(cls, key, iv, aad, rekey)
                return AeadDecrypt(cls, key, iv, aad, rekey, ct, tag)
            if alg == "chacha20-poly1305":
                raise Unsupported(f"{alg} in stream mode (cryptography's ChaCha20Poly1305 seals whole messages only)")
            return CipherStream(self.cipher(alg, key, iv), encrypt)
        if alg in self.ciphers:
            if mode == "stream":
                return CipherStream(self.cipher(alg, key, iv), encrypt)
            kind = "ecb" if alg.endswith("-ecb") else "ctr" if alg.endswith("-ctr") else alg
            return CipherMessage(lambda: self.cipher(alg, key, iv), encrypt, rekey, ct, kind, iv)
        raise Unsupported(f"{alg} (not offered by this driver for cryptography)")


# --- the pipe protocol -----------------------------------------------------

class Pipe:
    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer

    def send(self, header, *blobs):
        self.out.write(header.encode() + b"\n")
        for b in blobs:
            self.out.write(b)
        self.out.flush()

    def blobs(self, lengths):
        out = []
        for n in lengths:
            data = self.inp.read(n) if n else b""
            if len(data) != n:
                raise EOFError("the request ended early")
            out.append(data)
        return out


def one_line(text):
    return " ".join(str(text).split()) or "no message"


def serve(binding, pipe):
    handles = {}
    while True:
        line = pipe.inp.readline()
        if not line:
            return
        words = line.decode().split()
        if not words:
            continue
        verb, args = words[0], words[1:]
        try:
            if verb == "run":
                h, n, length = args[0], int(args[1]), int(args[2])
                data, = pipe.blobs([length])
                p = handles[h]
                p.load(data)
                p0 = time.process_time_ns()
                c0 = time.thread_time_ns()
                t0 = time.perf_counter_ns()
                p.run(n)
                t1 = time.perf_counter_ns()
                c1 = time.thread_time_ns()
                p1 = time.process_time_ns()
                pipe.send(f"ok {t1 - t0} {c1 - c0} {p1 - p0}", p.result())
            elif verb == "output":
                out = handles[args[0]].output()
                pipe.send("none" if out is None else f"ok {len(out)}", *([] if out is None else [out]))
            elif verb == "prepare":
                # args[5] is the message size, which no Python call needs to know in advance.
                h, alg, op, mode, rekey = args[0], args[1], args[2], args[3], args[4] == "1"
                key, iv, aad, ct, tag = pipe.blobs([int(x) for x in args[6:11]])
                p = binding.prepare(alg, op, mode, rekey, key, iv, aad, ct, tag)
                handles[h] = p
                call = p.call.encode()
                pipe.send(f"ok {len(call)} {int(p.keys_every_message)}", call)
            elif verb == "free":
                handles.pop(args[0], None)
                pipe.send("ok")
            elif verb == "encrypt":
                key, iv, aad, pt = pipe.blobs([int(x) for x in args[1:5]])
                ct, tag = binding.encrypt(args[0], key, iv, aad, pt)
                pipe.send(f"ok {len(ct)} {len(tag)}", ct, tag)
            elif verb == "decrypt":
                key, iv, aad, ct, tag = pipe.blobs([int(x) for x in args[1:6]])
                pt = binding.decrypt(args[0], key, iv, aad, ct, tag)
                pipe.send(f"ok {len(pt)}", pt)
            elif verb == "mac":
                key, msg = pipe.blobs([int(args[1]), int(args[2])])
                t = binding.mac(args[0], key, msg)
                pipe.send(f"ok {len(t)}", t)
            elif verb == "digest":
                msg, = pipe.blobs([int(args[1])])
                d = binding.digest(args[0], msg)
                pipe.send(f"ok {len(d)}", d)
            elif verb == "info":
                text = "".join(f"{k}={one_line(v)}\n" for k, v in binding.info().items()).encode()
                pipe.send(f"ok {len(text)}", text)
            else:
                pipe.send(f"err unknown request {verb}")
        except Unsupported as e:
            pipe.send(f"unsupported {one_line(e)}")
        except AuthFailed:
            pipe.send("auth")
        except EOFError:
            return
        except Exception as e:  # the Rust side turns it into a BackendError
            pipe.send(f"err {type(e).__name__}: {one_line(e)}")


def main():
    pipe = Pipe()
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        binding = {"hashlib": Hashlib, "cryptography": Cryptography}[which]()
    except KeyError:
        pipe.send(f"unavailable the Python driver takes hashlib or cryptography, not '{which}'")
        return
    except ImportError as e:
        pipe.send(f"unavailable {one_line(e)}")
        return
    pipe.send(f"hello {PROTOCOL}")
    serve(binding, pipe)


if __name__ == "__main__":
    main()
