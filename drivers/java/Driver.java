// cryptobench driver for Java's JCA: javax.crypto.Cipher and java.security.MessageDigest.
//
// Compiled with javac and started by cryptobench's runtime backend
// (crates/backends/src/runtime/java.rs) as `java -cp DIR Driver`, it speaks
// the pipe protocol of docs/ARCHITECTURE.md ("Runtime drivers") on stdin and
// stdout: one ASCII header line per request, then the raw bytes it
// announces. It holds no test vectors: the Rust side verifies every call it
// forwards.
//
// Timed loops run here and time themselves with System.nanoTime, the
// thread's CPU clock (ThreadMXBean) and the process's (every thread's, the
// garbage collector and JIT compiler included). Results go to arrays held in
// fields, so the JIT cannot drop a call. Calls per mode: docs/METHOD.md.

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.HashMap;
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

public final class Driver {
    static final int PROTOCOL = 1;

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

    // --- timed cells -------------------------------------------------------------
    // Two arrays of the message length plus 16 bytes; each call reads one and
    // writes the other (JCE copies its input first when both are one array),
    // so each call's result is the next call's input, as in-place encryption
    // is in the C backends.

    abstract static class Cell {
        byte[] a = new byte[0], b = new byte[0];
        int len = -1;
        int fixed = -1;
        String call;

        void load(byte[] data) throws Exception {
            if (fixed >= 0 && data.length != fixed)
                throw new IllegalArgumentException("the buffer has " + data.length + " bytes, the prepared message " + fixed);
            if (data.length != len) {
                len = data.length;
                a = new byte[len + 16];
                b = new byte[len + 16];
            }
            System.arraycopy(data, 0, a, 0, len);
        }

        void swap() {
            byte[] t = a;
            a = b;
            b = t;
        }

        abstract void run(long n) throws Exception;

        byte[] result() {
            return java.util.Arrays.copyOf(a, len);
        }

        byte[] output() throws Exception {
            return null;
        }
    }

    /** The nonces of an encrypting message cell whose cipher refuses one key and nonce twice
     *  in a row: message i of a run uses the IV with i XORed into its last 8 bytes, so every
     *  run starts from the IV itself (the message the timed-path check verifies). Between
     *  runs, outside the timing, the cipher is initialised once with a nonce no message uses. */
    static final class Nonces {
        final String alg;
        final byte[] iv, nonce;
        long next;

        Nonces(String alg, byte[] iv) {
            this.alg = alg;
            this.iv = iv;
            this.nonce = iv.clone();
        }

        AlgorithmParameterSpec spec(long i) {
            for (int j = 0; j < 8; j++) nonce[nonce.length - 1 - j] = (byte) (iv[iv.length - 1 - j] ^ (i >>> (8 * j)));
            return params(alg, nonce);
        }

        AlgorithmParameterSpec nextSpec() {
            return spec(next++);
        }

        void restart(Cipher c, SecretKeySpec key) throws Exception {
            if (next == 0) return;
            c.init(Cipher.ENCRYPT_MODE, key, spec(-1L));
            next = 0;
        }
    }

    /** AEAD message: init with this message's nonce, AAD, doFinal (ciphertext and tag). */
    static final class AeadEncrypt extends Cell {
        final Cipher c;
        final String alg;
        final byte[] k, iv, aad;
        final boolean rekey;
        final Nonces nonces;
        SecretKeySpec key;

        AeadEncrypt(String alg, byte[] k, byte[] iv, byte[] aad, boolean rekey) throws Exception {
            this.alg = alg;
            this.k = k;
            this.iv = iv;
            this.aad = aad;
            this.rekey = rekey;
            this.nonces = new Nonces(alg, iv);
            this.key = key(alg, k);
            this.c = Cipher.getInstance(transformation(alg));
            call = "Cipher.init(ENCRYPT_MODE, key, " + (alg.endsWith("-gcm") ? "new GCMParameterSpec" : "new IvParameterSpec")
                    + "(nonce)) + updateAAD + doFinal per message" + (rekey ? REKEY : " (the key is kept)")
                    + "; the nonce changes per message (JCE refuses to encrypt twice under one key and nonce)";
        }

