//go:build go1.20

package main

import (
	"hash"

	"golang.org/x/crypto/sha3"
)

// SHA-3 and SHAKE from golang.org/x/crypto/sha3, which at the pinned version
// needs Go 1.20 (crypto/subtle.XORBytes); older toolchains offer neither.
var sha3Algorithms = []string{"sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128", "shake256"}

const sha3Missing = ""

// shakeHash is what a SHAKE stream needs: absorb, copy, squeeze.
type shakeHash interface {
	Write(p []byte) (int, error)
	Read(p []byte) (int, error)
	Clone() sha3.ShakeHash
}

func newSHA3(alg string) hash.Hash {
	switch alg {
	case "sha3-224":
		return sha3.New224()
	case "sha3-256":
		return sha3.New256()
	case "sha3-384":
		return sha3.New384()
	case "sha3-512":
		return sha3.New512()
	}
	return nil
}

func newShake(alg string) shakeHash {
	if alg == "shake256" {
		return sha3.NewShake256()
	}
	return sha3.NewShake128()
}

// shakeRead squeezes a copy, so that the stream goes on absorbing.
func shakeRead(x shakeHash, out []byte) { x.Clone().Read(out) }

func shakeSum(alg string, out, msg []byte) {
	if alg == "shake256" {
		sha3.ShakeSum256(out, msg)
	} else {
		sha3.ShakeSum128(out, msg)
	}
}

// sha3Message runs n one-shot SHA-3 or SHAKE calls of a message cell; false for another algorithm.
func sha3Message(p *digestMessage, n int) bool {
	m := p.msg
	switch p.alg {
	case "sha3-224":
		for i := 0; i < n; i++ {
			p.d28 = sha3.Sum224(m)
		}
		p.out = p.d28[:]
	case "sha3-256":
		for i := 0; i < n; i++ {
			p.d32 = sha3.Sum256(m)
		}
		p.out = p.d32[:]
	case "sha3-384":
		for i := 0; i < n; i++ {
			p.d48 = sha3.Sum384(m)
		}
		p.out = p.d48[:]
	case "sha3-512":
		for i := 0; i < n; i++ {
			p.d64 = sha3.Sum512(m)
		}
		p.out = p.d64[:]
	case "shake128":
		for i := 0; i < n; i++ {
			sha3.ShakeSum128(p.d32[:], m)
		}
		p.out = p.d32[:]
	case "shake256":
		for i := 0; i < n; i++ {
			sha3.ShakeSum256(p.d64[:], m)
		}
		p.out = p.d64[:]
	default:
		return false
	}
	return true
}
