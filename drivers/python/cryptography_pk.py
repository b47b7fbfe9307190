"""Public key in the pyca/cryptography binding: the seeded keys arrive as
PKCS#8 (private) and SubjectPublicKeyInfo (public) DER, or as the seed of
ML-KEM and ML-DSA (crates/backends/src/libraries/runtime/pk_keys.rs); one
`PkOps` per request or prepared cell. RSA and ECDSA sign the cell's message
as a precomputed digest (utils.Prehashed), EdDSA and ML-DSA the message
itself (docs/METHOD.md, "Public key")."""

import itertools

from common import AuthFailed, Prim, Unsupported

RSA = ["rsa2048", "rsa3072", "rsa4096"]
RSA_PSS = [a + "-pss" for a in RSA]
ECDSA = {"ecdsap256": 32, "ecdsap384": 48, "ecdsap521": 64}
ECDH = ["ecdhp256", "ecdhp384"]
MLKEM = {"mlkem768": "MLKEM768", "mlkem1024": "MLKEM1024"}
MLDSA = {"mldsa44": "MLDSA44", "mldsa65": "MLDSA65", "mldsa87": "MLDSA87"}


class PkSchemes:
    """What this cryptography offers, and why not where it does not."""

    def __init__(self):
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, padding, utils

        self.InvalidSignature = InvalidSignature
        self.hashes, self.ser, self.ec, self.padding, self.utils = hashes, serialization, ec, padding, utils
        self.offered = RSA + RSA_PSS + list(ECDSA) + ["ed25519", "ed448", "x25519", "x448"] + ECDH
        self.missing = {a + "-oaep": "RSA-OAEP is not in the driver for cryptography" for a in RSA}
        for ids, module in ((MLKEM, "mlkem"), (MLDSA, "mldsa")):
            try:
                mod = __import__(f"cryptography.hazmat.primitives.asymmetric.{module}", fromlist=["x"])
                classes = {a: (getattr(mod, f"{c}PrivateKey"), getattr(mod, f"{c}PublicKey")) for a, c in ids.items()}
                # The wheel's OpenSSL may lack the scheme although the module exists (before OpenSSL 3.5).
                for a, (cls, _) in classes.items():
                    cls.generate()
                self.offered += list(ids)
                setattr(self, module, classes)
            except Exception as e:  # ImportError, UnsupportedAlgorithm
                for a in ids:
                    self.missing[a] = f"this cryptography has no {module.upper()[:2]}-{module.upper()[2:]} ({type(e).__name__}: {e})"
        self.missing["mlkem512"] = "cryptography has ML-KEM-768 and ML-KEM-1024, not ML-KEM-512"
        for a in ("slhdsa-sha2-128s", "slhdsa-sha2-128f", "slhdsa-shake-128f"):
            self.missing[a] = "cryptography has no SLH-DSA"

    def not_offered(self):
        return "; ".join(f"{a}: {why}" for a, why in sorted(self.missing.items()))

    def ops(self, alg, priv, pub):
        if alg not in self.offered:
            if alg in self.missing:
                raise Unsupported(f"{alg}: {self.missing[alg]}")
            raise Unsupported(f"{alg} (not offered by this driver for cryptography)")
        return PkOps(self, alg, priv, pub)


