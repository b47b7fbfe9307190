#!/usr/bin/env python3
"""Plain loops in Python, outside cryptobench: `timeit` over the calls the
Python driver times (drivers/python/driver.py), to check its figures.

Prints one line per figure: `<configuration> <algorithm> <size> <MB/s>`, the
median of --repeat timeit runs of about 20 ms each.
  python:cryptography aes-128-gcm: AESGCM.encrypt_into(nonce, buf, aad, buf+tag room), in place
  python:cryptography sha256:      hashes.Hash(SHA256()); update; finalize
  python:hashlib sha256:           hashlib.sha256(buf).digest()
"""

import argparse
import os
import statistics
import timeit


def rate(stmt, env, size, repeat):
    t = timeit.Timer(stmt, globals=env)
    number, _ = t.autorange()  # the count whose run lasts >= 0.2 s
    number = max(1, number // 10)  # runs of about 20 ms, as cryptobench's samples of >= 10 ms
    t.timeit(number * 20)  # warm-up
    times = t.repeat(repeat=repeat, number=number)
    return statistics.median(size * number / s / 1e6 for s in times)


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
        print(f"python:cryptography aes-128-gcm {size} {rate('enc(nonce, msg, aad, room)', env, size, a.repeat):.1f}")
        print(f"python:cryptography sha256 {size} {rate('h = Hash(algo); h.update(msg); h.finalize()', env, size, a.repeat):.1f}")
    except ImportError as e:
        print(f"# python:cryptography: {e}")
    import hashlib

    env.update(sha256=hashlib.sha256)
    print(f"python:hashlib sha256 {size} {rate('sha256(msg).digest()', env, size, a.repeat):.1f}")


if __name__ == "__main__":
    main()
