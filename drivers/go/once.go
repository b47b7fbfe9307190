// One-shot calls of the Go driver: what the Rust side verifies against
// published answers before any cell is timed.
package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"fmt"
	"hash"

	"golang.org/x/crypto/chacha20"
)

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
