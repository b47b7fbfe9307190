'use strict';
// cryptobench driver for Node.js's `crypto` module.
//
// Started by cryptobench's runtime backend (crates/backends/src/runtime/node.rs)
// as `node driver.js`, it speaks the pipe protocol of docs/ARCHITECTURE.md
// ("Runtime drivers") on stdin and stdout: one ASCII header line per request,
// then the raw bytes it announces. It holds no test vectors: the Rust side
// verifies every call it forwards.
//
// Timed loops run here and time themselves with process.hrtime.bigint()
// (monotonic wall clock), the thread's CPU time (threadCpuTime below) and
// process.cpuUsage() (the whole process's: V8's garbage collector and JIT
// compiler threads show as the difference). Every call of Node's cipher API
// returns a new Buffer: that allocation is part of what a Node program pays,
// and is timed. Node's cipher and Hmac objects end with their message
// (`final()`, `digest()`), so a `message` cell sets the key for every message
// (ECB, which has no IV, excepted) and says so. Calls per mode: docs/METHOD.md.

const fs = require('fs');
const crypto = require('crypto');
const pk = require('./pk.js');

const PROTOCOL = 1;
const AEAD = { authTagLength: 16 };

const { Unsupported } = pk;
class AuthFailed extends Error {}

// --- synchronous pipe I/O (fd 0 and 1) ---------------------------------------

const pause = new Int32Array(new SharedArrayBuffer(4));

function retrying(f) {
  for (;;) {
    try {
      return f();
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1); // a non-blocking descriptor: wait 1 ms
    }
  }
}

class Pipe {
  constructor() {
    this.buf = Buffer.allocUnsafe(1 << 16);
    this.start = 0;
    this.end = 0;
  }

  fill() {
    if (this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
      this.buf = bigger;
    }
    const n = retrying(() => fs.readSync(0, this.buf, this.end, this.buf.length - this.end, null));
    this.end += n;
    return n;
  }

  readLine() {
    for (;;) {
      const nl = this.buf.indexOf(10, this.start);
      if (nl >= 0 && nl < this.end) {
        const line = this.buf.toString('latin1', this.start, nl);
        this.start = nl + 1;
        return line;
      }
      if (this.fill() === 0) return null;
    }
  }

  read(n) {
    const out = Buffer.allocUnsafe(n);
    let got = Math.min(n, this.end - this.start);
    this.buf.copy(out, 0, this.start, this.start + got);
    this.start += got;
    while (got < n) {
      const r = retrying(() => fs.readSync(0, out, got, n - got, null));
      if (r === 0) throw new RangeError('the request ended early');
      got += r;
    }
    return out;
  }

  send(header, ...blobs) {
    const all = Buffer.concat([Buffer.from(header + '\n', 'latin1'), ...blobs]);
    let at = 0;
    while (at < all.length) at += retrying(() => fs.writeSync(1, all, at, all.length - at));
  }
}

// --- what Node offers ----------------------------------------------------------

// Plain ciphers by the catalog's id, which is OpenSSL's name (Node passes it on);
// each where this Node's OpenSSL has it. ChaCha20 takes OpenSSL's 16-byte IV.
const CIPHERS = [
  'aes-128-cbc', 'aes-192-cbc', 'aes-256-cbc', 'aes-128-ctr', 'aes-192-ctr', 'aes-256-ctr',
  'aes-128-ecb', 'aes-192-ecb', 'aes-256-ecb', 'chacha20',
  'camellia-128-cbc', 'camellia-192-cbc', 'camellia-256-cbc', 'aria-128-cbc', 'sm4-cbc',
];
const AEADS = ['aes-128-gcm', 'aes-192-gcm', 'aes-256-gcm', 'chacha20-poly1305'];
const DIGESTS = [
  'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512',
  'blake2b512', 'blake2s256', 'shake128', 'shake256', 'sm3',
];
// SHAKE read to the catalog's lengths (twice the security level, FIPS 202 §A.2).
const XOF = { shake128: 32, shake256: 64 };
// HMAC by createHmac over these digests; Node has no CMAC or Poly1305 call.
const HMACS = { 'hmac-md5': 'md5', 'hmac-sha1': 'sha1', 'hmac-sha256': 'sha256', 'hmac-sha512': 'sha512' };
const oneShotHash = typeof crypto.hash === 'function';

function works(f) {
  try {
    f();
    return true;
  } catch (e) {
    return false;
  }
}

