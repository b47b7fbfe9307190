// Timed cells of the Go driver: one type per kind of work, each keeping its
// objects across calls where Go's API allows it (docs/METHOD.md).
package main

import (
	"crypto/cipher"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
)

// Results stay in the cell's fields, so no call can be optimised away.

type cell interface {
	run(n int) error
	call() string
	output() []byte
}

type base struct {
	buf, msg []byte
	fixed    int // a prepared ciphertext's length, or -1
}

func (b *base) load(data []byte) error {
	if b.fixed >= 0 && len(data) != b.fixed {
		return fmt.Errorf("the buffer has %d bytes, the prepared message %d", len(data), b.fixed)
	}
	if cap(b.buf) < len(data)+16 {
		b.buf = make([]byte, len(data)+16)
	}
	b.msg = b.buf[:len(data)]
	copy(b.msg, data)
	return nil
}

type aeadEncrypt struct {
	base
	alg             string
	a               cipher.AEAD
	key, nonce, aad []byte
	rekey           bool
	tag             []byte
}

func (p *aeadEncrypt) call() string {
	if p.rekey {
		return "aes.NewCipher/cipher.NewGCM or chacha20poly1305.New + Seal(buf[:0], nonce, buf, aad) per message"
	}
	return "AEAD.Seal(buf[:0], nonce, buf, aad), in place"
}

func (p *aeadEncrypt) run(n int) error {
	m, nonce, aad := p.msg, p.nonce, p.aad
	var sealed []byte
	if p.rekey {
		for i := 0; i < n; i++ {
			a, err := newAEAD(p.alg, p.key)
			if err != nil {
				return err
			}
			sealed = a.Seal(m[:0], nonce, m, aad)
		}
	} else {
		a := p.a
		for i := 0; i < n; i++ {
			sealed = a.Seal(m[:0], nonce, m, aad)
		}
	}
	p.tag = sealed[len(m):]
	return nil
}

func (p *aeadEncrypt) output() []byte { return p.tag }

type aeadDecrypt struct {
	base
	alg                     string
	a                       cipher.AEAD
	key, nonce, aad, sealed []byte
	rekey                   bool
}

func (p *aeadDecrypt) call() string {
	if p.rekey {
		return "aes.NewCipher/cipher.NewGCM or chacha20poly1305.New + Open(buf[:0], nonce, sealed, aad) per message"
	}
	return "AEAD.Open(buf[:0], nonce, sealed, aad)"
}

func (p *aeadDecrypt) run(n int) error {
	m, nonce, aad, sealed := p.msg, p.nonce, p.aad, p.sealed
	a := p.a
	for i := 0; i < n; i++ {
		if p.rekey {
			var err error
			if a, err = newAEAD(p.alg, p.key); err != nil {
				return err
			}
		}
		if _, err := a.Open(m[:0], nonce, sealed, aad); err != nil {
			return errAuth
		}
	}
	return nil
}

func (p *aeadDecrypt) output() []byte { return nil }

type cipherStream struct {
	base
	crypt  func(dst, src []byte)
	name   string
	blocks bool // CBC: whole 16-byte blocks only
}

func (p *cipherStream) call() string { return p.name + " on one object, in place" }

func (p *cipherStream) run(n int) error {
	m, crypt := p.msg, p.crypt
	if p.blocks && len(m)%16 != 0 {
		return unsupported(fmt.Sprintf("CBC updates of %d bytes (whole 16-byte blocks only)", len(m)))
	}
	for i := 0; i < n; i++ {
		crypt(m, m)
	}
	return nil
}

func (p *cipherStream) output() []byte { return nil }

type cipherMessage struct {
	base
	alg         string
	block       cipher.Block
	key, iv, ct []byte
	encrypt     bool
	rekey       bool
}

func (p *cipherMessage) call() string {
	if p.alg == "chacha20" {
		return "chacha20.NewUnauthenticatedCipher(key, nonce) + SetCounter + XORKeyStream per message (ChaCha20 has no key schedule)"
	}
	what := "cipher.NewCBCEncrypter/NewCBCDecrypter(block, iv).CryptBlocks"
	if mode(p.alg) == "ctr" {
		what = "cipher.NewCTR(block, iv).XORKeyStream"
	}
	if p.rekey {
		return "aes.NewCipher + " + what + " per message"
	}
	return what + " per message (the key schedule kept in block)"
}