        @Override
        void load(byte[] data) throws Exception {
            super.load(data);
            // A --rekey cell's messages each have a new Cipher, which remembers no nonce.
            if (rekey) nonces.next = 0;
            else nonces.restart(c, key);
        }

        @Override
        void run(long n) throws Exception {
            for (long i = 0; i < n; i++) {
                Cipher cc = rekey ? fresh(c, alg) : c;
                cc.init(Cipher.ENCRYPT_MODE, rekey ? key(alg, k) : key, nonces.nextSpec());
                cc.updateAAD(aad);
                cc.doFinal(a, 0, len, b, 0);
                swap();
            }
        }

        @Override
        byte[] output() {
            return java.util.Arrays.copyOfRange(a, len, len + 16);
        }
    }

    /** AEAD message decryption of the prepared ciphertext and tag into the buffer. */
    static final class AeadDecrypt extends Cell {
        final Cipher c;
        final String alg;
        final byte[] k, aad;
        /** The prepared message, and for ChaCha20-Poly1305 a second one (see below). */
        final byte[][] sealed;
        final AlgorithmParameterSpec[] specs;
        final boolean rekey;
        final SecretKeySpec key;
        long messages;

        AeadDecrypt(String alg, byte[] k, byte[] iv, byte[] aad, byte[] ct, byte[] tag, boolean rekey) throws Exception {
            this.alg = alg;
            this.k = k;
            this.aad = aad;
            this.rekey = rekey;
            this.fixed = ct.length;
            this.key = key(alg, k);
            this.c = Cipher.getInstance(transformation(alg));
            byte[] first = new byte[ct.length + tag.length];
            System.arraycopy(ct, 0, first, 0, ct.length);
            System.arraycopy(tag, 0, first, ct.length, tag.length);
            String what = "Cipher.init(DECRYPT_MODE, key, spec) + updateAAD + doFinal(ciphertext ‖ tag) per message" + (rekey ? REKEY : " (the key is kept)");
            if (alg.equals("chacha20-poly1305")) {
                // SunJCE's ChaCha20 refuses to be initialised twice in a row with one
                // key and nonce, decrypting too (JDK 17): the driver alternates
                // between the prepared message and the same plaintext sealed under
                // a second nonce (sealed here, outside the timing).
                byte[] plain = decrypt(alg, k, iv, aad, ct, tag);
                byte[] iv2 = iv.clone();
                iv2[iv2.length - 1] ^= 1;
                byte[][] other = encrypt(alg, k, iv2, aad, plain);
                byte[] second = new byte[first.length];
                System.arraycopy(other[0], 0, second, 0, ct.length);
                System.arraycopy(other[1], 0, second, ct.length, tag.length);
                sealed = new byte[][] {first, second};
                specs = new AlgorithmParameterSpec[] {params(alg, iv), params(alg, iv2)};
                what += "; two messages under two nonces in turn (JCE refuses one key and nonce twice in a row)";
            } else {
                sealed = new byte[][] {first};
                specs = new AlgorithmParameterSpec[] {params(alg, iv)};
            }
            call = what;
        }

        @Override
        void run(long n) throws Exception {
            try {
                for (long i = 0; i < n; i++) {
                    int j = (int) (messages++ % sealed.length);
                    Cipher cc = rekey ? fresh(c, alg) : c;
                    cc.init(Cipher.DECRYPT_MODE, rekey ? key(alg, k) : key, specs[j]);
                    cc.updateAAD(aad);
                    cc.doFinal(sealed[j], 0, sealed[j].length, a, 0);
                }
            } catch (AEADBadTagException e) {
                throw new AuthFailed();
            }
        }
    }

