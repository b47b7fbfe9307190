module cryptobench.local/driver

// go 1.18 so that Debian 12's Go (1.19) builds it; newer toolchains too.
go 1.18

require (
	golang.org/x/crypto v0.24.0
	golang.org/x/sys v0.21.0
)