// run encrypts the buffer in place, or decrypts the prepared ciphertext into it.
func (p *cipherMessage) run(n int) error {
	m, block := p.msg, p.block
	src := m
	if !p.encrypt {
		src = p.ct
	}
	for i := 0; i < n; i++ {
		if p.rekey {
			var err error
			if block, err = newBlock(p.alg, p.key); err != nil {
				return err
			}
		}
		plainCipher(p.alg, block, p.key, p.iv, p.encrypt)(m, src)
	}
	return nil
}

func (p *cipherMessage) output() []byte { return nil }

type digestMessage struct {
	base
	alg string
	d16 [16]byte
	d20 [20]byte
	d28 [28]byte
	d32 [32]byte
	d48 [48]byte
	d64 [64]byte
	out []byte
}

var sums = map[string]string{
	"md5": "md5.Sum", "sha1": "sha1.Sum", "sha224": "sha256.Sum224", "sha256": "sha256.Sum256",
	"sha384": "sha512.Sum384", "sha512": "sha512.Sum512",
	"sha3-224": "sha3.Sum224", "sha3-256": "sha3.Sum256", "sha3-384": "sha3.Sum384", "sha3-512": "sha3.Sum512",
	"shake128": "sha3.ShakeSum128(out[:32], buf)", "shake256": "sha3.ShakeSum256(out[:64], buf)",
	"blake2b512": "blake2b.Sum512", "blake2s256": "blake2s.Sum256",
}

func (p *digestMessage) call() string {
	if strings.HasPrefix(p.alg, "shake") {
		return sums[p.alg]
	}
	return sums[p.alg] + "(buf)"
}

func (p *digestMessage) run(n int) error {
	m := p.msg
	switch p.alg {
	case "md5":
		for i := 0; i < n; i++ {
			p.d16 = md5.Sum(m)
		}
		p.out = p.d16[:]
	case "sha1":
		for i := 0; i < n; i++ {
			p.d20 = sha1.Sum(m)
		}
		p.out = p.d20[:]
	case "sha224":
		for i := 0; i < n; i++ {
			p.d28 = sha256.Sum224(m)
		}
		p.out = p.d28[:]
	case "sha256":
		for i := 0; i < n; i++ {
			p.d32 = sha256.Sum256(m)
		}
		p.out = p.d32[:]
	case "sha384":
		for i := 0; i < n; i++ {
			p.d48 = sha512.Sum384(m)
		}
		p.out = p.d48[:]
	case "sha512":
		for i := 0; i < n; i++ {
			p.d64 = sha512.Sum512(m)
		}
		p.out = p.d64[:]
	case "blake2b512":
		for i := 0; i < n; i++ {
			p.d64 = blake2b.Sum512(m)
		}
		p.out = p.d64[:]
	case "blake2s256":
		for i := 0; i < n; i++ {
			p.d32 = blake2s.Sum256(m)
		}
		p.out = p.d32[:]
	default:
		if !sha3Message(p, n) {
			return fmt.Errorf("no one-shot digest for %s", p.alg)
		}
	}
	return nil
}

func (p *digestMessage) output() []byte { return p.out }

type digestStream struct {
	base
	h   hash.Hash
	xof shakeHash // SHAKE: read from a clone
	n   int
}

func (p *digestStream) call() string {
	if p.xof != nil {
		return "sha3.ShakeHash.Write on one object"
	}
	return "hash.Hash.Write on one object"
}

func (p *digestStream) run(n int) error {
	m := p.msg
	if p.xof != nil {
		x := p.xof
		for i := 0; i < n; i++ {
			x.Write(m)
		}
		return nil
	}
	h := p.h
	for i := 0; i < n; i++ {
		h.Write(m)
	}
	return nil
}

// Sum appends the digest of a copy of the state: the stream goes on
// (SHAKE: read from a clone, as reading ends absorbing).
func (p *digestStream) output() []byte {
	if p.xof != nil {
		out := make([]byte, p.n)
		shakeRead(p.xof, out)
		return out
	}
	return p.h.Sum(nil)
}

// macMessage is HMAC under the kept key: Reset (back to the keyed state), Write, Sum.
type macMessage struct {
	base
	alg string
	h   hash.Hash
	out []byte
}

