// Public key in cryptobench's Java driver (Driver.java). The seeded keys
// arrive as PKCS#8 (private) and SubjectPublicKeyInfo (public) DER
// (crates/backends/src/libraries/runtime/pk_keys.rs) and become JCA keys
// once, outside the timing. RSA PKCS#1 v1.5 and ECDSA sign the cell's
// message as a precomputed digest: NONEwithRSA over DigestInfo ‖ digest
// (RFC 8017 §9.2: the same bytes as SHA256withRSA's signature) and
// NONEwithECDSA; EdDSA signs the message itself; XDH and ECDH are
// KeyAgreement.

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.KeyAgreement;

final class PkCells extends Catalog {
    private PkCells() {}

    /** DER of DigestInfo for SHA-256 before the digest (RFC 8017 §9.2, note 1). */
    static final byte[] SHA256_DIGEST_INFO = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, (byte) 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
        0x01, 0x05, 0x00, 0x04, 0x20};

    static final List<String> RSA = List.of("rsa2048", "rsa3072", "rsa4096");
    static final Map<String, String> ECDSA = Map.of("ecdsap256", "secp256r1", "ecdsap384", "secp384r1", "ecdsap521", "secp521r1");
    static final Map<String, String> EDDSA = Map.of("ed25519", "Ed25519", "ed448", "Ed448");
    static final Map<String, String> XDH = Map.of("x25519", "X25519", "x448", "X448");
    static final List<String> ECDH = List.of("ecdhp256", "ecdhp384");

    static final String PREHASHED = "Java's RSASSA-PSS Signature hashes the message itself: it takes no precomputed digest, which this cell signs";

    /** Why this Java has no cell of an algorithm of the catalog. */
    static final Map<String, String> MISSING = new TreeMap<>();
    static final List<String> OFFERED = offered();

    static boolean works(String signatureOrAgreement, boolean agreement) {
        try {
            if (agreement) KeyAgreement.getInstance(signatureOrAgreement);
            else Signature.getInstance(signatureOrAgreement);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    static List<String> offered() {
        List<String> out = new ArrayList<>();
        String java = "Java " + System.getProperty("java.version");
        for (String a : RSA) {
            if (works("NONEwithRSA", false)) out.add(a);
            else MISSING.put(a, java + " has no NONEwithRSA Signature");
            MISSING.put(a + "-pss", PREHASHED);
            MISSING.put(a + "-oaep", "RSA-OAEP is not in the Java driver");
        }
        for (String a : ECDSA.keySet()) {
            if (works("NONEwithECDSA", false)) out.add(a);
            else MISSING.put(a, java + " has no NONEwithECDSA Signature");
        }
        for (Map.Entry<String, String> e : EDDSA.entrySet()) {
            if (works(e.getValue(), false)) out.add(e.getKey());
            else MISSING.put(e.getKey(), java + " has no " + e.getValue() + " Signature (JDK 15+)");
        }
        for (Map.Entry<String, String> e : XDH.entrySet()) {
            if (works(e.getValue(), true)) out.add(e.getKey());
            else MISSING.put(e.getKey(), java + " has no " + e.getValue() + " KeyAgreement (JDK 11+)");
        }
        for (String a : ECDH) {
            if (works("ECDH", true)) out.add(a);
            else MISSING.put(a, java + " has no ECDH KeyAgreement");
        }
        boolean kem = has("KEM", "ML-KEM");
        for (String a : List.of("mlkem512", "mlkem768", "mlkem1024"))
            MISSING.put(a, kem ? "ML-KEM is not in the Java driver" : java + " has no ML-KEM (JDK 24+, JEP 496)");
        boolean dsa = has("Signature", "ML-DSA");
        for (String a : List.of("mldsa44", "mldsa65", "mldsa87"))
            MISSING.put(a, dsa ? "ML-DSA is not in the Java driver" : java + " has no ML-DSA (JDK 24+, JEP 497)");
        for (String a : List.of("slhdsa-sha2-128s", "slhdsa-sha2-128f", "slhdsa-shake-128f")) MISSING.put(a, java + " has no SLH-DSA");
        return out;
    }

    static boolean has(String service, String name) {
        return java.security.Security.getProviders(service + "." + name) != null;
    }

    static String notOffered() {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> e : MISSING.entrySet()) parts.add(e.getKey() + ": " + e.getValue());
        return String.join("; ", parts);
    }

    /** The provider of each offered algorithm's calls ("SunEC 17"). */
    static Map<String, String> providers() {
        Map<String, String> out = new TreeMap<>();
        for (String a : OFFERED) {
            try {
                java.security.Provider p = XDH.containsKey(a) || ECDH.contains(a)
                        ? KeyAgreement.getInstance(XDH.containsKey(a) ? XDH.get(a) : "ECDH").getProvider()
                        : Signature.getInstance(RSA.contains(a) ? "NONEwithRSA" : ECDSA.containsKey(a) ? "NONEwithECDSA" : EDDSA.get(a)).getProvider();
                out.put(a, p.getName() + " " + p.getVersionStr());
            } catch (Exception e) {
                out.put(a, "unknown (" + e.getMessage() + ")");
            }
        }
        return out;
    }

    static boolean isPk(String alg) {
        return OFFERED.contains(alg) || MISSING.containsKey(alg);
    }

    /** The JCA key algorithm of a catalog id. */
    static String keyAlgorithm(String alg) {
        if (RSA.contains(alg)) return "RSA";
        if (EDDSA.containsKey(alg)) return EDDSA.get(alg);
        if (XDH.containsKey(alg)) return XDH.get(alg);
        return "EC";
    }

    static byte[] unsigned(BigInteger v, int len) {
        byte[] b = v.toByteArray();
        if (len <= 0) len = b[0] == 0 && b.length > 1 ? b.length - 1 : b.length;
        byte[] out = new byte[len];
        int n = Math.min(len, b.length);
        System.arraycopy(b, b.length - n, out, len - n, n);
        return out;
    }

    /** A SecureRandom that returns one seed: the key pair generators of
     *  EdDSA and XDH take their private key from it, so that the pair's
     *  public key is the seed's (JCA computes none from a private key). */
    static final class Seeded extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] seed;

        Seeded(byte[] seed) {
            this.seed = seed;
        }

        @Override
        public void nextBytes(byte[] out) {
            if (out.length != seed.length) throw new IllegalStateException("asked for " + out.length + " bytes, the seed has " + seed.length);
            System.arraycopy(seed, 0, out, 0, out.length);
        }
    }

    /** One algorithm's calls on imported keys; `calls` names each operation's JCA call. */
    static final class PkOps {
        final String alg;
        final PrivateKey key;
        final PublicKey pub;
        final byte[] privateDer;
        Signature signer, verifier;
        KeyAgreement agreement;
        final Map<String, String> calls = new TreeMap<>();

        PkOps(String alg, byte[] priv, byte[] pubDer) throws Exception {
            if (!OFFERED.contains(alg)) {
                String why = MISSING.get(alg);
                throw new Unsupported(why != null ? alg + ": " + why : alg + " (not offered by this Java's providers)");
            }
            this.alg = alg;
            this.privateDer = priv;
            KeyFactory kf = KeyFactory.getInstance(keyAlgorithm(alg));
            key = priv.length > 0 ? kf.generatePrivate(new PKCS8EncodedKeySpec(priv)) : null;
            pub = pubDer.length > 0 ? kf.generatePublic(new X509EncodedKeySpec(pubDer)) : null;
            String sig = RSA.contains(alg) ? "NONEwithRSA" : ECDSA.containsKey(alg) ? "NONEwithECDSA" : EDDSA.get(alg);
            if (sig != null) {
                if (key != null) {
                    signer = Signature.getInstance(sig);
                    signer.initSign(key);
                }
                if (pub != null) {
                    verifier = Signature.getInstance(sig);
                    verifier.initVerify(pub);
                }
                String what = RSA.contains(alg) ? "DigestInfo(SHA-256) ‖ digest" : ECDSA.containsKey(alg) ? "digest" : "msg";
                String provider = Signature.getInstance(sig).getProvider().getName();
                calls.put("sign", "Signature " + sig + " [" + provider + "]: update(" + what + ") + sign()");
                calls.put("verify", "Signature " + sig + " [" + provider + "]: update(" + what + ") + verify(sig)");
            } else if (key != null && pub != null) {
                agreement = KeyAgreement.getInstance(XDH.containsKey(alg) ? XDH.get(alg) : "ECDH");
                calls.put("derive", "KeyAgreement " + agreement.getAlgorithm() + " [" + agreement.getProvider().getName()
                        + "]: init(key) + doPhase(peer, true) + generateSecret()");
            }
        }

        byte[] input(byte[] m) {
            if (!RSA.contains(alg)) return m;
            byte[] out = Arrays.copyOf(SHA256_DIGEST_INFO, SHA256_DIGEST_INFO.length + m.length);
            System.arraycopy(m, 0, out, SHA256_DIGEST_INFO.length, m.length);
            return out;
        }

        byte[] sign(byte[] m) throws Exception {
            signer.update(m);
            return signer.sign();
        }

        boolean verify(byte[] m, byte[] sig) throws Exception {
            verifier.update(m);
            try {
                return verifier.verify(sig);
            } catch (java.security.SignatureException e) {
                verifier.initVerify(pub); // a fresh state: the failed call may have kept the message
                return false; // a malformed signature (a wrong length, SunEC's DER parser)
            }
        }

        byte[] derive() throws Exception {
            agreement.init(key);
            agreement.doPhase(pub, true);
            return agreement.generateSecret();
        }

        byte[] publicKey() throws Exception {
            if (key instanceof RSAPrivateCrtKey) return unsigned(((RSAPrivateCrtKey) key).getModulus(), 0);
            PublicKey p = pub;
            if (p == null && key != null && (EDDSA.containsKey(alg) || XDH.containsKey(alg))) {
                // PKCS#8 of RFC 8410: the seed is the last bytes, after a 16-byte header.
                byte[] seed = Arrays.copyOfRange(privateDer, 16, privateDer.length);
                KeyPairGenerator g = KeyPairGenerator.getInstance(keyAlgorithm(alg));
                g.initialize(new NamedParameterSpec(keyAlgorithm(alg)), new Seeded(seed));
                KeyPair pair = g.generateKeyPair();
                p = pair.getPublic();
            }
            if (p == null) throw new Unsupported(alg + " public key from the private key (JCA computes none for EC keys)");
            if (p instanceof RSAPublicKey) return unsigned(((RSAPublicKey) p).getModulus(), 0);
            if (p instanceof ECPublicKey) {
                ECPublicKey e = (ECPublicKey) p;
                int n = (e.getParams().getCurve().getField().getFieldSize() + 7) / 8;
                byte[] out = new byte[1 + 2 * n];
                out[0] = 4;
                System.arraycopy(unsigned(e.getW().getAffineX(), n), 0, out, 1, n);
                System.arraycopy(unsigned(e.getW().getAffineY(), n), 0, out, 1 + n, n);
                return out;
            }
            byte[] spki = p.getEncoded(); // RFC 8410: a 12-byte header, then the raw key
            return Arrays.copyOfRange(spki, 12, spki.length);
        }

        boolean has(String op) {
            switch (op) {
                case "sign": return signer != null;
                case "verify": return verifier != null;
                case "derive": return agreement != null;
                default: return false;
            }
        }

        /** One `pk` request: the reply's blobs. */
        byte[][] once(String op, byte[] in1, byte[] in2) throws Exception {
            if (op.equals("public")) return new byte[][] {publicKey()};
            if (!has(op)) throw new Unsupported(alg + " " + op + " cells (not in the Java driver)");
            switch (op) {
                case "sign": return new byte[][] {sign(input(in1))};
                case "verify": return new byte[][] {{(byte) (verify(input(in1), in2) ? 1 : 0)}};
                default: return new byte[][] {derive()};
            }
        }
    }

    /** A timed public-key cell: one operation per iteration on the JCA
     *  objects made when it was prepared; verify checks the prepared signature. */
    static final class PkCell extends Cells.Cell {
        final PkOps ops;
        final String op;
        final byte[] prepared;
        byte[] in, out;

        PkCell(PkOps ops, String op, byte[] prepared) throws Exception {
            if (!ops.has(op)) throw new Unsupported(ops.alg + " " + op + " cells (not in the Java driver)");
            this.ops = ops;
            this.op = op;
            this.prepared = prepared;
            this.call = ops.calls.get(op);
        }

        @Override
        void load(byte[] data) throws Exception {
            super.load(data);
            // RSA's DigestInfo prefix is added here, outside the timing.
            in = ops.input(data);
        }

        @Override
        void run(long n) throws Exception {
            PkOps o = ops;
            byte[] m = in, r = null;
            switch (op) {
                case "sign":
                    for (long i = 0; i < n; i++) r = o.sign(m);
                    break;
                case "verify":
                    for (long i = 0; i < n; i++)
                        if (!o.verify(m, prepared)) throw new IllegalStateException("a genuine signature did not verify");
                    r = prepared;
                    break;
                default:
                    for (long i = 0; i < n; i++) r = o.derive();
            }
            out = r;
        }

        @Override
        byte[] output() {
            return out;
        }
    }
}