    /** `stream`: one initialised Cipher, one update per call. */
    static final class CipherStream extends Cell {
        final Cipher c;
        final boolean wholeBlocks;

        CipherStream(String alg, byte[] k, byte[] iv, boolean encrypt) throws Exception {
            c = Cipher.getInstance(transformation(alg));
            init(c, encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, key(alg, k), params(alg, iv));
            wholeBlocks = alg.endsWith("-gcm");
            call = "Cipher.update(in, 0, n, out, 0) on one initialised object";
        }

        @Override
        void run(long n) throws Exception {
            if (wholeBlocks && len % 16 != 0)
                throw new Unsupported("AES-GCM stream updates of " + len + " bytes (SunJCE's GCM update returns whole 16-byte blocks; the rest waits for doFinal)");
            for (long i = 0; i < n; i++) {
                int out = c.update(a, 0, len, b, 0);
                if (out != len) throw new Unsupported("stream updates of " + len + " bytes (this Cipher returned " + out + ")");
                swap();
            }
        }
    }

    /** Plain-cipher `message`: init with the IV (key kept unless --rekey), doFinal;
     *  decryption decrypts the prepared ciphertext into the buffer. */
    static final class CipherMessage extends Cell {
        final Cipher c;
        final String alg;
        final byte[] k, ct;
        final AlgorithmParameterSpec spec;
        final SecretKeySpec key;
        final int mode;
        final boolean rekey;
        /** ChaCha20: a new nonce per message (SunJCE refuses one key and nonce twice in a row). */
        final Nonces nonces;

        CipherMessage(String alg, byte[] k, byte[] iv, boolean encrypt, boolean rekey, byte[] ct) throws Exception {
            this.alg = alg;
            this.k = k;
            this.ct = ct;
            if (!encrypt) this.fixed = ct.length;
            this.rekey = rekey;
            this.mode = encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
            this.spec = params(alg, iv);
            this.key = key(alg, k);
            this.c = Cipher.getInstance(transformation(alg));
            this.nonces = refusesNonceReuse(alg) ? new Nonces(alg, iv) : null;
            String with = alg.equals("chacha20") ? "ChaCha20ParameterSpec" : alg.endsWith("-ecb") ? "no IV" : "IvParameterSpec";
            call = "Cipher.init(mode, key, " + with + ") + doFinal per message" + (rekey ? REKEY : " (the key is kept)")
                    + (nonces != null ? "; the nonce changes per message (JCE refuses to encrypt twice under one key and nonce)" : "");
        }

        @Override
        void load(byte[] data) throws Exception {
            super.load(data);
            if (nonces != null && rekey) nonces.next = 0;
            else if (nonces != null) nonces.restart(c, key);
        }

        @Override
        void run(long n) throws Exception {
            if (mode == Cipher.DECRYPT_MODE) {
                for (long i = 0; i < n; i++) {
                    Cipher cc = rekey ? fresh(c, alg) : c;
                    init(cc, mode, rekey ? key(alg, k) : key, spec);
                    cc.doFinal(ct, 0, len, a, 0);
                }
                return;
            }
            for (long i = 0; i < n; i++) {
                Cipher cc = rekey ? fresh(c, alg) : c;
                init(cc, mode, rekey ? key(alg, k) : key, nonces != null ? nonces.nextSpec() : spec);
                cc.doFinal(a, 0, len, b, 0);
                swap();
            }
        }
    }

    static final class DigestMessage extends Cell {
        final MessageDigest md;
        final byte[] out;

        DigestMessage(String name) throws Exception {
            md = MessageDigest.getInstance(name);
            out = new byte[md.getDigestLength()];
            call = "MessageDigest.update(buf) + digest(out, 0, n) on one object (JCA has no one-shot digest call)";
        }

        @Override
        void run(long n) throws Exception {
            for (long i = 0; i < n; i++) {
                md.update(a, 0, len);
                md.digest(out, 0, out.length);
            }
        }

