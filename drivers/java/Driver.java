// cryptobench driver for Java's JCA: javax.crypto.Cipher and java.security.MessageDigest.
//
// Compiled with javac and started by cryptobench's runtime backend
// (crates/backends/src/libraries/runtime/java.rs) as `java -cp DIR Driver`, it speaks
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
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;

public final class Driver extends Catalog {
    static final int PROTOCOL = 1;

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
        for (String a : offered) if (!PkCells.isPk(a)) m.put("provider." + a, provider(a));
        // Public key runs in other providers (SunRsaSign, SunEC): each algorithm names its own.
        for (Map.Entry<String, String> e : PkCells.providers().entrySet())
            m.put("underneath." + e.getKey(), "the " + e.getValue() + " provider: Java code, compiled by HotSpot; no C library");
        String cpu = hotspotFlags();
        if (cpu != null) m.put("cpu", cpu);
        m.put("algorithms", String.join(",", offered));
        m.put("pk_not_offered", PkCells.notOffered());
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
        List<String> offered = new java.util.ArrayList<>(offered());
        offered.addAll(PkCells.OFFERED);
        Map<String, Cells.Cell> cells = new HashMap<>();
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
                        Cells.Cell cell = cells.get(w[1]);
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
                        // A public-key cell (PkCells.java): the private key, the public key, the prepared signature.
                        Cells.Cell cell = PkCells.isPk(w[2]) ? new PkCells.PkCell(new PkCells.PkOps(w[2], b[0], b[1]), w[3], b[3])
                                : Cells.prepare(offered, w[2], w[3], w[4], w[5].equals("1"), Integer.parseInt(w[6]), b[0], b[1], b[2], b[3], b[4]);
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
                    case "pk": {
                        // pk ALG OP PRIV PUB IN IN2 (crates/backends/src/libraries/runtime/pk.rs)
                        byte[][] b = blobs(slice(w, 3, 7));
                        byte[][] r = new PkCells.PkOps(w[1], b[0], b[1]).once(w[2], b[2], b[3]);
                        StringBuilder h = new StringBuilder("ok");
                        for (byte[] x : r) h.append(' ').append(x.length);
                        send(h.toString(), r);
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
