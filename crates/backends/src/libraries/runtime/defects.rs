//! The runtimes' known defects (data: crate::known_defects says what each
//! field means). Java's read in the JDK's own sources: Temurin 25's src.zip
//! (sun/security/ec/ECDSAOperations.java) and the change that brought its
//! verification there; Go's in Debian 12's golang-1.19-src and Go 1.26's
//! source.

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

/// Go's (crypto/rsa's) known defects.
pub static GO: &[KnownDefect] = &[KnownDefect {
    id: "go-rsa-s-range",
    algorithms: &["rsa2048", "rsa3072", "rsa4096", "rsa2048-pss", "rsa3072-pss", "rsa4096-pss"],
    operation: Operation::Verify,
    found_by: &[
        FoundBy::Mutation(Mutation::RsaSPlusN),
        FoundBy::Vectors {
            file: "rsa_signature_2048_sha256_test.json",
            tc_ids: &[244],
        },
    ],
    cause: "VerifyPKCS1v15 and VerifyPSS read the signature with big.Int.SetBytes and raise it to e with \
            big.Int.Exp(m, e, N) (crypto/rsa/rsa.go, encrypt), never comparing it with N: s + n gives the \
            same message representative",
    rule: "RFC 8017 §5.2.2 (RSAVP1) step 1: if the signature representative s is not between 0 \
           and n - 1, output 'signature representative out of range' (§8.1.2 and §8.2.2 then reject)",
    affected: "Go to 1.19 (1.19.8, Debian 12's golang, measured: s + n and Wycheproof \
               rsa_signature_2048_sha256 tcId 244 accepted)",
    fixed_in: Some("1.20"),
    fixed: "fixed when crypto/rsa moved to crypto/internal/bigmod (Go 1.20): encrypt reads the \
            signature with bigmod.NewNat().SetBytes(sig, N), which fails for a value of N or more; \
            Go 1.26.8 rejects both cases",
    source: "go-1.19 src/crypto/rsa/rsa.go, encrypt: 'c.Exp(m, e, pub.N)' after 'c := new(big.Int).SetBytes(sig)' \
             in pkcs1v15.go; Go 1.26 src/crypto/internal/fips140/rsa/rsa.go, encrypt: \
             'm, err := bigmod.NewNat().SetBytes(plaintext, pub.N)'",
}];

/// Java's (SunEC's) known defects.
pub static JAVA: &[KnownDefect] = &[
    KnownDefect {
        id: "java-ecdsa-der-missing-zero",
        algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Vectors {
                file: "ecdsa_secp256r1_sha256_test.json",
                tc_ids: &[6],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp384r1_sha384_test.json",
                tc_ids: &[6],
            },
        ],
        cause: "ECUtil.decodeSignature reads r and s with DerValue.getPositiveBigInteger, which takes an \
                INTEGER's bytes as an unsigned magnitude (getBigIntegerInternal(tag_Integer, true)): \
                an s whose encoding lacks the leading 0 byte, a negative INTEGER in DER, is read as the \
                positive s and the signature verifies",
        rule: "X.690 §8.3 (DER INTEGER, two's complement) and SEC 1 §C.8: r and s are non-negative INTEGERs; \
               Wycheproof marks such a signature invalid (MissingZero, which names the JDK)",
        affected: "Java 17 (17.0.15 measured) to 25 (its source reads r and s the same way)",
        fixed_in: None,
        fixed: "not fixed: sun/security/util/ECUtil.java in Temurin 25.0.3's src.zip still calls getPositiveBigInteger",
        source: "sun/security/util/ECUtil.java, decodeSignature: 'BigInteger r = values[0].getPositiveBigInteger();' \
                 (Temurin 25.0.3 src.zip)",
    },
    KnownDefect {
        id: "java-ecdsa-x-not-reduced",
        algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Vectors {
                file: "ecdsa_secp256r1_sha256_test.json",
                tc_ids: &[350, 479],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp384r1_sha384_test.json",
                tc_ids: &[382, 499],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp521r1_sha512_test.json",
                tc_ids: &[419, 537],
            },
        ],
        cause: "ECDSAOperations.verifySignedDigest (SunEC) computes r - x(R) in the field of the curve \
            (result.additiveInverse().add(ri)) and then tests that value, reduced mod n, for zero: \
            where x(R) >= n, r = x(R) - n and r - x(R) = -n mod p is not 0 mod n, \
            so a valid signature whose R has a large x coordinate is rejected",
        rule: "FIPS 186-5 §6.4.2: the signature is valid when the x coordinate of R = u1*G + u2*Q, \
           reduced mod n, equals r (Wycheproof: 'k*G has a large x-coordinate')",
        affected: "Java 17 (17.0.15 measured: Wycheproof ecdsa_secp256r1_sha256 tcIds 350 and 479, ecdsa_secp384r1_sha384 tcIds 382 and 499, ecdsa_secp521r1_sha512 tcIds 419 and 537 rejected)",
        fixed_in: Some("25"),
        fixed: "fixed by JDK 25 at the latest (its verifySignedDigest reduces x(R) mod n with b2a and compares it \
            with r; Temurin 25.0 accepts both cases); the first release with the change is not known here, \
            and JDK 17 updates do not have it",
        source: "a 2022 change to ECDSAOperations.java: '- result = result.additiveInverse().add(ri); ... \
             - return ECOperations.allZero(temp1); + return MessageDigest.isEqual(temp1, r);'",
    },
    KnownDefect {
        id: "java-eddsa-signature-length",
        algorithms: &["ed25519", "ed448"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Vectors {
                file: "ed25519_test.json",
                tc_ids: &[37],
            },
            FoundBy::Vectors {
                file: "ed448_test.json",
                tc_ids: &[37],
            },
        ],
        cause: "EdDSAOperations.verify splits the signature at signature.length / 2 into R and S; \
                without a length check before it, a 65-byte signature with a 0 byte appended splits into \
                R and an S one byte longer of the same little-endian value, and verifies \
                (Temurin 25's verify first throws 'signature length invalid' unless the length is twice the key's)",
        rule: "RFC 8032 §5.1.7 and §5.2.7: the signature is 64 (Ed25519) or 114 (Ed448) bytes, its first half R and its second half S; \
               Wycheproof marks a signature with a byte appended invalid",
        affected: "Java 17 (17.0.15 measured: ed25519_test.json and ed448_test.json tcId 37 accepted)",
        fixed_in: Some("25"),
        fixed: "fixed by JDK 25 at the latest (Temurin 25.0.3 rejects tcId 37 with 'signature length invalid'); \
                the first release with the check is not known here",
        source: "sun/security/ec/ed/EdDSAOperations.java, verify: \
                 'if (params.getKeyLength() * 2 != signature.length) throw new SignatureException(\"signature length invalid\")' \
                 (Temurin 25.0.3 src.zip)",
    },
];
