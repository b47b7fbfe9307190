// Command driver is cryptobench's driver for Go's crypto packages.
//
// Built by cryptobench's runtime backend (crates/backends/src/runtime/go.rs)
// with `go build` and started as a child process, it speaks the pipe
// protocol of docs/ARCHITECTURE.md ("Runtime drivers") on stdin and stdout:
// one ASCII header line per request, then the raw bytes it announces. It
// holds no test vectors: the Rust side verifies every call it forwards.
//
// Timed loops run here and time themselves with time.Now/time.Since (the
// monotonic clock) and the CPU clocks of the thread and of the process (the
// garbage collector runs on other threads). Calls per mode: docs/METHOD.md.
package main

import (
	"bufio"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/sys/cpu"
)

const protocol = 1

var (
	errAuth = errors.New("authentication failed")
)

// unsupported is a cell the packages have no call for: cryptobench reports it n/a.
type unsupported string

func (u unsupported) Error() string { return string(u) }

var aeads = []string{"aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "chacha20-poly1305"}
var ciphers = []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "aes-128-ctr", "aes-192-ctr", "aes-256-ctr", "chacha20"}

// BLAKE2 from golang.org/x/crypto; SHA-3 and SHAKE (sha3_go120.go) where the
// toolchain can build golang.org/x/crypto/sha3 at the pinned version.
var digests = append([]string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b512", "blake2s256"},
	sha3Algorithms...)

// HMAC (crypto/hmac) over these digests.
var macs = map[string]string{"hmac-md5": "md5", "hmac-sha1": "sha1", "hmac-sha256": "sha256", "hmac-sha512": "sha512"}

