'use strict';
// Public key in the Node.js driver. The seeded keys arrive as PKCS#8
// (private) and SubjectPublicKeyInfo (public) DER
// (crates/backends/src/libraries/runtime/pk_keys.rs) and become KeyObjects
// once, outside the timing. RSA PKCS#1 v1.5 signs the cell's message as a
// precomputed SHA-256 digest: Node's crypto.sign hashes what it is given,
// so the driver calls crypto.privateEncrypt with PKCS#1 padding on
// DigestInfo ‖ digest (RFC 8017 §9.2: the same bytes as the signature) and
// crypto.publicDecrypt to verify; EdDSA signs the message itself
// (crypto.sign(null, …)); key agreement is crypto.diffieHellman.

const crypto = require('crypto');

// DER of DigestInfo for SHA-256 before the digest (RFC 8017 §9.2, note 1).
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

class Unsupported extends Error {}

const RSA = ['rsa2048', 'rsa3072', 'rsa4096'];
const EDDSA = ['ed25519', 'ed448'];
const AGREE = ['x25519', 'x448', 'ecdhp256', 'ecdhp384'];
const PREHASHED = "Node's crypto.sign and crypto.verify hash the message themselves: they take no precomputed digest, which this cell signs";

function missing() {
  const why = {};
  for (const a of RSA) {
    why[`${a}-pss`] = PREHASHED;
    why[`${a}-oaep`] = 'RSA-OAEP is not in the Node.js driver';
  }
  for (const a of ['ecdsap256', 'ecdsap384', 'ecdsap521']) why[a] = PREHASHED;
  const v = `Node.js ${process.version}`;
  for (const a of ['mlkem512', 'mlkem768', 'mlkem1024']) why[a] = `${v}'s crypto has no ML-KEM (crypto.encapsulate)`;
  for (const a of ['mldsa44', 'mldsa65', 'mldsa87']) why[a] = `${v}'s crypto has no ML-DSA`;
  for (const a of ['slhdsa-sha2-128s', 'slhdsa-sha2-128f', 'slhdsa-shake-128f']) why[a] = `${v}'s crypto has no SLH-DSA`;
  return why;
}

const MISSING = missing();

function works(f) {
  try {
    f();
    return true;
  } catch (e) {
    return false;
  }
}

// What this Node offers: its OpenSSL may lack a curve (Ed448/X448 in a FIPS build).
function offered() {
  const out = [...RSA];
  for (const a of [...EDDSA, 'x25519', 'x448']) {
    if (works(() => crypto.generateKeyPairSync(a))) out.push(a);
    else MISSING[a] = `this Node's OpenSSL has no ${a}`;
  }
  out.push('ecdhp256', 'ecdhp384');
  return out;
}

const OFFERED = offered();

function notOffered() {
  return Object.keys(MISSING).sort().map((a) => `${a}: ${MISSING[a]}`).join('; ');
}

function fromB64url(s) {
  return Buffer.from(s, 'base64url');
}

// The public key in the catalog's form: the modulus (RSA), the uncompressed point (EC), raw (the others).
function publicBytes(alg, pub) {
  const jwk = pub.export({ format: 'jwk' });
  if (RSA.includes(alg)) return fromB64url(jwk.n);
  if (jwk.kty === 'EC') return Buffer.concat([Buffer.from([4]), fromB64url(jwk.x), fromB64url(jwk.y)]);
  return fromB64url(jwk.x);
}

// One algorithm's calls on imported keys; `calls` names each operation's Node call.
class PkOps {
  constructor(alg, priv, pub) {
    if (!OFFERED.includes(alg)) {
      if (MISSING[alg]) throw new Unsupported(`${alg}: ${MISSING[alg]}`);
      throw new Unsupported(`${alg} (not offered by this Node's crypto)`);
    }
    this.alg = alg;
    this.key = priv.length ? crypto.createPrivateKey({ key: priv, format: 'der', type: 'pkcs8' }) : null;
    this.pub = pub.length ? crypto.createPublicKey({ key: pub, format: 'der', type: 'spki' }) : null;
    this.ownPublic = this.key ? crypto.createPublicKey(this.key) : this.pub;
    this.calls = {};
    if (RSA.includes(alg)) {
      const { key } = this;
      const pubKey = this.pub || this.ownPublic;
      const pad = crypto.constants.RSA_PKCS1_PADDING;
      const privOpts = { key, padding: pad };
      const pubOpts = { key: pubKey, padding: pad };
      this.sign = (m) => crypto.privateEncrypt(privOpts, Buffer.concat([SHA256_DIGEST_INFO, m]));
      this.verify = (m, sig) => {
        let em;
        try {
          em = crypto.publicDecrypt(pubOpts, sig);
        } catch (e) {
          return false;
        }
        return em.length === SHA256_DIGEST_INFO.length + m.length && em.equals(Buffer.concat([SHA256_DIGEST_INFO, m]));
      };
      this.calls.sign = 'crypto.privateEncrypt(RSA_PKCS1_PADDING, DigestInfo(SHA-256) ‖ digest)';
      this.calls.verify = 'crypto.publicDecrypt(RSA_PKCS1_PADDING, sig) compared with DigestInfo(SHA-256) ‖ digest';
    } else if (EDDSA.includes(alg)) {
      const { key } = this;
      const pubKey = this.pub || this.ownPublic;
      this.sign = (m) => crypto.sign(null, m, key);
      this.verify = (m, sig) => crypto.verify(null, m, pubKey, sig);
      this.calls.sign = 'crypto.sign(null, msg, privateKey)';
      this.calls.verify = 'crypto.verify(null, msg, publicKey, sig)';
    } else {
      const options = { privateKey: this.key, publicKey: this.pub };
      if (this.pub) this.derive = () => crypto.diffieHellman(options);
      this.calls.derive = 'crypto.diffieHellman({ privateKey, publicKey })';
    }
  }

  public() {
    return publicBytes(this.alg, this.ownPublic);
  }

  has(op) {
    return this.calls[op] !== undefined;
  }

  // One `pk` request: the reply's blobs.
  once(op, in1, in2) {
    if (op === 'public') return [this.public()];
    if (!this.has(op)) throw new Unsupported(`${this.alg} ${op} cells (not in the Node.js driver)`);
    if (op === 'sign') return [this.sign(in1)];
    if (op === 'verify') return [Buffer.from([this.verify(in1, in2) ? 1 : 0])];
    return [this.derive()];
  }
}

// A timed public-key cell: one operation per iteration on the KeyObjects
// made when it was prepared; verify checks the prepared signature.
class PkCell {
  constructor(ops, op, prepared) {
    if (!ops.has(op)) throw new Unsupported(`${ops.alg} ${op} cells (not in the Node.js driver)`);
    Object.assign(this, { ops, op, prepared, call: ops.calls[op], keysEveryMessage: false });
  }
  load(data) { this.cur = data; }
  result() { return this.cur; }
  output() { return this.out === undefined ? null : this.out; }
  run(n) {
    const { ops, cur, prepared } = this;
    let out;
    if (this.op === 'sign') {
      for (let i = 0; i < n; i++) out = ops.sign(cur);
    } else if (this.op === 'verify') {
      for (let i = 0; i < n; i++) {
        if (!ops.verify(cur, prepared)) throw new Error('a genuine signature did not verify');
      }
      out = prepared;
    } else {
      for (let i = 0; i < n; i++) out = ops.derive();
    }
    this.out = out;
  }
}

function isPk(alg) {
  return OFFERED.includes(alg) || MISSING[alg] !== undefined;
}

module.exports = { OFFERED, PkOps, PkCell, Unsupported, isPk, notOffered };
