// Public key in the Go driver: the seeded keys arrive as PKCS#8 (private)
// and SubjectPublicKeyInfo (public) DER, or as the 64-byte seed of ML-KEM
// (crates/backends/src/libraries/runtime/pk_keys.rs); one-shot `pk`
// requests serve verification and `prepare` makes a timed cell
// (docs/ARCHITECTURE.md, "The pipe protocol"). RSA and ECDSA sign the
// cell's message as a precomputed digest, EdDSA signs the message itself.
package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"sort"
	"strings"
)

// pkOps are one algorithm's calls on imported keys; nil where the
// algorithm has no such operation. calls names each operation's Go call.
type pkOps struct {
	sign   func(msg []byte) ([]byte, error)
	verify func(msg, sig []byte) bool
	derive func() ([]byte, error)
	encaps func() (ct, ss []byte)
	decaps func(ct []byte) ([]byte, error)
	// keygen makes a new key pair and returns its public key.
	keygen func() ([]byte, error)
	public func() ([]byte, error)
	calls  map[string]string
}

// pkSchemes make an algorithm's operations from its keys (priv or pub may be empty).
var pkSchemes = map[string]func(alg string, priv, pub []byte) (*pkOps, error){}

// pkMissing says why the toolchain has no cell of an algorithm of the catalog.
var pkMissing = map[string]string{
	"ed448":        "Go's standard library has no Ed448",
	"x448":         "Go's crypto/ecdh has no X448",
	"rsa2048-oaep": "RSA-OAEP is not in the Go driver",
	"rsa3072-oaep": "RSA-OAEP is not in the Go driver",
	"rsa4096-oaep": "RSA-OAEP is not in the Go driver",
	"mldsa44":      "Go's standard library has no ML-DSA",
	"mldsa65":      "Go's standard library has no ML-DSA",
	"mldsa87":      "Go's standard library has no ML-DSA",
}

func init() {
	for _, a := range []string{"rsa2048", "rsa3072", "rsa4096", "rsa2048-pss", "rsa3072-pss", "rsa4096-pss"} {
		pkSchemes[a] = rsaOps
	}
	for _, a := range []string{"ecdsap256", "ecdsap384", "ecdsap521"} {
		pkSchemes[a] = ecdsaOps
	}
	pkSchemes["ed25519"] = ed25519Ops
	for _, a := range []string{"slhdsa-sha2-128s", "slhdsa-sha2-128f", "slhdsa-shake-128f"} {
		pkMissing[a] = "Go's standard library has no SLH-DSA"
	}
}

