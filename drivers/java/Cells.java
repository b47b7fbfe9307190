// Timed cells of cryptobench's Java driver (Driver.java): one class per kind
// of work, each keeping its Cipher, MessageDigest or Mac across calls where
// JCA allows it (docs/METHOD.md).

import java.security.MessageDigest;
import java.security.spec.AlgorithmParameterSpec;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

final class Cells extends Catalog {
    private Cells() {}

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
            byte[] plain = null;
            if (alg.equals("chacha20-poly1305")) {
                try {
                    plain = decrypt(alg, k, iv, aad, ct, tag);
                } catch (AuthFailed e) {
                    // A prepared message that does not verify (the tamper checks): the
                    // timed loop must reject it, so it is timed alone.
                }
            }
            if (plain != null) {
                // SunJCE's ChaCha20 refuses to be initialised twice in a row with one
                // key and nonce, decrypting too (JDK 17): the driver alternates
                // between the prepared message and the same plaintext sealed under
                // a second nonce (sealed here, outside the timing).
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
}
