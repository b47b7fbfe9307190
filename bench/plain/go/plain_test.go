//go:build linux

// Plain loops in Go, outside cryptobench: testing.B benchmarks of the calls
// the Go driver times (drivers/go/driver.go), to check its figures.
//
//	go test -bench . -benchtime 20ms -count 31
//
// reports MB/s per run (b.SetBytes, by the wall clock) and cpu-MB/s (by the
// CPU time of the thread the loop is locked to, Linux); bench/runtimes takes
// the medians.
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
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// threadCPU is CLOCK_THREAD_CPUTIME_ID of the calling thread, in ns (-1 where unreadable).
func threadCPU() int64 {
	var ts syscall.Timespec
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}

// timeLoop runs b.N calls on one locked thread and reports the CPU-time rate beside the wall-clock one.
func timeLoop(b *testing.B, n int, call func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(n))
	b.ResetTimer()
	c0 := threadCPU()
	for i := 0; i < b.N; i++ {
		call()
	}
	c1 := threadCPU()
	b.StopTimer()
	if c0 >= 0 && c1 > c0 {
		b.ReportMetric(float64(n)*float64(b.N)/float64(c1-c0)*1e3, "cpu-MB/s")
	}
}

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
	timeLoop(b, n, func() { aead.Seal(buf[:0], nonce, buf, aad) })
}

func BenchmarkSHA256(b *testing.B) {
	buf := random(size())
	timeLoop(b, len(buf), func() { sink = sha256.Sum256(buf) })
}