function offered() {
  const ciphers = new Set(crypto.getCiphers());
  const hashes = new Set(crypto.getHashes());
  return [
    ...AEADS.filter((a) => ciphers.has(a)),
    // Listed is not always usable (OpenSSL 3's legacy ciphers need the legacy provider).
    ...CIPHERS.filter((a) => ciphers.has(a) && works(() => encrypt(a, Buffer.alloc(keyLength(a)), Buffer.alloc(ivLength(a)), null, Buffer.alloc(16)))),
    ...DIGESTS.filter((a) => hashes.has(a) && works(() => digest(a, Buffer.alloc(0)))),
    ...Object.keys(HMACS).filter((a) => hashes.has(HMACS[a])),
    ...pk.OFFERED,
  ];
}

function keyLength(alg) {
  if (alg === 'chacha20') return 32;
  if (alg.startsWith('sm4')) return 16;
  return Number(alg.split('-')[1]) / 8;
}

function ivLength(alg) {
  return alg.endsWith('-ecb') ? 0 : 16;
}

/** The IV argument: ECB takes none (null). */
function ivArg(alg, iv) {
  return alg.endsWith('-ecb') ? null : iv;
}

function createHash(alg) {
  return XOF[alg] ? crypto.createHash(alg, { outputLength: XOF[alg] }) : crypto.createHash(alg);
}

function mappedLibcrypto() {
  try {
    const lines = fs.readFileSync('/proc/self/maps', 'latin1').split('\n');
    const hit = lines.map((l) => l.split(/\s+/).pop()).find((p) => p && p.includes('libcrypto'));
    return hit || null;
  } catch (e) {
    return null;
  }
}

function info(algorithms) {
  const openssl = process.versions.openssl;
  const lib = mappedLibcrypto();
  const linked = lib ? `linked dynamically: ${lib}` : `statically linked into ${process.execPath}`;
  let fips = 'unknown';
  try { fips = String(crypto.getFips() === 1); } catch (e) { /* older Node */ }
  return {
    name: 'Node.js crypto',
    // "Node.js crypto 20.20.2, …": reports label it by the first number after its name.
    version: `Node.js crypto ${process.versions.node}, OpenSSL ${openssl}`,
    runtime: `Node.js ${process.version} (V8 ${process.versions.v8})`,
    binding: 'node:crypto',
    underneath: `OpenSSL ${openssl} (process.versions.openssl; ${linked})`,
    'underneath.name': 'OpenSSL',
    'underneath.version': openssl.split('+')[0],
    library_path: lib || process.execPath,
    executable: process.execPath,
    fips,
    'digest.message': oneShotHash ? 'crypto.hash' : 'createHash().update().digest()',
    algorithms: algorithms.join(','),
    pk_not_offered: pk.notOffered(),
  };
}

// --- one-shot calls (verification) ---------------------------------------------

function encrypt(alg, key, iv, aad, pt) {
  if (AEADS.includes(alg)) {
    const c = crypto.createCipheriv(alg, key, iv, AEAD);
    c.setAAD(aad);
    const ct = Buffer.concat([c.update(pt), c.final()]);
    return [ct, c.getAuthTag()];
  }
  const c = crypto.createCipheriv(alg, key, ivArg(alg, iv));
  c.setAutoPadding(false);
  return [Buffer.concat([c.update(pt), c.final()]), Buffer.alloc(0)];
}

function decrypt(alg, key, iv, aad, ct, tag) {
  if (AEADS.includes(alg)) {
    const d = crypto.createDecipheriv(alg, key, iv, AEAD);
    d.setAAD(aad);
    d.setAuthTag(tag);
    const pt = d.update(ct);
    try {
      d.final();
    } catch (e) {
      throw new AuthFailed();
    }
    return pt;
  }
  const d = crypto.createDecipheriv(alg, key, ivArg(alg, iv));
  d.setAutoPadding(false);
  return Buffer.concat([d.update(ct), d.final()]);
}

function digest(alg, msg) {
  return createHash(alg).update(msg).digest();
}

function mac(alg, key, msg) {
  return crypto.createHmac(HMACS[alg], key).update(msg).digest();
}

// --- CPU time --------------------------------------------------------------------

/** The CPU time of the thread running the loop, in ns, or null where it cannot be read:
 *  process.threadCpuUsage (Node 23.9+), else the first field of Linux's
 *  /proc/thread-self/schedstat (the thread's time on the CPU, ns; Documentation/
 *  scheduler/sched-stats.rst). That field is brought up to date by the
 *  process.cpuUsage() call made just before it (getrusage's thread_group_cputime
 *  updates the calling thread first: kernel/sched/cputime.c). */
