// Plain loops in Go, outside cryptobench: testing.B benchmarks of the calls
// the Go driver times (drivers/go/driver.go), to check its figures.
//
//	go test -bench . -benchtime 20ms -count 31
//
// reports MB/s per run (b.SetBytes); bench/runtimes takes the median.
//
//	aes-128-gcm: AEAD.Seal(buf[:0], nonce, buf, aad), in place
//	sha256:      sha256.Sum256(buf)
package plain

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"os"
	"strconv"
	"testing"
)

func size() int {
	if s, err := strconv.Atoi(os.Getenv("PLAIN_SIZE")); err == nil {
		return s
	}
	return 16384
}

var sink [32]byte

func random(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

func BenchmarkAES128GCM(b *testing.B) {
	n := size()
	block, err := aes.NewCipher(random(16))
	if err != nil {
		b.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		b.Fatal(err)
	}
	nonce, aad := random(12), random(13)
	buf := make([]byte, n, n+16)
	copy(buf, random(n))
	b.SetBytes(int64(n))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		aead.Seal(buf[:0], nonce, buf, aad)
	}
}

func BenchmarkSHA256(b *testing.B) {
	buf := random(size())
	b.SetBytes(int64(len(buf)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = sha256.Sum256(buf)
	}
}
