"""The pyca/cryptography binding of the cryptobench driver: its AEAD
classes, Cipher contexts, hashes and MACs, over the OpenSSL that the wheel
bundles (or the system's, for a distribution's build)."""

import itertools
import os
import sys

from cryptography_pk import PkCell, PkSchemes
from common import AuthFailed, KeyedCopyMessage, KeyedStream, Prim, Unsupported, elf_needed, mapped_files, python_version


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
        self.pk_schemes = PkSchemes()
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
        return list(self.aeads) + self.ciphers + list(self.digests) + list(self.macs) + self.pk_schemes.offered

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
            "pk_not_offered": self.pk_schemes.not_offered(),
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

    def pk(self, alg, op, priv, pub, in1, in2):
        """One `pk` request (cryptography_pk.py): the reply's blobs."""
        return self.pk_schemes.ops(alg, priv, pub).once(op, in1, in2)

    def prepare(self, alg, op, mode, rekey, key, iv, aad, ct, tag):
        if alg in self.pk_schemes.offered or alg in self.pk_schemes.missing:
            # A public-key cell: the private key, the public key, the prepared signature or ciphertext.
            return PkCell(self.pk_schemes.ops(alg, key, iv), op, ct)
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
