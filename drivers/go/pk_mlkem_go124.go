//go:build go1.24

package main

import (
	"crypto/mlkem"
	"fmt"
)

// crypto/mlkem (Go 1.24+): ML-KEM-768 and ML-KEM-1024, keys from their
// 64-byte seed d‖z (FIPS 203 §7.1).
func init() {
	pkSchemes["mlkem768"] = mlkem768Ops
	pkSchemes["mlkem1024"] = mlkem1024Ops
	pkMissing["mlkem512"] = "Go's crypto/mlkem has ML-KEM-768 and ML-KEM-1024, not ML-KEM-512"
}

func mlkemCalls(n string) map[string]string {
	return map[string]string{"encaps": "mlkem.EncapsulationKey" + n + ".Encapsulate()",
		"decaps": "mlkem.DecapsulationKey" + n + ".Decapsulate(ct)", "keygen": "mlkem.GenerateKey" + n + "()"}
}

func mlkem768Ops(alg string, seed, _ []byte) (*pkOps, error) {
	dk, err := mlkem.NewDecapsulationKey768(seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", alg, err)
	}
	ek := dk.EncapsulationKey()
	var kept *mlkem.DecapsulationKey768
	return &pkOps{
		public: func() ([]byte, error) { return ek.Bytes(), nil },
		encaps: func() ([]byte, []byte) { ss, ct := ek.Encapsulate(); return ct, ss },
		decaps: dk.Decapsulate,
		keygen: func() ([]byte, error) {
			kept, err = mlkem.GenerateKey768()
			if err != nil {
				return nil, err
			}
			return kept.EncapsulationKey().Bytes(), nil
		},
		calls: mlkemCalls("768"),
	}, nil
}

func mlkem1024Ops(alg string, seed, _ []byte) (*pkOps, error) {
	dk, err := mlkem.NewDecapsulationKey1024(seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", alg, err)
	}
	ek := dk.EncapsulationKey()
	var kept *mlkem.DecapsulationKey1024
	return &pkOps{
		public: func() ([]byte, error) { return ek.Bytes(), nil },
		encaps: func() ([]byte, []byte) { ss, ct := ek.Encapsulate(); return ct, ss },
		decaps: dk.Decapsulate,
		keygen: func() ([]byte, error) {
			kept, err = mlkem.GenerateKey1024()
			if err != nil {
				return nil, err
			}
			return kept.EncapsulationKey().Bytes(), nil
		},
		calls: mlkemCalls("1024"),
	}, nil
}
