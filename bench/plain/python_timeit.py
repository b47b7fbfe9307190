#!/usr/bin/env python3
"""Plain loops in Python, outside cryptobench: `timeit` over the calls the
Python driver times (drivers/python/driver.py), to check its figures.

Prints one line per figure: `<configuration> <algorithm> <size> <MB/s by the
wall clock> <MB/s by the thread's CPU time>`, each the median of --repeat
timeit runs of about 20 ms (the timer reads both clocks, so both come from
the same runs; on a shared machine only the second compares across runs).
  python:cryptography aes-128-gcm: AESGCM.encrypt_into(nonce, buf, aad, buf+tag room), in place
  python:cryptography sha256:      hashes.Hash(SHA256()); update; finalize
  python:hashlib sha256:           hashlib.sha256(buf).digest()
"""

import argparse
import os
import statistics
import time
import timeit


class Clocks:
    """A timeit timer reading the wall clock and the thread's CPU clock; a difference is (wall s, CPU s)."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter_ns(), time.thread_time_ns()

    def __sub__(self, earlier):
        return ((self.wall - earlier.wall) / 1e9, (self.cpu - earlier.cpu) / 1e9)


def rates(stmt, env, size, repeat):
    t = timeit.Timer(stmt, globals=env, timer=Clocks)
    number = 1
    while t.timeit(number)[0] < 0.002:
        number *= 2
    number *= 10  # runs of about 20 ms, as cryptobench's samples of >= 10 ms
    t.timeit(number * 20)  # warm-up
    runs = t.repeat(repeat=repeat, number=number)
    wall = statistics.median(size * number / w / 1e6 for w, _ in runs)
    cpu = statistics.median(size * number / c / 1e6 for _, c in runs if c > 0)
    return f"{wall:.1f} {cpu:.1f}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=16384)
    p.add_argument("--repeat", type=int, default=31)
    a = p.parse_args()
    size = a.size
    buf = bytearray(os.urandom(size) + bytes(16))
    env = {"nonce": os.urandom(12), "aad": os.urandom(13), "msg": memoryview(buf)[:size], "room": memoryview(buf)}
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        env.update(enc=AESGCM(os.urandom(16)).encrypt_into, Hash=hashes.Hash, algo=hashes.SHA256())
        print(f"python:cryptography aes-128-gcm {size} {rates('enc(nonce, msg, aad, room)', env, size, a.repeat)}")
        print(f"python:cryptography sha256 {size} {rates('h = Hash(algo); h.update(msg); h.finalize()', env, size, a.repeat)}")
    except ImportError as e:
        print(f"# python:cryptography: {e}")
    import hashlib

    env.update(sha256=hashlib.sha256)
    print(f"python:hashlib sha256 {size} {rates('sha256(msg).digest()', env, size, a.repeat)}")


if __name__ == "__main__":
    main()