const threadCpuTime = (() => {
  if (typeof process.threadCpuUsage === 'function') {
    return () => {
      const u = process.threadCpuUsage();
      return (u.user + u.system) * 1000;
    };
  }
  const read = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
  return works(read) && Number.isFinite(read()) ? read : () => null;
})();

/** [process CPU µs usage object, thread CPU ns], read in this order (see threadCpuTime). */
function cpuNow() {
  const p = process.cpuUsage();
  return [p, threadCpuTime()];
}

// --- timed cells ---------------------------------------------------------------
// `cur` is the buffer: each call's result becomes the next call's input, as
// in-place encryption does in the C backends.

class Prim {
  load(data) {
    if (this.fixedLen !== undefined && data.length !== this.fixedLen) {
      throw new RangeError(`the buffer has ${data.length} bytes, the prepared message ${this.fixedLen}`);
    }
    this.cur = data;
  }
  result() { return this.cur; }
  output() { return this.out === undefined ? null : this.out; }
}

class AeadEncrypt extends Prim {
  constructor(alg, key, iv, aad, rekey) {
    super();
    Object.assign(this, { alg, key, iv, aad, keysEveryMessage: !rekey });
    this.call = 'createCipheriv + setAAD + update + final + getAuthTag per message (the key is set every message)';
  }
  run(n) {
    const { alg, key, iv, aad } = this;
    let cur = this.cur;
    let tag;
    for (let i = 0; i < n; i++) {
      const c = crypto.createCipheriv(alg, key, iv, AEAD);
      c.setAAD(aad);
      cur = c.update(cur);
      c.final();
      tag = c.getAuthTag();
    }
    this.cur = cur;
    this.out = tag;
  }
}

class AeadDecrypt extends Prim {
  constructor(alg, key, iv, aad, ct, tag, rekey) {
    super();
    Object.assign(this, { alg, key, iv, aad, ct, tag, fixedLen: ct.length, keysEveryMessage: !rekey });
    this.call = 'createDecipheriv + setAAD + setAuthTag + update + final per message (the key is set every message)';
  }
  run(n) {
    const { alg, key, iv, aad, ct, tag } = this;
    let out;
    for (let i = 0; i < n; i++) {
      const d = crypto.createDecipheriv(alg, key, iv, AEAD);
      d.setAAD(aad);
      d.setAuthTag(tag);
      out = d.update(ct);
      try {
        d.final();
      } catch (e) {
        throw new AuthFailed();
      }
    }
    this.cur = out;
  }
}

class CipherStream extends Prim {
  constructor(alg, key, iv, encrypt) {
    super();
    const opts = AEADS.includes(alg) ? AEAD : undefined;
    const v = ivArg(alg, iv);
    this.ctx = encrypt ? crypto.createCipheriv(alg, key, v, opts) : crypto.createDecipheriv(alg, key, v, opts);
    if (!AEADS.includes(alg)) this.ctx.setAutoPadding(false);
    this.call = `${encrypt ? 'Cipheriv' : 'Decipheriv'}.update on one object`;
  }
  run(n) {
    const ctx = this.ctx;
    let cur = this.cur;
    for (let i = 0; i < n; i++) cur = ctx.update(cur);
    this.cur = cur;
  }
}

class CipherMessage extends Prim {
  // Decryption decrypts the prepared ciphertext into the buffer.
  constructor(alg, key, iv, encrypt, ct, rekey) {
    super();
    Object.assign(this, { alg, key, iv: ivArg(alg, iv), encrypt, ct, keysEveryMessage: !rekey });
    if (!encrypt) this.fixedLen = ct.length;
    this.call = `${encrypt ? 'createCipheriv' : 'createDecipheriv'} + update + final per message (the key is set every message)`;
  }
  run(n) {
    const { alg, key, iv, ct } = this;
    let cur = this.cur;
    if (this.encrypt) {
      for (let i = 0; i < n; i++) {
        const c = crypto.createCipheriv(alg, key, iv);
        c.setAutoPadding(false);
        cur = c.update(cur);
        c.final();
      }
    } else {
      for (let i = 0; i < n; i++) {
        const d = crypto.createDecipheriv(alg, key, iv);
        d.setAutoPadding(false);
        cur = d.update(ct);
        d.final();
      }
    }
    this.cur = cur;
  }
}

