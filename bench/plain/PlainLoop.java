// Plain loops in Java, outside cryptobench, in the manner of a JMH benchmark
// (warm-up iterations, then measured iterations, results kept in fields): the
// calls the Java driver times (drivers/java/Driver.java), to check its
// figures. Run with `java PlainLoop.java [size] [samples] [warm-up ms]` (JDK
// 11+; fewer samples and less warm-up for a smoke run). Prints
// `java <algorithm> <size> <MB/s by the wall clock> <MB/s by the thread's CPU
// time>`: the medians of 31 samples of about 20 ms after 3 s of warm-up.
//   aes-128-gcm: Cipher.init(ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce i)) + updateAAD + doFinal(a → b)
//   sha256:      MessageDigest.update(buf) + digest(out, 0, 32)

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public class PlainLoop {
    interface Loop { void run(long n) throws Exception; }

    static int size, samples = 31;
    static long warmupNs = 3_000_000_000L;
    static byte[] a, b, iv = new byte[12], nonce = new byte[12], aad = new byte[13], out = new byte[32];
    static long messages;

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    static String measure(Loop f) throws Exception {
        long n = 1;
        while (true) {
            long t0 = System.nanoTime();
            f.run(n);
            if (System.nanoTime() - t0 >= 2_000_000) break;
            n *= 2;
        }
        n *= 10;
        long end = System.nanoTime() + warmupNs;
        while (System.nanoTime() < end) f.run(n);
        double[] wall = new double[samples], cpu = new double[samples];
        for (int i = 0; i < wall.length; i++) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            f.run(n);
            long t1 = System.nanoTime();
            long c1 = THREADS.getCurrentThreadCpuTime();
            wall[i] = (double) size * n / (t1 - t0) * 1e3;
            cpu[i] = (double) size * n / Math.max(1, c1 - c0) * 1e3;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return String.format("%.1f %.1f", wall[samples / 2], cpu[samples / 2]);
    }

    public static void main(String[] args) throws Exception {
        size = args.length > 0 ? Integer.parseInt(args[0]) : 16384;
        if (args.length > 1) samples = Integer.parseInt(args[1]);
        if (args.length > 2) warmupNs = Long.parseLong(args[2]) * 1_000_000L;
        SecureRandom r = new SecureRandom();
        a = new byte[size + 16];
        b = new byte[size + 16];
        r.nextBytes(a);
        r.nextBytes(iv);
        r.nextBytes(aad);
        byte[] k = new byte[16];
        r.nextBytes(k);
        SecretKeySpec key = new SecretKeySpec(k, "AES");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        Loop gcm = n -> {
            for (long i = 0; i < n; i++) {
                long m = messages++;
                for (int j = 0; j < 8; j++) nonce[11 - j] = (byte) (iv[11 - j] ^ (m >>> (8 * j)));
                c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                c.updateAAD(aad);
                c.doFinal(a, 0, size, b, 0);
                byte[] t = a;
                a = b;
                b = t;
            }
        };
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        Loop sha = n -> {
            for (long i = 0; i < n; i++) {
                md.update(a, 0, size);
                md.digest(out, 0, 32);
            }
        };
        System.out.printf("java aes-128-gcm %d %s%n", size, measure(gcm));
        System.out.printf("java sha256 %d %s%n", size, measure(sha));
    }
}