        @Override
        byte[] output() {
            return out.clone();
        }
    }

    static final class DigestStream extends Cell {
        final MessageDigest md;

        DigestStream(String name) throws Exception {
            md = MessageDigest.getInstance(name);
            call = "MessageDigest.update(buf) on one object";
        }

        @Override
        void run(long n) {
            for (long i = 0; i < n; i++) md.update(a, 0, len);
        }

        @Override
        byte[] output() throws Exception {
            return ((MessageDigest) md.clone()).digest();
        }
    }

    /** MAC `message` under the kept key: update + doFinal(out, 0), which resets the Mac to its keyed state. */
    static final class MacMessage extends Cell {
        final Mac mac;
        final byte[] out;

        MacMessage(String name, byte[] k) throws Exception {
            mac = Mac.getInstance(name);
            mac.init(new SecretKeySpec(k, name));
            out = new byte[mac.getMacLength()];
            call = "Mac.update(buf) + doFinal(out, 0) on one initialised object (doFinal keeps the key)";
        }

        @Override
        void run(long n) throws Exception {
            for (long i = 0; i < n; i++) {
                mac.update(a, 0, len);
                mac.doFinal(out, 0);
            }
        }

        @Override
        byte[] output() {
            return out.clone();
        }
    }

    static final class MacStream extends Cell {
        final Mac mac;

        MacStream(String name, byte[] k) throws Exception {
            mac = Mac.getInstance(name);
            mac.init(new SecretKeySpec(k, name));
            call = "Mac.update(buf) on one initialised object";
        }

        @Override
        void run(long n) {
            for (long i = 0; i < n; i++) mac.update(a, 0, len);
        }

        @Override
        byte[] output() throws Exception {
            return ((Mac) mac.clone()).doFinal();
        }
    }

    static Cell prepare(List<String> offered, String alg, String op, String mode, boolean rekey, int size, byte[] k, byte[] iv,
            byte[] aad, byte[] ct, byte[] tag) throws Exception {
        if (!offered.contains(alg)) throw new Unsupported(alg + " (not offered by this Java's providers)");
        if (mode.equals("stream") && alg.endsWith("-gcm") && size % 16 != 0)
            throw new Unsupported(alg + " stream updates of " + size
                    + " bytes (SunJCE's GCM update returns whole 16-byte blocks; the rest waits for doFinal)");
        Cell cell;
        if (op.equals("mac")) {
            cell = mode.equals("message") ? new MacMessage(MACS.get(alg), k) : new MacStream(MACS.get(alg), k);
        } else if (alg.equals("chacha20") && mode.equals("message") && op.equals("decrypt")) {
            throw new Unsupported(alg + " decryption in message mode (SunJCE refuses one key and nonce twice in a row, decrypting too, and every message must decrypt the prepared one)");
        } else if (op.equals("digest")) {
            cell = mode.equals("message") ? new DigestMessage(DIGESTS.get(alg)) : new DigestStream(DIGESTS.get(alg));
        } else if (isAead(alg) && mode.equals("message")) {
            cell = op.equals("encrypt") ? new AeadEncrypt(alg, k, iv, aad, rekey) : new AeadDecrypt(alg, k, iv, aad, ct, tag, rekey);
        } else if (isAead(alg) && op.equals("decrypt")) {
            throw new Unsupported(alg + " decryption in stream mode (SunJCE holds AEAD plaintext until doFinal has verified the tag)");
        } else if (mode.equals("stream")) {
            cell = new CipherStream(alg, k, iv, op.equals("encrypt"));
        } else {
            cell = new CipherMessage(alg, k, iv, op.equals("encrypt"), rekey, ct);
        }
        cell.call = cell.call + " [" + provider(alg) + "]";
        return cell;
    }

    // --- self-description ----------------------------------------------------------

