//go:build !go1.24

package main

import "runtime"

func init() {
	for _, a := range []string{"mlkem512", "mlkem768", "mlkem1024"} {
		pkMissing[a] = runtime.Version() + " has no crypto/mlkem (Go 1.24+)"
	}
}
