"""The `hashlib` binding of the cryptobench driver: CPython's hashlib and
hmac modules, which call the system's libcrypto (or CPython's own code for
the digests OpenSSL does not serve)."""

import itertools
import platform
import sys

from common import KeyedCopyMessage, KeyedStream, Prim, Unsupported, mapped_files, python_version


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
