#!/usr/bin/env python3
"""cryptobench driver for Python: `hashlib` or pyca/cryptography.

Started by cryptobench's runtime backends (crates/backends/src/libraries/runtime/python.rs)
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

import sys
import time

from common import AuthFailed, Unsupported

PROTOCOL = 1


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
            elif verb == "pk":
                # pk ALG OP PRIV PUB IN IN2 (crates/backends/src/libraries/runtime/pk.rs)
                blobs = pipe.blobs([int(x) for x in args[2:6]])
                if not hasattr(binding, "pk"):
                    raise Unsupported(f"{args[0]} (this binding has no public key)")
                out = binding.pk(args[0], args[1], *blobs)
                pipe.send("ok " + " ".join(str(len(o)) for o in out), *out)
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


def hashlib_binding():
    from hashlib_binding import Hashlib

    return Hashlib()


def cryptography_binding():
    from cryptography_binding import Cryptography

    return Cryptography()


BINDINGS = {"hashlib": hashlib_binding, "cryptography": cryptography_binding}


def main():
    pipe = Pipe()
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        binding = BINDINGS[which]()
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
