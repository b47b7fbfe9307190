// Self-description of the Go driver: toolchain, build settings and the CPU
// features Go's packages dispatch on.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/sys/cpu"
)

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
	algs = append(algs, pkAlgorithms()...)
	fips := fipsMode()
	return [][2]string{
		{"name", "Go crypto"},
		// "Go crypto 1.26.8 …": reports label it by the first number after its name.
		{"version", fmt.Sprintf("Go crypto %s (%s): crypto/aes, crypto/cipher, crypto/sha256, crypto/sha512; x/crypto %s (FIPS 140 mode %s)",
			strings.TrimPrefix(runtime.Version(), "go"), runtime.Version(), xcrypto, fips)},
		{"runtime", fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)},
		{"binding", "crypto/aes, crypto/cipher, crypto/hmac, crypto/md5, crypto/sha1, crypto/sha256, crypto/sha512; golang.org/x/crypto " + xcrypto + ": chacha20poly1305, chacha20, sha3, blake2b, blake2s; crypto/rsa, crypto/ecdsa, crypto/ed25519, crypto/ecdh (1.20+), crypto/mlkem (1.24+)"},
		{"underneath", "Go's own implementation, compiled into the driver (assembly where Go has it), no C library"},
		{"library_path", exe},
		{"fips", fips},
		{"build", settings},
		{"godebug", os.Getenv("GODEBUG")},
		{"cpu", cpuView()},
		{"not_offered", sha3Missing},
		{"pk_not_offered", pkNotOffered()},
		{"algorithms", strings.Join(algs, ",")},
	}
}