    static String hotspotFlags() {
        StringBuilder sb = new StringBuilder("HotSpot:");
        try {
            com.sun.management.HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            String[] flags = {"UseAES", "UseAESIntrinsics", "UseAESCTRIntrinsics", "UseGHASHIntrinsics", "UseMD5Intrinsics",
                "UseSHA1Intrinsics", "UseSHA256Intrinsics", "UseSHA512Intrinsics", "UseSHA3Intrinsics", "UseChaCha20Intrinsics",
                "UsePoly1305Intrinsics"};
            for (String f : flags) {
                try {
                    String value = bean.getVMOption(f).getValue();
                    if (!value.isEmpty()) sb.append(' ').append(f).append('=').append(value);
                } catch (IllegalArgumentException e) {
                    // this JVM has no such flag
                }
            }
        } catch (Throwable e) {
            return null;
        }
        return sb.toString();
    }

    static Map<String, String> info(List<String> offered) {
        String home = System.getProperty("java.home");
        String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        java.io.File libjvm = new java.io.File(home, "lib/server/libjvm.so");
        Map<String, String> m = new LinkedHashMap<>();
        String cipherProvider = provider("aes-128-gcm");
        String digestProvider = provider("sha256");
        m.put("name", "Java JCA");
        // "Java JCA 17.0.15 …": reports label it by the first number after its name.
        m.put("version", "Java JCA " + System.getProperty("java.version") + " (" + jvm + "), " + cipherProvider + " (ciphers), "
                + digestProvider + " (digests)");
        m.put("runtime", jvm + " (" + System.getProperty("java.vendor") + ")");
        m.put("binding", "javax.crypto.Cipher, javax.crypto.Mac, java.security.MessageDigest");
        m.put("underneath", "the " + cipherProvider + " and " + digestProvider + " providers: Java code, compiled by HotSpot with its crypto intrinsics; no C library");
        m.put("library_path", libjvm.exists() ? libjvm.getPath() : home);
        m.put("java_home", home);
        for (String a : offered) m.put("provider." + a, provider(a));
        String cpu = hotspotFlags();
        if (cpu != null) m.put("cpu", cpu);
        m.put("algorithms", String.join(",", offered));
        return m;
    }

    // --- the protocol ------------------------------------------------------------

    final DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
    final OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    final boolean cpuClock = threads.isCurrentThreadCpuTimeSupported();

