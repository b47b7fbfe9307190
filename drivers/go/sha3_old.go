//go:build !go1.20

package main

import "hash"

// golang.org/x/crypto/sha3 at the pinned version needs Go 1.20: this driver
// offers no SHA-3 or SHAKE on older toolchains (the Rust side reports them n/a).
var sha3Algorithms []string

// sha3Missing says why, in the driver's self-description.
const sha3Missing = "SHA-3 and SHAKE: golang.org/x/crypto/sha3 at the pinned version needs Go 1.20"

type shakeHash interface {
	Write(p []byte) (int, error)
	Read(p []byte) (int, error)
}

func newSHA3(string) hash.Hash             { return nil }
func newShake(string) shakeHash            { return nil }
func shakeRead(shakeHash, []byte)          {}
func shakeSum(string, []byte, []byte)      {}
func sha3Message(*digestMessage, int) bool { return false }
