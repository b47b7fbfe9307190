//go:build go1.24

package main

import "crypto/fips140"

// fipsMode says whether Go's FIPS 140-3 mode is on (GODEBUG=fips140=on|only, Go 1.24+).
func fipsMode() string {
	if fips140.Enabled() {
		return "on"
	}
	return "off"
}