func (p *macMessage) call() string {
	return "hmac.New(" + macs[p.alg] + ", key) once, Reset + Write + Sum(out[:0]) per message"
}

func (p *macMessage) run(n int) error {
	m, h, out := p.msg, p.h, p.out[:0]
	for i := 0; i < n; i++ {
		h.Reset()
		h.Write(m)
		out = h.Sum(out[:0])
	}
	p.out = out
	return nil
}

func (p *macMessage) output() []byte { return p.out }

// macStream is HMAC updates on one object; Sum reads the tag without ending the stream.
type macStream struct {
	base
	h hash.Hash
}

func (p *macStream) call() string { return "hmac Write on one object" }

func (p *macStream) run(n int) error {
	m, h := p.msg, p.h
	for i := 0; i < n; i++ {
		h.Write(m)
	}
	return nil
}

func (p *macStream) output() []byte { return p.h.Sum(nil) }

type loader interface {
	cell
	load(data []byte) error
	bytes() []byte
}

func (b *base) bytes() []byte { return b.msg }

func prepare(alg, op, md string, rekey bool, key, iv, aad, ct, tag []byte) (loader, error) {
	fresh := base{fixed: -1}
	if pkSchemes[alg] != nil || pkMissing[alg] != "" {
		// A public-key cell: the private key, the public key, the prepared signature or ciphertext.
		return preparePk(alg, op, key, iv, ct)
	}
	switch {
	case op == "mac" && macs[alg] != "":
		h := newHMAC(alg, key)
		if md == "message" {
			return &macMessage{base: fresh, alg: alg, h: h, out: make([]byte, 0, h.Size())}, nil
		}
		return &macStream{base: fresh, h: h}, nil
	case op == "digest" && contains(digests, alg):
		if md == "message" {
			return &digestMessage{base: fresh, alg: alg}, nil
		}
		if n, ok := xofLengths[alg]; ok {
			return &digestStream{base: fresh, xof: newShake(alg), n: n}, nil
		}
		return &digestStream{base: fresh, h: newHash(alg)}, nil
	case contains(aeads, alg):
		if md == "stream" {
			return nil, unsupported(alg + " in stream mode (Go's cipher.AEAD seals whole messages only)")
		}
		a, err := newAEAD(alg, key)
		if err != nil {
			return nil, err
		}
		if op == "encrypt" {
			return &aeadEncrypt{base: fresh, alg: alg, a: a, key: key, nonce: iv, aad: aad, rekey: rekey}, nil
		}
		sealed := append(append([]byte{}, ct...), tag...)
		return &aeadDecrypt{base: base{fixed: len(ct)}, alg: alg, a: a, key: key, nonce: iv, aad: aad, sealed: sealed, rekey: rekey}, nil
	case contains(ciphers, alg):
		block, err := newBlock(alg, key)
		if err != nil {
			return nil, err
		}
		encrypt := op == "encrypt"
		if md == "stream" {
			name := "cipher.Stream.XORKeyStream"
			if mode(alg) == "cbc" {
				name = "cipher.BlockMode.CryptBlocks"
			} else if alg == "chacha20" {
				name = "chacha20.Cipher.XORKeyStream"
			}
			return &cipherStream{base: fresh, crypt: plainCipher(alg, block, key, iv, encrypt), name: name, blocks: mode(alg) == "cbc"}, nil
		}
		if !encrypt {
			fresh.fixed = len(ct)
		}
		return &cipherMessage{base: fresh, alg: alg, block: block, key: key, iv: iv, ct: ct, encrypt: encrypt, rekey: rekey}, nil
	}
	return nil, unsupported(alg + " (not offered by this driver for Go)")
}

// keysEveryMessage says whether every message of a `message` cell sets the key
// although the cell does not ask for it: ChaCha20 alone, whose only way to a
// new nonce is a new cipher made from the key (chacha20.NewUnauthenticatedCipher);
// the AES ciphers keep their block (the expanded key) and the AEADs their object.
func keysEveryMessage(c loader) bool {
	m, ok := c.(*cipherMessage)
	return ok && m.alg == "chacha20" && !m.rekey
}

// delta is b - a as the protocol writes it, or "-" when a clock could not be read.
func delta(a, b int64) string {
	if a < 0 || b < 0 {
		return "-"
	}
	return strconv.FormatInt(b-a, 10)
}
