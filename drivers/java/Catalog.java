// The catalog's names in JCA, the helpers every cell uses, and the one-shot
// calls the Rust side verifies before timing (cryptobench's Java driver,
// Driver.java). The driver's classes extend it, so its statics read unqualified.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

class Catalog {
        /** The binding has no call for this cell: cryptobench reports it n/a. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;
        Unsupported(String what) { super(what); }
    }

    /** An AEAD tag did not verify. */
    static final class AuthFailed extends Exception {
        private static final long serialVersionUID = 1L;
    }

    // --- the catalog's names in JCA -------------------------------------------

    static final String[] AEADS = {"aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "chacha20-poly1305"};
    static final String[] CIPHERS = {"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "aes-128-ctr", "aes-192-ctr", "aes-256-ctr",
        "aes-128-ecb", "aes-192-ecb", "aes-256-ecb", "chacha20"};
    static final Map<String, String> DIGESTS = new LinkedHashMap<>();
    static final Map<String, String> MACS = new LinkedHashMap<>();
    static {
        MACS.put("hmac-md5", "HmacMD5");
        MACS.put("hmac-sha1", "HmacSHA1");
        MACS.put("hmac-sha256", "HmacSHA256");
        MACS.put("hmac-sha512", "HmacSHA512");
        DIGESTS.put("md5", "MD5");
        DIGESTS.put("sha1", "SHA-1");
        DIGESTS.put("sha224", "SHA-224");
        DIGESTS.put("sha256", "SHA-256");
        DIGESTS.put("sha384", "SHA-384");
        DIGESTS.put("sha512", "SHA-512");
        DIGESTS.put("sha3-224", "SHA3-224");
        DIGESTS.put("sha3-256", "SHA3-256");
        DIGESTS.put("sha3-384", "SHA3-384");
        DIGESTS.put("sha3-512", "SHA3-512");
    }

    static boolean isAead(String alg) {
        for (String a : AEADS) if (a.equals(alg)) return true;
        return false;
    }

    static boolean isCipher(String alg) {
        for (String a : CIPHERS) if (a.equals(alg)) return true;
        return false;
    }

    static String transformation(String alg) {
        if (alg.equals("chacha20-poly1305")) return "ChaCha20-Poly1305";
        if (alg.equals("chacha20")) return "ChaCha20";
        if (alg.endsWith("-gcm")) return "AES/GCM/NoPadding";
        if (alg.endsWith("-cbc")) return "AES/CBC/NoPadding";
        if (alg.endsWith("-ecb")) return "AES/ECB/NoPadding";
        return "AES/CTR/NoPadding";
    }

    static SecretKeySpec key(String alg, byte[] key) {
        return new SecretKeySpec(key, alg.startsWith("chacha20") ? "ChaCha20" : "AES");
    }

    /** ChaCha20 alone: the catalog's 16-byte IV is the 32-bit little-endian block counter, then the nonce. */
    static AlgorithmParameterSpec params(String alg, byte[] iv) {
        if (alg.endsWith("-ecb")) return null;
        if (alg.equals("chacha20")) {
            int counter = (iv[0] & 0xff) | (iv[1] & 0xff) << 8 | (iv[2] & 0xff) << 16 | (iv[3] & 0xff) << 24;
            return new ChaCha20ParameterSpec(java.util.Arrays.copyOfRange(iv, 4, 16), counter);
        }
        return alg.endsWith("-gcm") ? new GCMParameterSpec(128, iv) : new IvParameterSpec(iv);
    }

    static void init(Cipher c, int mode, SecretKeySpec key, AlgorithmParameterSpec spec) throws Exception {
        if (spec == null) c.init(mode, key);
        else c.init(mode, key, spec);
    }

    /** What a `--rekey` cell does per message: SunJCE's AES keeps a Cipher's expanded key
     *  while the key's bytes stay the same (a new SecretKeySpec of the same bytes sets no
     *  key), so only a new Cipher sets the key again, as a program with a new key would. */
    static final String REKEY = ", a new Cipher of the same provider and a new SecretKeySpec per message"
            + " (SunJCE keeps a Cipher's expanded key while the key's bytes are the same: only a new Cipher sets the key again)";

    static Cipher fresh(Cipher prepared, String alg) throws Exception {
        return Cipher.getInstance(transformation(alg), prepared.getProvider());
    }

    /** The CPU time of the whole process in ns, every thread's (HotSpot's garbage collector and
     *  JIT compiler threads included): the first field of /proc/self/task/<tid>/schedstat summed,
     *  the time each thread spent on a CPU (Linux, Documentation/scheduler/sched-stats.rst);
     *  -1 elsewhere. (OperatingSystemMXBean.getProcessCpuTime counts clock ticks of 10 ms.)
     *  Read right after the thread's own clock, which brings the calling thread's up to date. */
    static long processCpuNanos() {
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) return -1;
        long sum = 0;
        for (java.io.File t : tasks) {
            try {
                String s = new String(java.nio.file.Files.readAllBytes(new java.io.File(t, "schedstat").toPath()), StandardCharsets.ISO_8859_1);
                sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
            } catch (IOException | RuntimeException e) {
                // A thread that ended between the listing and the read: its time is gone from the sum.
            }
        }
        return sum;
    }