// ECB `message` without --rekey: one object, one update per message (ECB has no
// IV, so a message through it is what a new object would compute; the key is kept).
class EcbMessage extends Prim {
  constructor(alg, key, encrypt, ct) {
    super();
    Object.assign(this, { encrypt, ct });
    if (!encrypt) this.fixedLen = ct.length;
    this.ctx = encrypt ? crypto.createCipheriv(alg, key, null) : crypto.createDecipheriv(alg, key, null);
    this.ctx.setAutoPadding(false);
    this.call = `${encrypt ? 'createCipheriv' : 'createDecipheriv'} once, update per message (ECB has no IV; the key is kept)`;
  }
  run(n) {
    const { ctx, ct } = this;
    let cur = this.cur;
    if (this.encrypt) {
      for (let i = 0; i < n; i++) cur = ctx.update(cur);
    } else {
      for (let i = 0; i < n; i++) cur = ctx.update(ct);
    }
    this.cur = cur;
  }
}

class DigestMessage extends Prim {
  constructor(alg) {
    super();
    this.alg = alg;
    // crypto.hash has no output length: SHAKE goes through createHash.
    this.oneShot = oneShotHash && !XOF[alg];
    this.call = this.oneShot
      ? `crypto.hash('${alg}', buf, 'buffer')`
      : `createHash('${alg}'${XOF[alg] ? `, {outputLength: ${XOF[alg]}}` : ''}).update(buf).digest()`;
  }
  run(n) {
    const { alg, cur } = this;
    let d;
    if (!this.oneShot) {
      for (let i = 0; i < n; i++) d = createHash(alg).update(cur).digest();
    } else if (oneShotHash) {
      for (let i = 0; i < n; i++) d = crypto.hash(alg, cur, 'buffer');
    } else {
      for (let i = 0; i < n; i++) d = crypto.createHash(alg).update(cur).digest();
    }
    this.out = d;
  }
}

class DigestStream extends Prim {
  constructor(alg) {
    super();
    this.h = createHash(alg);
    this.alg = alg;
    this.call = 'Hash.update on one object';
  }
  run(n) {
    const { h, cur } = this;
    for (let i = 0; i < n; i++) h.update(cur);
  }
  // A copy forgets SHAKE's output length unless given again.
  output() { return (XOF[this.alg] ? this.h.copy({ outputLength: XOF[this.alg] }) : this.h.copy()).digest(); }
}

class HmacMessage extends Prim {
  // Node's Hmac cannot be copied or reset: every message is a new object, keyed again.
  constructor(alg, key, rekey) {
    super();
    Object.assign(this, { digest: HMACS[alg], key, keysEveryMessage: !rekey });
    this.call = `createHmac('${HMACS[alg]}', key).update(buf).digest() per message (the key is set every message)`;
  }
  run(n) {
    const { digest, key, cur } = this;
    let d;
    for (let i = 0; i < n; i++) d = crypto.createHmac(digest, key).update(cur).digest();
    this.out = d;
  }
}

function prepare(algorithms, alg, op, mode, rekey, key, iv, aad, ct, tag) {
  // A public-key cell (pk.js): the private key, the public key, the prepared signature.
  if (pk.isPk(alg)) return new pk.PkCell(new pk.PkOps(alg, key, iv), op, ct);
  if (!algorithms.includes(alg)) throw new Unsupported(`${alg} (not offered by this Node's crypto)`);
  if (op === 'mac') {
    if (mode === 'stream') throw new Unsupported(`${alg} in stream mode (Node's Hmac cannot be copied, so a stream's tag cannot be read without ending it)`);
    return new HmacMessage(alg, key, rekey);
  }
  if (op === 'digest') return mode === 'message' ? new DigestMessage(alg) : new DigestStream(alg);
  const encrypt = op === 'encrypt';
  if (mode === 'stream') return new CipherStream(alg, key, iv, encrypt);
  // Node has no call that sets a new IV on an existing cipher object: every
  // message is a new object, keyed again, with or without --rekey (ECB, which
  // takes no IV, keeps one object); the cell says so (keysEveryMessage).
  if (AEADS.includes(alg)) {
    return encrypt ? new AeadEncrypt(alg, key, iv, aad, rekey) : new AeadDecrypt(alg, key, iv, aad, ct, tag, rekey);
  }
  if (alg.endsWith('-ecb') && !rekey) return new EcbMessage(alg, key, encrypt, ct);
  return new CipherMessage(alg, key, iv, encrypt, ct, rekey);
}

