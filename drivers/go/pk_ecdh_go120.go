//go:build go1.20

package main

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"fmt"
)

// crypto/ecdh (Go 1.20+): X25519 and ECDH on P-256 and P-384. PKCS#8
// parses an EC key as *ecdsa.PrivateKey, which converts with ECDH().
func init() {
	for _, a := range []string{"x25519", "ecdhp256", "ecdhp384"} {
		pkSchemes[a] = ecdhOps
	}
}

func ecdhKey(k interface{}) (*ecdh.PrivateKey, error) {
	switch k := k.(type) {
	case *ecdh.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		return k.ECDH()
	}
	return nil, fmt.Errorf("a %T is not a key-agreement key", k)
}

func ecdhPublic(k interface{}) (*ecdh.PublicKey, error) {
	switch k := k.(type) {
	case *ecdh.PublicKey:
		return k, nil
	case *ecdsa.PublicKey:
		return k.ECDH()
	}
	return nil, fmt.Errorf("a %T is not a key-agreement public key", k)
}

func ecdhOps(alg string, priv, pub []byte) (*pkOps, error) {
	s, err := parsePrivate(priv)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("%s needs a private key", alg)
	}
	k, err := ecdhKey(s)
	if err != nil {
		return nil, err
	}
	ops := &pkOps{
		public: func() ([]byte, error) { return k.PublicKey().Bytes(), nil },
		calls:  map[string]string{"derive": "ecdh.PrivateKey.ECDH(peer)"},
	}
	if len(pub) > 0 {
		p, err := parsePeer(pub)
		if err != nil {
			return nil, err
		}
		ops.derive = func() ([]byte, error) { return k.ECDH(p) }
	}
	return ops, nil
}

func parsePeer(pub []byte) (*ecdh.PublicKey, error) {
	p, err := publicOf(nil, pub)
	if err != nil {
		return nil, err
	}
	return ecdhPublic(p)
}