    String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (;;) {
            int c = in.read();
            if (c < 0) return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
            if (c == '\n') return line.toString(StandardCharsets.ISO_8859_1);
            line.write(c);
        }
    }

    byte[][] blobs(String[] lengths) throws IOException {
        byte[][] out = new byte[lengths.length][];
        for (int i = 0; i < lengths.length; i++) {
            out[i] = new byte[Integer.parseInt(lengths[i])];
            in.readFully(out[i]);
        }
        return out;
    }

    void send(String header, byte[]... blobs) throws IOException {
        out.write((header + "\n").getBytes(StandardCharsets.ISO_8859_1));
        for (byte[] b : blobs) out.write(b);
        out.flush();
    }

    static String oneLine(Object text) {
        String s = String.valueOf(text).trim().replaceAll("\\s+", " ");
        return s.isEmpty() ? "no message" : s;
    }

    static String[] slice(String[] a, int from, int to) {
        return java.util.Arrays.copyOfRange(a, from, to);
    }

    void serve() throws IOException {
        List<String> offered = offered();
        Map<String, Cell> cells = new HashMap<>();
        for (;;) {
            String line = readLine();
            if (line == null) return;
            String[] w = line.trim().split(" ");
            if (w[0].isEmpty()) continue;
            String verb = w[0];
            try {
                switch (verb) {
                    case "run": {
                        long n = Long.parseLong(w[2]);
                        byte[] data = blobs(slice(w, 3, 4))[0];
                        Cell cell = cells.get(w[1]);
                        cell.load(data);
                        long c0 = cpuClock ? threads.getCurrentThreadCpuTime() : -1;
                        long p0 = processCpuNanos();
                        long t0 = System.nanoTime();
                        cell.run(n);
                        long t1 = System.nanoTime();
                        long c1 = cpuClock ? threads.getCurrentThreadCpuTime() : -1;
                        long p1 = processCpuNanos();
                        // The thread's CPU time and the process's (work on other threads shows as the difference).
                        send("ok " + (t1 - t0) + " " + (cpuClock ? Long.toString(c1 - c0) : "-") + " " + (p0 >= 0 && p1 >= 0 ? Long.toString(p1 - p0) : "-"),
                                cell.result());
                        break;
                    }
                    case "output": {
                        byte[] o = cells.get(w[1]).output();
                        if (o == null) send("none");
                        else send("ok " + o.length, o);
                        break;
                    }
                    case "prepare": {
                        byte[][] b = blobs(slice(w, 7, 12));
                        Cell cell = prepare(offered, w[2], w[3], w[4], w[5].equals("1"), Integer.parseInt(w[6]), b[0], b[1], b[2], b[3], b[4]);
                        cells.put(w[1], cell);
                        byte[] call = cell.call.getBytes(StandardCharsets.UTF_8);
                        // Every cell keeps its key across messages: the second number is 0.
                        send("ok " + call.length + " 0", call);
                        break;
                    }
                    case "free":
                        cells.remove(w[1]);
                        send("ok");
                        break;
                    case "encrypt": {
                        byte[][] b = blobs(slice(w, 2, 6));
                        if (!offered.contains(w[1]) || DIGESTS.containsKey(w[1]) || MACS.containsKey(w[1])) throw new Unsupported(w[1] + " (not offered by this Java's providers)");
                        byte[][] r = encrypt(w[1], b[0], b[1], b[2], b[3]);
                        send("ok " + r[0].length + " " + r[1].length, r[0], r[1]);
                        break;
                    }
                    case "decrypt": {
                        byte[][] b = blobs(slice(w, 2, 7));
                        if (!offered.contains(w[1]) || DIGESTS.containsKey(w[1]) || MACS.containsKey(w[1])) throw new Unsupported(w[1] + " (not offered by this Java's providers)");
                        byte[] pt = decrypt(w[1], b[0], b[1], b[2], b[3], b[4]);
                        send("ok " + pt.length, pt);
                        break;
                    }
                    case "mac": {
                        byte[][] b = blobs(slice(w, 2, 4));
                        if (!offered.contains(w[1]) || !MACS.containsKey(w[1])) throw new Unsupported(w[1] + " (not offered by this Java's providers)");
                        byte[] t = mac(w[1], b[0], b[1]);
                        send("ok " + t.length, t);
                        break;
                    }
                    case "digest": {
                        byte[] msg = blobs(slice(w, 2, 3))[0];
                        if (!offered.contains(w[1]) || !DIGESTS.containsKey(w[1])) throw new Unsupported(w[1] + " (not offered by this Java's providers)");
                        byte[] d = MessageDigest.getInstance(DIGESTS.get(w[1])).digest(msg);
                        send("ok " + d.length, d);
                        break;
                    }
                    case "info": {
                        StringBuilder sb = new StringBuilder();
                        for (Map.Entry<String, String> e : info(offered).entrySet())
                            sb.append(e.getKey()).append('=').append(oneLine(e.getValue())).append('\n');
                        byte[] text = sb.toString().getBytes(StandardCharsets.UTF_8);
                        send("ok " + text.length, text);
                        break;
                    }
                    default:
                        send("err unknown request " + verb);
                }
            } catch (EOFException e) {
                return;
            } catch (Unsupported e) {
                send("unsupported " + oneLine(e.getMessage()));
            } catch (AuthFailed e) {
                send("auth");
            } catch (Exception e) {
                send("err " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
            }
        }
    }

    public static void main(String[] args) throws IOException {
        Driver d = new Driver();
        d.send("hello " + PROTOCOL);
        d.serve();
    }
}