// --- the protocol ---------------------------------------------------------------

function oneLine(text) {
  return String(text).split(/\s+/).join(' ').trim() || 'no message';
}

function serve(pipe, algorithms) {
  const handles = new Map();
  const check = (alg) => {
    if (!algorithms.includes(alg)) throw new Unsupported(`${alg} (not offered by this Node's crypto)`);
  };
  for (;;) {
    const line = pipe.readLine();
    if (line === null) return;
    const [verb, ...args] = line.trim().split(' ');
    if (!verb) continue;
    const blobs = (lengths) => lengths.map((n) => pipe.read(Number(n)));
    try {
      if (verb === 'run') {
        const [h, n, len] = args;
        const [data] = blobs([len]);
        const p = handles.get(h);
        p.load(data);
        const [p0, c0] = cpuNow();
        const t0 = process.hrtime.bigint();
        p.run(Number(n));
        const t1 = process.hrtime.bigint();
        const [p1, c1] = cpuNow();
        const thread = c0 === null || c1 === null ? '-' : String(c1 - c0);
        const proc = (p1.user + p1.system - p0.user - p0.system) * 1000;
        pipe.send(`ok ${t1 - t0} ${thread} ${proc}`, p.result());
      } else if (verb === 'output') {
        const out = handles.get(args[0]).output();
        if (out === null) pipe.send('none');
        else pipe.send(`ok ${out.length}`, out);
      } else if (verb === 'prepare') {
        const [h, alg, op, mode, rekey] = args; // args[5], the message size, no Node call needs in advance
        const [key, iv, aad, ct, tag] = blobs(args.slice(6, 11));
        const p = prepare(algorithms, alg, op, mode, rekey === '1', key, iv, aad, ct, tag);
        handles.set(h, p);
        const call = Buffer.from(p.call, 'utf8');
        pipe.send(`ok ${call.length} ${p.keysEveryMessage ? 1 : 0}`, call);
      } else if (verb === 'free') {
        handles.delete(args[0]);
        pipe.send('ok');
      } else if (verb === 'encrypt') {
        const [key, iv, aad, pt] = blobs(args.slice(1, 5));
        check(args[0]);
        const [ct, tag] = encrypt(args[0], key, iv, aad, pt);
        pipe.send(`ok ${ct.length} ${tag.length}`, ct, tag);
      } else if (verb === 'decrypt') {
        const [key, iv, aad, ct, tag] = blobs(args.slice(1, 6));
        check(args[0]);
        const pt = decrypt(args[0], key, iv, aad, ct, tag);
        pipe.send(`ok ${pt.length}`, pt);
      } else if (verb === 'mac') {
        const [key, msg] = blobs(args.slice(1, 3));
        check(args[0]);
        if (!HMACS[args[0]]) throw new Unsupported(`${args[0]} (not offered by this Node's crypto)`);
        const t = mac(args[0], key, msg);
        pipe.send(`ok ${t.length}`, t);
      } else if (verb === 'digest') {
        const [msg] = blobs([args[1]]);
        check(args[0]);
        const d = digest(args[0], msg);
        pipe.send(`ok ${d.length}`, d);
      } else if (verb === 'pk') {
        // pk ALG OP PRIV PUB IN IN2 (crates/backends/src/libraries/runtime/pk.rs)
        const [priv, pub, in1, in2] = blobs(args.slice(2, 6));
        const out = new pk.PkOps(args[0], priv, pub).once(args[1], in1, in2);
        pipe.send(`ok ${out.map((o) => o.length).join(' ')}`, ...out);
      } else if (verb === 'info') {
        const text = Buffer.from(
          Object.entries(info(algorithms)).map(([k, v]) => `${k}=${oneLine(v)}\n`).join(''),
          'utf8',
        );
        pipe.send(`ok ${text.length}`, text);
      } else {
        pipe.send(`err unknown request ${verb}`);
      }
    } catch (e) {
      if (e instanceof Unsupported) pipe.send(`unsupported ${oneLine(e.message)}`);
      else if (e instanceof AuthFailed) pipe.send('auth');
      else if (e instanceof RangeError && /ended early/.test(e.message)) return;
      else pipe.send(`err ${e.name}: ${oneLine(e.message)}`);
    }
  }
}

const pipe = new Pipe();
pipe.send(`hello ${PROTOCOL}`);
serve(pipe, offered());