    /** SunJCE refuses to encrypt twice in a row under one key and nonce (GCM, ChaCha20 and
     *  ChaCha20-Poly1305), so a message that must run again takes a new nonce. */
    static boolean refusesNonceReuse(String alg) {
        return alg.endsWith("-gcm") || alg.startsWith("chacha20");
    }

    static String provider(String alg) {
        try {
            if (DIGESTS.containsKey(alg)) {
                java.security.Provider p = MessageDigest.getInstance(DIGESTS.get(alg)).getProvider();
                return p.getName() + " " + p.getVersionStr();
            }
            if (MACS.containsKey(alg)) {
                java.security.Provider p = Mac.getInstance(MACS.get(alg)).getProvider();
                return p.getName() + " " + p.getVersionStr();
            }
            java.security.Provider p = Cipher.getInstance(transformation(alg)).getProvider();
            return p.getName() + " " + p.getVersionStr();
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    static List<String> offered() {
        List<String> out = new ArrayList<>();
        for (String a : AEADS) if (provider(a) != null) out.add(a);
        for (String a : CIPHERS) if (provider(a) != null) out.add(a);
        for (String a : DIGESTS.keySet()) if (provider(a) != null) out.add(a);
        for (String a : MACS.keySet()) if (provider(a) != null) out.add(a);
        return out;
    }

    static byte[] mac(String alg, byte[] k, byte[] msg) throws Exception {
        Mac m = Mac.getInstance(MACS.get(alg));
        m.init(new SecretKeySpec(k, MACS.get(alg)));
        return m.doFinal(msg);
    }

    // --- one-shot calls (verification), each on a fresh object ------------------

    static byte[][] encrypt(String alg, byte[] k, byte[] iv, byte[] aad, byte[] pt) throws Exception {
        Cipher c = Cipher.getInstance(transformation(alg));
        init(c, Cipher.ENCRYPT_MODE, key(alg, k), params(alg, iv));
        if (isAead(alg)) {
            c.updateAAD(aad);
            byte[] sealed = c.doFinal(pt);
            int n = sealed.length - 16;
            return new byte[][] {java.util.Arrays.copyOf(sealed, n), java.util.Arrays.copyOfRange(sealed, n, sealed.length)};
        }
        return new byte[][] {c.doFinal(pt), new byte[0]};
    }

    static byte[] decrypt(String alg, byte[] k, byte[] iv, byte[] aad, byte[] ct, byte[] tag) throws Exception {
        Cipher c = Cipher.getInstance(transformation(alg));
        init(c, Cipher.DECRYPT_MODE, key(alg, k), params(alg, iv));
        if (isAead(alg)) {
            c.updateAAD(aad);
            byte[] sealed = new byte[ct.length + tag.length];
            System.arraycopy(ct, 0, sealed, 0, ct.length);
            System.arraycopy(tag, 0, sealed, ct.length, tag.length);
            try {
                return c.doFinal(sealed);
            } catch (AEADBadTagException e) {
                throw new AuthFailed();
            }
        }
        return c.doFinal(ct);
    }
}
