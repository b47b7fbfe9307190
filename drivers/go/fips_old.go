//go:build !go1.24

package main

// fipsMode: Go before 1.24 has no FIPS 140 mode (only the boringcrypto experiment, see the build settings).
func fipsMode() string { return "none before Go 1.24" }