func pkAlgorithms() []string {
	out := make([]string, 0, len(pkSchemes))
	for a := range pkSchemes {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

func pkNotOffered() string {
	parts := make([]string, 0, len(pkMissing))
	for a, why := range pkMissing {
		if pkSchemes[a] == nil {
			parts = append(parts, a+": "+why)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// privateKey is what PKCS#8 parses to: every key type has Public.
type privateKey interface {
	Public() crypto.PublicKey
}

func parsePrivate(priv []byte) (privateKey, error) {
	if len(priv) == 0 {
		return nil, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	s, ok := k.(privateKey)
	if !ok {
		return nil, fmt.Errorf("a %T has no public key", k)
	}
	return s, nil
}

// publicOf is the key's public key: pub where sent, else the private key's.
func publicOf(s privateKey, pub []byte) (crypto.PublicKey, error) {
	if len(pub) > 0 {
		return x509.ParsePKIXPublicKey(pub)
	}
	if s == nil {
		return nil, fmt.Errorf("no key was sent")
	}
	return s.Public(), nil
}

// sha is the digest a precomputed digest of this length stands for.
func sha(n int) crypto.Hash {
	switch n {
	case 48:
		return crypto.SHA384
	case 64:
		return crypto.SHA512
	}
	return crypto.SHA256
}

func rsaOps(alg string, priv, pub []byte) (*pkOps, error) {
	s, err := parsePrivate(priv)
	if err != nil {
		return nil, err
	}
	p, err := publicOf(s, pub)
	if err != nil {
		return nil, err
	}
	pk, ok := p.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s takes an RSA key, not a %T", alg, p)
	}
	k, _ := s.(*rsa.PrivateKey)
	ops := &pkOps{public: func() ([]byte, error) { return pk.N.Bytes(), nil }}
	if strings.HasSuffix(alg, "-pss") {
		// RSASSA-PSS, SHA-256, MGF1-SHA-256, 32-byte salt (the catalog's).
		opts := &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256}
		ops.sign = func(m []byte) ([]byte, error) { return rsa.SignPSS(rand.Reader, k, crypto.SHA256, m, opts) }
		ops.verify = func(m, sig []byte) bool { return rsa.VerifyPSS(pk, crypto.SHA256, m, sig, opts) == nil }
		ops.calls = map[string]string{"sign": "rsa.SignPSS(rand.Reader, key, crypto.SHA256, digest, salt 32)", "verify": "rsa.VerifyPSS(pub, crypto.SHA256, digest, sig, salt 32)"}
		return ops, nil
	}
	ops.sign = func(m []byte) ([]byte, error) { return rsa.SignPKCS1v15(nil, k, crypto.SHA256, m) }
	ops.verify = func(m, sig []byte) bool { return rsa.VerifyPKCS1v15(pk, crypto.SHA256, m, sig) == nil }
	ops.calls = map[string]string{"sign": "rsa.SignPKCS1v15(nil, key, crypto.SHA256, digest)", "verify": "rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest, sig)"}
	return ops, nil
}

func ecdsaOps(alg string, priv, pub []byte) (*pkOps, error) {
	s, err := parsePrivate(priv)
	if err != nil {
		return nil, err
	}
	p, err := publicOf(s, pub)
	if err != nil {
		return nil, err
	}
	pk, ok := p.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s takes an EC key, not a %T", alg, p)
	}
	k, _ := s.(*ecdsa.PrivateKey)
	curve := pk.Curve
	var kept *ecdsa.PrivateKey
	return &pkOps{
		sign:   func(m []byte) ([]byte, error) { return ecdsa.SignASN1(rand.Reader, k, m) },
		verify: func(m, sig []byte) bool { return ecdsa.VerifyASN1(pk, m, sig) },
		public: func() ([]byte, error) { return elliptic.Marshal(curve, pk.X, pk.Y), nil },
		keygen: func() ([]byte, error) {
			var err error
			kept, err = ecdsa.GenerateKey(curve, rand.Reader)
			if err != nil {
				return nil, err
			}
			return elliptic.Marshal(curve, kept.X, kept.Y), nil
		},
		calls: map[string]string{"sign": "ecdsa.SignASN1(rand.Reader, key, digest)", "verify": "ecdsa.VerifyASN1(pub, digest, sig)",
			"keygen": "ecdsa.GenerateKey(curve, rand.Reader)"},
	}, nil
}

func ed25519Ops(alg string, priv, pub []byte) (*pkOps, error) {
	s, err := parsePrivate(priv)
	if err != nil {
		return nil, err
	}
	p, err := publicOf(s, pub)
	if err != nil {
		return nil, err
	}
	pk, ok := p.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s takes an Ed25519 key, not a %T", alg, p)
	}
	k, _ := s.(ed25519.PrivateKey)
	return &pkOps{
		sign:   func(m []byte) ([]byte, error) { return ed25519.Sign(k, m), nil },
		verify: func(m, sig []byte) bool { return ed25519.Verify(pk, m, sig) },
		public: func() ([]byte, error) { return []byte(pk), nil },
		keygen: func() ([]byte, error) {
			p, _, err := ed25519.GenerateKey(rand.Reader)
			return p, err
		},
		calls: map[string]string{"sign": "ed25519.Sign(key, msg)", "verify": "ed25519.Verify(pub, msg, sig)",
			"keygen": "ed25519.GenerateKey(rand.Reader)"},
	}, nil
}

func pkOpsFor(alg string, priv, pub []byte) (*pkOps, error) {
	mk := pkSchemes[alg]
	if mk == nil {
		if why, ok := pkMissing[alg]; ok {
			return nil, unsupported(alg + ": " + why)
		}
		return nil, unsupported(alg + " (not offered by this driver for Go)")
	}
	return mk(alg, priv, pub)
}

func missingOp(alg, op string) error {
	return unsupported(fmt.Sprintf("%s %s cells (not in the Go driver)", alg, op))
}

// pkOnce answers one `pk` request: the reply's blobs.
func pkOnce(alg, op string, priv, pub, in, in2 []byte) ([][]byte, error) {
	o, err := pkOpsFor(alg, priv, pub)
	if err != nil {
		return nil, err
	}
	switch {
	case op == "public" && o.public != nil:
		p, err := o.public()
		return [][]byte{p}, err
	case op == "sign" && o.sign != nil:
		s, err := o.sign(in)
		return [][]byte{s}, err
	case op == "verify" && o.verify != nil:
		if o.verify(in, in2) {
			return [][]byte{{1}}, nil
		}
		return [][]byte{{0}}, nil
	case op == "derive" && o.derive != nil:
		s, err := o.derive()
		return [][]byte{s}, err
	case op == "encaps" && o.encaps != nil:
		ct, ss := o.encaps()
		return [][]byte{ct, ss}, nil
	case op == "decaps" && o.decaps != nil:
		ss, err := o.decaps(in)
		if err != nil {
			return nil, errAuth
		}
		return [][]byte{ss}, nil
	}
	return nil, missingOp(alg, op)
}

// pkCell is a timed public-key cell: one operation per iteration on the
// keys imported when it was prepared; a verify or decaps call checks the
// signature or ciphertext prepared with it.
type pkCell struct {
	base
	alg, op  string
	o        *pkOps
	prepared []byte
	out, ss  []byte
}

func preparePk(alg, op string, priv, pub, prepared []byte) (loader, error) {
	o, err := pkOpsFor(alg, priv, pub)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{"sign": o.sign != nil, "verify": o.verify != nil, "derive": o.derive != nil,
		"encaps": o.encaps != nil, "decaps": o.decaps != nil, "keygen": o.keygen != nil}
	if !have[op] {
		return nil, missingOp(alg, op)
	}
	return &pkCell{base: base{fixed: -1}, alg: alg, op: op, o: o, prepared: prepared}, nil
}

func (p *pkCell) call() string { return p.o.calls[p.op] }

func (p *pkCell) run(n int) error {
	var err error
	m, o := p.msg, p.o
	for i := 0; i < n; i++ {
		switch p.op {
		case "sign":
			p.out, err = o.sign(m)
		case "verify":
			if !o.verify(m, p.prepared) {
				return fmt.Errorf("a genuine signature did not verify")
			}
		case "derive":
			p.out, err = o.derive()
		case "encaps":
			p.out, p.ss = o.encaps()
		case "decaps":
			p.ss, err = o.decaps(p.prepared)
		case "keygen":
			p.out, err = o.keygen()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// output is what the Rust side checks (crates/backends/src/timed/public_key.rs):
// the signature made or verified, the secret, ciphertext ‖ secret, the new public key.
func (p *pkCell) output() []byte {
	switch p.op {
	case "verify":
		return p.prepared
	case "encaps":
		return append(append([]byte{}, p.out...), p.ss...)
	case "decaps":
		return append(append([]byte{}, p.prepared...), p.ss...)
	}
	return p.out
}
