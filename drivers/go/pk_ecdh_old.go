//go:build !go1.20

package main

func init() {
	for _, a := range []string{"x25519", "ecdhp256", "ecdhp384"} {
		pkMissing[a] = "Go before 1.20 has no crypto/ecdh"
	}
}
