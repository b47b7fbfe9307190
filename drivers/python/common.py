"""What both Python bindings of the cryptobench driver share: the errors the
pipe protocol reports, what the process has loaded, and the prepared cell
(`Prim`) with the keyed-object cells that copy a keyed hash per message or
stream into it (hashlib's hmac and pyca's HMAC/CMAC alike)."""

import itertools
import platform
import struct


class Unsupported(Exception):
    """The binding has no call for this cell: cryptobench reports it n/a with this reason."""


class AuthFailed(Exception):
    """An AEAD tag did not verify."""


def python_version():
    return f"{platform.python_implementation()} {platform.python_version()}"


def mapped_files(word):
    """Files of this process whose name contains `word` (/proc/self/maps, Linux)."""
    try:
        with open("/proc/self/maps") as f:
            names = [line.split()[-1] for line in f if word in line and "/" in line]
    except OSError:
        return []
    return sorted(set(names))


def elf_needed(path):
    """DT_NEEDED entries of a 64-bit little-endian ELF file (its shared-library dependencies)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    needed = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link]
        for at in range(offset, offset + size, entsize or 16):
            tag, value = struct.unpack_from("<qQ", data, at)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                start = strtab[4] + value
                needed.append(data[start:data.index(b"\0", start)].decode())
    return needed


class Prim:
    """A prepared cell. `msg` views the message bytes of the buffer, `room`
    the message plus 16 bytes (an AEAD tag, or the slack update_into asks for)."""

    call = ""
    fixed_len = None  # decryption of a prepared message: the buffer must have its length
    # A `message` cell whose every message sets the key again, the cell asking for none
    # (the `prepare` reply's second number; docs/ARCHITECTURE.md, "Runtime drivers").
    keys_every_message = False

    def __init__(self):
        self.len = -1
        self.out = None

    def load(self, data):
        n = len(data)
        if self.fixed_len is not None and n != self.fixed_len:
            raise ValueError(f"the buffer has {n} bytes, the prepared message {self.fixed_len}")
        if n != self.len:
            self.buf = bytearray(n + 16)
            self.mv = memoryview(self.buf)
            self.msg = self.mv[:n]
            self.room = self.mv[: n + 16]
            self.len = n
        self.msg[:] = data
        self.loaded()

    def loaded(self):
        """Called after the buffer was filled, outside the timing."""

    def result(self):
        return self.msg

    def output(self):
        return self.out


def takes_memoryview(keyed):
    """Whether update() takes a memoryview; older cryptography (e.g. Debian 12's 38) wants bytes for CMAC."""
    try:
        keyed.copy().update(memoryview(b""))
        return True
    except TypeError:
        return False


class Keyed(Prim):
    """A MAC cell on a keyed object (hmac.new, cryptography's HMAC or CMAC)."""

    def __init__(self, keyed, call, finish):
        super().__init__()
        self.keyed, self.call, self.finish = keyed, call, finish
        self.view = takes_memoryview(keyed)

    def loaded(self):
        self.data = self.msg if self.view else bytes(self.msg)


class KeyedCopyMessage(Keyed):
    """MAC `message` under the kept key: a copy of the keyed object per message
    (its key schedule is not run again), update, then the tag."""

    def run(self, n):
        copy, finish, m, d = self.keyed.copy, self.finish, self.data, None
        for _ in itertools.repeat(None, n):
            h = copy()
            h.update(m)
            d = finish(h)
        self.out = d


class KeyedStream(Keyed):
    """MAC `stream`: one keyed object, one update per call; the tag from a copy."""

    def run(self, n):
        update, m = self.keyed.update, self.data
        for _ in itertools.repeat(None, n):
            update(m)

    def output(self):
        return self.finish(self.keyed.copy())