class PkOps:
    """One algorithm's calls on imported keys; `calls` names each operation's pyca call."""

    def __init__(self, s, alg, priv, pub):
        self.alg = alg
        seeded = alg in MLKEM or alg in MLDSA
        if seeded:
            cls, public_cls = (s.mlkem if alg in MLKEM else s.mldsa)[alg]
            self.key = cls.from_seed_bytes(priv) if priv else None
            self.pub = self.key.public_key() if self.key else public_cls.from_public_bytes(pub)
            self.generate = cls.generate
        else:
            self.key = s.ser.load_der_private_key(priv, password=None) if priv else None
            self.pub = s.ser.load_der_public_key(pub) if pub else (self.key.public_key() if self.key else None)
        self.calls = {}
        if alg in RSA or alg in RSA_PSS:
            pre = s.utils.Prehashed(s.hashes.SHA256())
            if alg in RSA:
                pad, name = s.padding.PKCS1v15(), "PKCS1v15()"
            else:
                pad, name = s.padding.PSS(mgf=s.padding.MGF1(s.hashes.SHA256()), salt_length=32), "PSS(MGF1(SHA256()), 32)"
            self.signature(s, lambda m: self.key.sign(m, pad, pre), lambda sig, m: self.pub.verify(sig, m, pad, pre),
                           f"{{}}(digest, {name}, Prehashed(SHA256()))")
            self.public = lambda: _be(self.pub.public_numbers().n)
        elif alg in ECDSA:
            h = {32: s.hashes.SHA256, 48: s.hashes.SHA384, 64: s.hashes.SHA512}[ECDSA[alg]]
            algo = s.ec.ECDSA(s.utils.Prehashed(h()))
            self.signature(s, lambda m: self.key.sign(m, algo), lambda sig, m: self.pub.verify(sig, m, algo),
                           f"{{}}(digest, ECDSA(Prehashed({h.name.upper()}())))")
            self.public = self.x962
            curve = self.pub.curve
            self.generate = lambda: s.ec.generate_private_key(curve)
        elif alg in ("ed25519", "ed448") or alg in MLDSA:
            self.signature(s, self.key.sign if self.key else None, self.pub.verify if self.pub else None, "{}(msg)")
            self.public = self.raw
            if alg in ("ed25519", "ed448"):
                self.generate = _eddsa_class(alg).generate
        elif alg in ("x25519", "x448") or alg in ECDH:
            if alg in ECDH:
                ecdh = s.ec.ECDH()
                self.derive = lambda: self.key.exchange(ecdh, self.pub)
                self.calls["derive"] = "exchange(ECDH(), peer)"
                self.public = lambda: self.key.public_key().public_bytes(s.ser.Encoding.X962, s.ser.PublicFormat.UncompressedPoint)
            else:
                self.derive = lambda: self.key.exchange(self.pub)
                self.calls["derive"] = "exchange(peer)"
                self.public = lambda: self.key.public_key().public_bytes(s.ser.Encoding.Raw, s.ser.PublicFormat.Raw)
        elif alg in MLKEM:
            self.public = self.raw

            def encaps():
                ss, ct = self.pub.encapsulate()
                return ct, ss

            self.encaps = encaps
            self.decaps = self.key.decapsulate if self.key else None
            self.calls.update(encaps="encapsulate()", decaps="decapsulate(ct)")
        if hasattr(self, "generate"):
            self.calls["keygen"] = "generate_private_key(curve)" if alg in ECDSA else "generate()"

    def signature(self, s, sign, verify, name):
        invalid = s.InvalidSignature
        self.sign = sign

        def check(m, sig):
            try:
                verify(sig, m)
                return True
            except invalid:
                return False

        self.verify = check
        self.calls.update(sign=name.format("sign"), verify=name.format("verify"))

    def x962(self, pub=None):
        from cryptography.hazmat.primitives import serialization as ser

        return (pub or self.pub).public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)

    def raw(self, pub=None):
        from cryptography.hazmat.primitives import serialization as ser

        return (pub or self.pub).public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)

    def has(self, op):
        return op in self.calls

    def once(self, op, in1, in2):
        if op == "public" and hasattr(self, "public"):
            return [self.public()]
        if not self.has(op):
            raise Unsupported(f"{self.alg} {op} cells (not in the driver for cryptography)")
        if op == "sign":
            return [self.sign(in1)]
        if op == "verify":
            return [b"\x01" if self.verify(in1, in2) else b"\x00"]
        if op == "derive":
            return [self.derive()]
        if op == "encaps":
            return list(self.encaps())
        try:
            return [self.decaps(in1)]
        except ValueError:
            raise AuthFailed()


def _eddsa_class(alg):
    if alg == "ed25519":
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey as cls
    else:
        from cryptography.hazmat.primitives.asymmetric.ed448 import Ed448PrivateKey as cls
    return cls


def _be(n):
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


class PkCell(Prim):
    """A timed public-key cell: one operation per iteration on the keys
    imported when it was prepared; verify and decaps check the prepared
    signature or ciphertext. The message is passed as bytes (made once per
    load, outside the timing), since pyca takes bytes-like objects."""

    def __init__(self, ops, op, prepared):
        super().__init__()
        if not ops.has(op):
            raise Unsupported(f"{ops.alg} {op} cells (not in the driver for cryptography)")
        self.ops, self.op, self.prepared = ops, op, prepared
        self.call = ops.calls[op]
        self.ss = b""

    def loaded(self):
        self.data = bytes(self.msg)

    def run(self, n):
        o, m, prepared, op = self.ops, self.data, self.prepared, self.op
        out = None
        if op == "sign":
            sign = o.sign
            for _ in itertools.repeat(None, n):
                out = sign(m)
        elif op == "verify":
            verify = o.verify
            for _ in itertools.repeat(None, n):
                if not verify(m, prepared):
                    raise ValueError("a genuine signature did not verify")
            out = prepared
        elif op == "derive":
            derive = o.derive
            for _ in itertools.repeat(None, n):
                out = derive()
        elif op == "keygen":
            generate = o.generate
            for _ in itertools.repeat(None, n):
                key = generate()
            out = o.public(key.public_key())
        elif op == "encaps":
            encaps = o.encaps
            for _ in itertools.repeat(None, n):
                ct, ss = encaps()
            out = ct + ss
        else:
            decaps = o.decaps
            for _ in itertools.repeat(None, n):
                ss = decaps(prepared)
            out = prepared + ss
        self.out = out
