// Command driver is cryptobench's driver for Go's crypto packages.
//
// Built by cryptobench's runtime backend (crates/backends/src/libraries/runtime/go.rs)
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
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
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
	case "pk":
		// pk ALG OP PRIV PUB IN IN2 (crates/backends/src/libraries/runtime/pk.rs)
		b, err := p.blobs(args[2:6])
		if err != nil {
			return err
		}
		out, err := pkOnce(args[0], args[1], b[0], b[1], b[2], b[3])
		if err != nil {
			return err
		}
		header := "ok"
		for _, o := range out {
			header += fmt.Sprintf(" %d", len(o))
		}
		p.send(header, out...)
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