// xofLengths: SHAKE read to the catalog's lengths (twice the security level, FIPS 202 §A.2).
var xofLengths = map[string]int{"shake128": 32, "shake256": 64}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func newAEAD(alg string, key []byte) (cipher.AEAD, error) {
	if alg == "chacha20-poly1305" {
		return chacha20poly1305.New(key)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func newHash(alg string) hash.Hash {
	switch alg {
	case "md5":
		return md5.New()
	case "sha1":
		return sha1.New()
	case "sha224":
		return sha256.New224()
	case "sha256":
		return sha256.New()
	case "sha384":
		return sha512.New384()
	case "sha512":
		return sha512.New()
	case "blake2b512":
		h, _ := blake2b.New512(nil)
		return h
	case "blake2s256":
		h, _ := blake2s.New256(nil)
		return h
	}
	return newSHA3(alg)
}

// newChaCha20 is ChaCha20 from the catalog's 16-byte IV: the 32-bit
// little-endian block counter, then the 96-bit nonce (RFC 8439 §2.3).
func newChaCha20(key, iv []byte) (*chacha20.Cipher, error) {
	if len(iv) != 16 {
		return nil, fmt.Errorf("ChaCha20 takes a 16-byte IV (counter and nonce), got %d bytes", len(iv))
	}
	c, err := chacha20.NewUnauthenticatedCipher(key, iv[4:])
	if err != nil {
		return nil, err
	}
	c.SetCounter(uint32(iv[0]) | uint32(iv[1])<<8 | uint32(iv[2])<<16 | uint32(iv[3])<<24)
	return c, nil
}

func mode(alg string) string { return alg[strings.LastIndexByte(alg, '-')+1:] }

// plainCipher runs one plain-cipher pass over src into dst (block is nil for ChaCha20).
func plainCipher(alg string, block cipher.Block, key, iv []byte, encrypt bool) func(dst, src []byte) {
	if alg == "chacha20" {
		c, err := newChaCha20(key, iv)
		if err != nil {
			panic(err)
		}
		return c.XORKeyStream
	}
	if mode(alg) == "ctr" {
		s := cipher.NewCTR(block, iv)
		return s.XORKeyStream
	}
	if encrypt {
		return cipher.NewCBCEncrypter(block, iv).CryptBlocks
	}
	return cipher.NewCBCDecrypter(block, iv).CryptBlocks
}

// --- one-shot calls (verification) ----------------------------------------

func encryptOnce(alg string, key, iv, aad, pt []byte) ([]byte, []byte, error) {
	if contains(aeads, alg) {
		a, err := newAEAD(alg, key)
		if err != nil {
			return nil, nil, err
		}
		sealed := a.Seal(nil, iv, pt, aad)
		n := len(sealed) - a.Overhead()
		return sealed[:n], sealed[n:], nil
	}
	block, err := newBlock(alg, key)
	if err != nil {
		return nil, nil, err
	}
	if mode(alg) == "cbc" && len(pt)%16 != 0 {
		return nil, nil, fmt.Errorf("CBC takes whole 16-byte blocks, got %d bytes", len(pt))
	}
	out := make([]byte, len(pt))
	plainCipher(alg, block, key, iv, true)(out, pt)
	return out, nil, nil
}

func decryptOnce(alg string, key, iv, aad, ct, tag []byte) ([]byte, error) {
	if contains(aeads, alg) {
		a, err := newAEAD(alg, key)
		if err != nil {
			return nil, err
		}
		sealed := append(append([]byte{}, ct...), tag...)
		pt, err := a.Open(nil, iv, sealed, aad)
		if err != nil {
			return nil, errAuth
		}
		return pt, nil
	}
	block, err := newBlock(alg, key)
	if err != nil {
		return nil, err
	}
	if mode(alg) == "cbc" && len(ct)%16 != 0 {
		return nil, fmt.Errorf("CBC takes whole 16-byte blocks, got %d bytes", len(ct))
	}
	out := make([]byte, len(ct))
	plainCipher(alg, block, key, iv, false)(out, ct)
	return out, nil
}

// newBlock is the AES key schedule; ChaCha20 has none (nil).
func newBlock(alg string, key []byte) (cipher.Block, error) {
	if alg == "chacha20" {
		if len(key) != chacha20.KeySize {
			return nil, fmt.Errorf("ChaCha20 takes a 32-byte key, got %d bytes", len(key))
		}
		return nil, nil
	}
	return aes.NewCipher(key)
}

func digestOnce(alg string, msg []byte) []byte {
	if n, ok := xofLengths[alg]; ok {
		out := make([]byte, n)
		shakeSum(alg, out, msg)
		return out
	}
	h := newHash(alg)
	h.Write(msg)
	return h.Sum(nil)
}

func newHMAC(alg string, key []byte) hash.Hash {
	name := macs[alg]
	return hmac.New(func() hash.Hash { return newHash(name) }, key)
}

func macOnce(alg string, key, msg []byte) []byte {
	h := newHMAC(alg, key)
	h.Write(msg)
	return h.Sum(nil)
}

// --- timed cells -------------------------------------------------------------
// buf holds the message and 16 bytes of room (for a tag); msg = buf[:len].
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

// --- self-description --------------------------------------------------------

func buildSettings() (string, string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	var xcrypto string
	for _, d := range info.Deps {
		if d.Path == "golang.org/x/crypto" {
			xcrypto = d.Version
		}
	}
	var settings []string
	for _, s := range info.Settings {
		switch s.Key {
		case "GOAMD64", "GOARM64", "GOEXPERIMENT", "GOFIPS140", "-tags", "CGO_ENABLED":
			settings = append(settings, s.Key+"="+s.Value)
		}
	}
	return xcrypto, strings.Join(settings, " ")
}

type flag struct {
	name string
	on   bool
}

func cpuView() string {
	var flags []flag
	switch runtime.GOARCH {
	case "amd64", "386":
		flags = []flag{{"aes", cpu.X86.HasAES}, {"pclmulqdq", cpu.X86.HasPCLMULQDQ}, {"avx", cpu.X86.HasAVX},
			{"avx2", cpu.X86.HasAVX2}, {"ssse3", cpu.X86.HasSSSE3}, {"sse41", cpu.X86.HasSSE41}}
	case "arm64":
		flags = []flag{{"aes", cpu.ARM64.HasAES}, {"pmull", cpu.ARM64.HasPMULL}, {"sha1", cpu.ARM64.HasSHA1},
			{"sha2", cpu.ARM64.HasSHA2}, {"sha512", cpu.ARM64.HasSHA512}}
	}
	parts := make([]string, 0, len(flags))
	for _, f := range flags {
		parts = append(parts, fmt.Sprintf("%s=%t", f.name, f.on))
	}
	return "golang.org/x/sys/cpu: " + strings.Join(parts, " ")
}

func info() [][2]string {
	xcrypto, settings := buildSettings()
	exe, _ := os.Executable()
	algs := append(append(append([]string{}, aeads...), ciphers...), digests...)
	for _, m := range []string{"hmac-md5", "hmac-sha1", "hmac-sha256", "hmac-sha512"} {
		algs = append(algs, m)
	}
	fips := fipsMode()
	return [][2]string{
		{"name", "Go crypto"},
		// "Go crypto 1.26.8 …": reports label it by the first number after its name.
		{"version", fmt.Sprintf("Go crypto %s (%s): crypto/aes, crypto/cipher, crypto/sha256, crypto/sha512; x/crypto %s (FIPS 140 mode %s)",
			strings.TrimPrefix(runtime.Version(), "go"), runtime.Version(), xcrypto, fips)},
		{"runtime", fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)},
		{"binding", "crypto/aes, crypto/cipher, crypto/hmac, crypto/md5, crypto/sha1, crypto/sha256, crypto/sha512; golang.org/x/crypto " + xcrypto + ": chacha20poly1305, chacha20, sha3, blake2b, blake2s"},
		{"underneath", "Go's own implementation, compiled into the driver (assembly where Go has it), no C library"},
		{"library_path", exe},
		{"fips", fips},
		{"build", settings},
		{"godebug", os.Getenv("GODEBUG")},
		{"cpu", cpuView()},
		{"not_offered", sha3Missing},
		{"algorithms", strings.Join(algs, ",")},
	}
}

// --- the protocol ---------------------------------------------------------------

type pipe struct {
	in  *bufio.Reader
	out *bufio.Writer
}

func (p *pipe) send(header string, blobs ...[]byte) {
	p.out.WriteString(header)
	p.out.WriteByte('\n')
	for _, b := range blobs {
		p.out.Write(b)
	}
	p.out.Flush()
}

func (p *pipe) blobs(lengths []string) ([][]byte, error) {
	out := make([][]byte, len(lengths))
	for i, s := range lengths {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, err
		}
		out[i] = make([]byte, n)
		if _, err := io.ReadFull(p.in, out[i]); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
	}
	return out, nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "no message"
	}
	return s
}

func serve(p *pipe) {
	cells := map[string]loader{}
	for {
		line, err := p.in.ReadString('\n')
		if err != nil {
			return
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		err = handle(p, cells, words[0], words[1:])
		if err == io.ErrUnexpectedEOF {
			return
		}
		var u unsupported
		switch {
		case err == nil:
		case errors.As(err, &u):
			p.send("unsupported " + oneLine(u.Error()))
		case err == errAuth:
			p.send("auth")
		default:
			p.send("err " + oneLine(err.Error()))
		}
	}
}

func handle(p *pipe, cells map[string]loader, verb string, args []string) (err error) {
	defer func() {
		// A panicking call (a wrong length the packages refuse by panicking) is an error reply.
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	switch verb {
	case "run":
		n, _ := strconv.Atoi(args[1])
		b, err := p.blobs(args[2:3])
		if err != nil {
			return err
		}
		c, ok := cells[args[0]]
		if !ok {
			return fmt.Errorf("no cell %s", args[0])
		}
		if err := c.load(b[0]); err != nil {
			return err
		}
		p0 := processCPUNanos()
		c0 := threadCPUNanos()
		t0 := time.Now()
		err = c.run(n)
		wall := time.Since(t0)
		c1 := threadCPUNanos()
		p1 := processCPUNanos()
		if err != nil {
			return err
		}
		// The thread's and the process's CPU time (the garbage collector runs on other threads).
		p.send(fmt.Sprintf("ok %d %s %s", wall.Nanoseconds(), delta(c0, c1), delta(p0, p1)), c.bytes())
	case "output":
		c, ok := cells[args[0]]
		if !ok {
			return fmt.Errorf("no cell %s", args[0])
		}
		if out := c.output(); out == nil {
			p.send("none")
		} else {
			p.send(fmt.Sprintf("ok %d", len(out)), out)
		}
	case "prepare":
		// args[5], the message size, no Go call needs in advance.
		b, err := p.blobs(args[6:11])
		if err != nil {
			return err
		}
		c, err := prepare(args[1], args[2], args[3], args[4] == "1", b[0], b[1], b[2], b[3], b[4])
		if err != nil {
			return err
		}
		cells[args[0]] = c
		call := c.call()
		keyed := 0
		if keysEveryMessage(c) {
			keyed = 1
		}
		p.send(fmt.Sprintf("ok %d %d", len(call), keyed), []byte(call))
	case "free":
		delete(cells, args[0])
		p.send("ok")
	case "encrypt":
		b, err := p.blobs(args[1:5])
		if err != nil {
			return err
		}
		if !contains(aeads, args[0]) && !contains(ciphers, args[0]) {
			return unsupported(args[0] + " (not offered by this driver for Go)")
		}
		ct, tag, err := encryptOnce(args[0], b[0], b[1], b[2], b[3])
		if err != nil {
			return err
		}
		p.send(fmt.Sprintf("ok %d %d", len(ct), len(tag)), ct, tag)
	case "decrypt":
		b, err := p.blobs(args[1:6])
		if err != nil {
			return err
		}
		if !contains(aeads, args[0]) && !contains(ciphers, args[0]) {
			return unsupported(args[0] + " (not offered by this driver for Go)")
		}
		pt, err := decryptOnce(args[0], b[0], b[1], b[2], b[3], b[4])
		if err != nil {
			return err
		}
		p.send(fmt.Sprintf("ok %d", len(pt)), pt)
	case "mac":
		b, err := p.blobs(args[1:3])
		if err != nil {
			return err
		}
		if macs[args[0]] == "" {
			return unsupported(args[0] + " (not offered by this driver for Go)")
		}
		t := macOnce(args[0], b[0], b[1])
		p.send(fmt.Sprintf("ok %d", len(t)), t)
	case "digest":
		b, err := p.blobs(args[1:2])
		if err != nil {
			return err
		}
		if !contains(digests, args[0]) {
			return unsupported(args[0] + " (not offered by this driver for Go)")
		}
		d := digestOnce(args[0], b[0])
		p.send(fmt.Sprintf("ok %d", len(d)), d)
	case "info":
		var sb strings.Builder
		for _, kv := range info() {
			if strings.TrimSpace(kv[1]) == "" {
				continue
			}
			sb.WriteString(kv[0] + "=" + oneLine(kv[1]) + "\n")
		}
		p.send(fmt.Sprintf("ok %d", sb.Len()), []byte(sb.String()))
	default:
		return fmt.Errorf("unknown request %s", verb)
	}
	return nil
}

func main() {
	// One OS thread for the loop, so that its CPU clock is the loop's.
	runtime.LockOSThread()
	p := &pipe{in: bufio.NewReaderSize(os.Stdin, 1<<16), out: bufio.NewWriterSize(os.Stdout, 1<<16)}
	p.send(fmt.Sprintf("hello %d", protocol))
	serve(p)
}
