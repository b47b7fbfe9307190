// The public-key half of the Crypto++ shim (built with shim.cpp into one
// shared object by crates/backends/build.rs; the same return codes: 0
// success, -1 failure with the message kept for cbcp_last_error, -2 a
// signature that does not verify or a ciphertext that does not decrypt).
//
// One handle per key and scheme, made outside the timing: RSA PKCS#1 v1.5
// signatures (RSASS<PKCS1v15, ...>), RSA-OAEP with SHA-256 (RSAES<OAEP<SHA256>>),
// ECDSA on P-256/384/521 (ECDSA<ECP, ...>), Ed25519 (ed25519Signer/Verifier),
// X25519 (x25519) and ECDH on P-256/384 (ECDH<ECP>::Domain). RSA and ECDSA
// sign a digest computed elsewhere, as the other libraries' cells do (ECDSA
// signatures in Crypto++'s own IEEE P1363 form: crates/backends converts
// from and to DER with the strict parser it uses for Nettle's): the
// schemes are instantiated with Prehashed<H>, a HashTransformation that
// hands back the digest it is given (the hash "of" a message that is
// already a digest), so the signature is the scheme's over that digest
// (for PKCS#1 v1.5 with H's DigestInfo, RFC 8017 §9.2). RSA-PSS
// (RSASS<PSS, ...>, salt as long as the digest) hashes M' and runs MGF1
// with the same hash object after taking the message's digest from it
// (pssr.cpp, PSSR_MEM_Base::ComputeMessageRepresentative and
// RecoverMessageFromRepresentative both call hash.Final(digest) first), so
// its schemes use PrehashedThen<H>: the digest handed back once, then H
// itself. Key generation: cbcp_pk_keygen_new/cbcp_pk_keygen (a key made
// and dropped per call, e = 65537 for RSA).

#include <cryptopp/cryptlib.h>
#include <cryptopp/eccrypto.h>
#include <cryptopp/oaep.h>
#include <cryptopp/oids.h>
#include <cryptopp/osrng.h>
#include <cryptopp/pkcspad.h>
#include <cryptopp/pssr.h>
#include <cryptopp/queue.h>
#include <cryptopp/rsa.h>
#include <cryptopp/sha.h>
#include <cryptopp/xed25519.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

using namespace CryptoPP;

// The shim's error slot (shim.cpp).
int cbcp_fail(const std::exception& e);

namespace {

// A "hash" whose value is its input: the digest a caller already computed
// (N bytes), for signature schemes over a precomputed digest. Named as H,
// whose DigestInfo PKCS#1 v1.5 puts before it.
template <class H>
class Prehashed : public HashTransformation {
public:
    CRYPTOPP_CONSTANT(DIGESTSIZE = H::DIGESTSIZE);
    static std::string StaticAlgorithmName() { return H::StaticAlgorithmName(); }
    std::string AlgorithmName() const override { return H::StaticAlgorithmName(); }
    void Update(const byte* input, size_t length) override {
        if (m_len + length > DIGESTSIZE) throw InvalidArgument("Prehashed: the input is longer than a digest");
        std::memcpy(m_buf + m_len, input, length);
        m_len += length;
    }
    unsigned int DigestSize() const override { return DIGESTSIZE; }
    void TruncatedFinal(byte* digest, size_t size) override {
        if (m_len != DIGESTSIZE) throw InvalidArgument("Prehashed: the input is not a digest");
        std::memcpy(digest, m_buf, size);
        m_len = 0;
    }
    void Restart() override { m_len = 0; }

private:
    byte m_buf[DIGESTSIZE] = {};
    size_t m_len = 0;
};

// The message's digest handed back once (as Prehashed<H>), then H itself:
// for RSA-PSS, whose encoding asks the same object for the message's
// digest first and then hashes M' and the MGF1 blocks with it. A fresh
// object per signature (Crypto++ makes an accumulator per SignMessage and
// VerifyMessage call) starts handing back.
template <class H>
class PrehashedThen : public HashTransformation {
public:
    CRYPTOPP_CONSTANT(DIGESTSIZE = H::DIGESTSIZE);
    static std::string StaticAlgorithmName() { return H::StaticAlgorithmName(); }
    std::string AlgorithmName() const override { return H::StaticAlgorithmName(); }
    void Update(const byte* input, size_t length) override {
        if (m_hashing) return m_hash.Update(input, length);
        m_digest.Update(input, length);
    }
    unsigned int DigestSize() const override { return DIGESTSIZE; }
    void TruncatedFinal(byte* digest, size_t size) override {
        if (m_hashing) return m_hash.TruncatedFinal(digest, size);
        m_digest.TruncatedFinal(digest, size);
        m_hashing = true;
    }
    void Restart() override {
        m_digest.Restart();
        m_hash.Restart();
    }

private:
    Prehashed<H> m_digest;
    H m_hash;
    bool m_hashing = false;
};

}  // namespace

namespace CryptoPP {
// PKCS#1 v1.5's DigestInfo of the digest algorithm (RFC 8017 §9.2 note 1),
// the same bytes Crypto++ defines for SHA256 (pkcspad.cpp).
template <> const byte PKCS_DigestDecoration<Prehashed<SHA256>>::decoration[] = {
    0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};
template <> const unsigned int PKCS_DigestDecoration<Prehashed<SHA256>>::length = 19;
}  // namespace CryptoPP

namespace {

// Scheme kinds, in the order of crates/backends/src/libraries/cryptopp/pk_api.rs.
enum PkKind {
    PK_RSA_PKCS1 = 0, PK_RSA_OAEP = 1, PK_ECDSA_P256 = 2, PK_ECDSA_P384 = 3, PK_ECDSA_P521 = 4,
    PK_ED25519 = 5, PK_X25519 = 6, PK_ECDH_P256 = 7, PK_ECDH_P384 = 8, PK_RSA_PSS = 9,
};

using RsaSigner = RSASS<PKCS1v15, Prehashed<SHA256>>;
using RsaPssSigner = RSASS<PSS, PrehashedThen<SHA256>>;

bool is_rsa(int kind) { return kind == PK_RSA_PKCS1 || kind == PK_RSA_OAEP || kind == PK_RSA_PSS; }

// The verifier and signer of an RSA signature kind on `key`.
template <class K>
std::unique_ptr<PK_Verifier> rsa_verifier(int kind, const K& key) {
    if (kind == PK_RSA_PSS) return std::make_unique<RsaPssSigner::Verifier>(key);
    return std::make_unique<RsaSigner::Verifier>(key);
}

std::unique_ptr<PK_Signer> rsa_signer(int kind, const RSA::PrivateKey& key) {
    if (kind == PK_RSA_PSS) return std::make_unique<RsaPssSigner::Signer>(key);
    return std::make_unique<RsaSigner::Signer>(key);
}

OID curve_of(int kind) {
    switch (kind) {
        case PK_ECDSA_P256: case PK_ECDH_P256: return ASN1::secp256r1();
        case PK_ECDSA_P384: case PK_ECDH_P384: return ASN1::secp384r1();
        default: return ASN1::secp521r1();
    }
}

std::unique_ptr<PK_Signer> ecdsa_signer(int kind, const Integer& x) {
    switch (kind) {
        case PK_ECDSA_P256: { auto s = std::make_unique<ECDSA<ECP, Prehashed<SHA256>>::Signer>(); s->AccessKey().Initialize(curve_of(kind), x); return s; }
        case PK_ECDSA_P384: { auto s = std::make_unique<ECDSA<ECP, Prehashed<SHA384>>::Signer>(); s->AccessKey().Initialize(curve_of(kind), x); return s; }
        default: { auto s = std::make_unique<ECDSA<ECP, Prehashed<SHA512>>::Signer>(); s->AccessKey().Initialize(curve_of(kind), x); return s; }
    }
}

template <class V>
std::unique_ptr<PK_Verifier> ec_verifier(int kind, const byte* point, size_t len) {
    auto v = std::make_unique<V>();
    DL_GroupParameters_EC<ECP> params(curve_of(kind));
    ECP::Point q;
    if (!params.GetCurve().DecodePoint(q, point, len)) throw InvalidArgument("not a point on the curve");
    v->AccessKey().Initialize(params, q);
    return v;
}

std::unique_ptr<PK_Verifier> ecdsa_verifier(int kind, const byte* point, size_t len) {
    switch (kind) {
        case PK_ECDSA_P256: return ec_verifier<ECDSA<ECP, Prehashed<SHA256>>::Verifier>(kind, point, len);
        case PK_ECDSA_P384: return ec_verifier<ECDSA<ECP, Prehashed<SHA384>>::Verifier>(kind, point, len);
        default: return ec_verifier<ECDSA<ECP, Prehashed<SHA512>>::Verifier>(kind, point, len);
    }
}

struct PkHandle {
    int kind;
    unsigned bits = 0;
    AutoSeededRandomPool rng;
    std::unique_ptr<PK_Signer> signer;
    std::unique_ptr<PK_Verifier> verifier;
    std::unique_ptr<PK_Encryptor> encryptor;
    std::unique_ptr<PK_Decryptor> decryptor;
    std::unique_ptr<SimpleKeyAgreementDomain> domain;
    SecByteBlock private_key;
    SecByteBlock peer_public;
    // The public key of the last pair cbcp_pk_keygen made (RSA: the modulus).
    SecByteBlock generated;
};

bool is_ecdh(int kind) { return kind == PK_ECDH_P256 || kind == PK_ECDH_P384; }
bool is_ecdsa(int kind) { return kind >= PK_ECDSA_P256 && kind <= PK_ECDSA_P521; }

}  // namespace

extern "C" {

// A handle on a key for one side of a scheme. `private_key`: the PKCS#1
// RSAPrivateKey DER, the EC scalar (big-endian) or the Ed25519/X25519
// secret; empty for a verifying or encrypting handle on `public_key`: the
// RSA SubjectPublicKeyInfo DER, the uncompressed EC point or the raw
// Ed25519 key. `peer`: the other party's public key of an agreement.
void* cbcp_pk_new(int kind, const uint8_t* private_key, size_t private_len, const uint8_t* public_key, size_t public_len,
                  const uint8_t* peer, size_t peer_len) {
    try {
        auto h = std::make_unique<PkHandle>();
        h->kind = kind;
        bool has_private = private_len > 0;
        if (is_rsa(kind)) {
            if (has_private) {
                RSA::PrivateKey key;
                ByteQueue q;
                q.Put(private_key, private_len);
                q.MessageEnd();
                key.BERDecodePrivateKey(q, false, private_len);
                if (kind != PK_RSA_OAEP) h->signer = rsa_signer(kind, key);
                else h->decryptor = std::make_unique<RSAES<OAEP<SHA256>>::Decryptor>(key);
                RSA::PublicKey pub(key);
                if (kind != PK_RSA_OAEP) h->verifier = rsa_verifier(kind, pub);
                else h->encryptor = std::make_unique<RSAES<OAEP<SHA256>>::Encryptor>(pub);
            } else {
                RSA::PublicKey pub;
                ByteQueue q;
                q.Put(public_key, public_len);
                q.MessageEnd();
                pub.BERDecode(q);
                if (kind != PK_RSA_OAEP) h->verifier = rsa_verifier(kind, pub);
                else h->encryptor = std::make_unique<RSAES<OAEP<SHA256>>::Encryptor>(pub);
            }
        } else if (is_ecdsa(kind)) {
            if (has_private) {
                h->signer = ecdsa_signer(kind, Integer(private_key, private_len));
                const auto& key = dynamic_cast<const DL_PrivateKey_EC<ECP>&>(h->signer->GetPrivateKey());
                DL_PublicKey_EC<ECP> pub;
                key.MakePublicKey(pub);
                const auto& curve = pub.GetGroupParameters().GetCurve();
                SecByteBlock point(curve.EncodedPointSize(false));
                curve.EncodePoint(point, pub.GetPublicElement(), false);
                h->verifier = ecdsa_verifier(kind, point, point.size());
            } else {
                h->verifier = ecdsa_verifier(kind, public_key, public_len);
            }
        } else if (kind == PK_ED25519) {
            if (has_private) {
                if (private_len != ed25519PrivateKey::SECRET_KEYLENGTH) throw InvalidArgument("an Ed25519 secret is 32 bytes");
                auto s = std::make_unique<ed25519Signer>(private_key);
                h->verifier = std::make_unique<ed25519Verifier>(*s);
                h->signer = std::move(s);
            } else {
                if (public_len != ed25519PublicKey::PUBLIC_KEYLENGTH) throw InvalidArgument("an Ed25519 public key is 32 bytes");
                h->verifier = std::make_unique<ed25519Verifier>(public_key);
            }
        } else if (kind == PK_X25519) {
            if (private_len != x25519::SECRET_KEYLENGTH) throw InvalidArgument("an X25519 secret is 32 bytes");
            h->domain = std::make_unique<x25519>(private_key);
            h->private_key.Assign(private_key, private_len);
            h->peer_public.Assign(peer, peer_len);
        } else if (is_ecdh(kind)) {
            auto d = std::make_unique<ECDH<ECP>::Domain>(curve_of(kind));
            if (private_len != d->PrivateKeyLength()) throw InvalidArgument("the private scalar is not the group's length");
            h->private_key.Assign(private_key, private_len);
            h->peer_public.Assign(peer, peer_len);
            h->domain = std::move(d);
        } else {
            throw InvalidArgument("unknown public-key kind");
        }
        return h.release();
    } catch (const std::exception& e) {
        cbcp_fail(e);
        return nullptr;
    }
}

void cbcp_pk_free(void* h) { delete static_cast<PkHandle*>(h); }

// A handle that makes keys of `kind` (RSA: of `bits`), one per cbcp_pk_keygen call.
void* cbcp_pk_keygen_new(int kind, unsigned bits) {
    try {
        auto h = std::make_unique<PkHandle>();
        h->kind = kind;
        h->bits = bits;
        return h.release();
    } catch (const std::exception& e) {
        cbcp_fail(e);
        return nullptr;
    }
}

// Makes a key pair and drops it: the private key and its public half
// (RSA: e = 65537, as the other libraries' cells; Crypto++'s own default is 17).
int cbcp_pk_keygen(void* handle) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (is_rsa(h->kind)) {
            InvertibleRSAFunction key;
            key.GenerateRandom(h->rng, MakeParameters(Name::ModulusSize(), (int)h->bits)(Name::PublicExponent(), Integer(65537)));
            const Integer& n = key.GetModulus();
            h->generated.New(n.MinEncodedSize());
            n.Encode(h->generated, h->generated.size());
        } else if (is_ecdsa(h->kind)) {
            DL_PrivateKey_EC<ECP> key;
            key.Initialize(h->rng, curve_of(h->kind));
            DL_PublicKey_EC<ECP> pub;
            key.MakePublicKey(pub);
            const auto& curve = pub.GetGroupParameters().GetCurve();
            h->generated.New(curve.EncodedPointSize(false));
            curve.EncodePoint(h->generated, pub.GetPublicElement(), false);
        } else if (h->kind == PK_ED25519) {
            ed25519Signer signer(h->rng);
            const auto& key = static_cast<const ed25519PrivateKey&>(signer.GetPrivateKey());
            h->generated.Assign(key.GetPublicKeyBytePtr(), ed25519PrivateKey::PUBLIC_KEYLENGTH);
        } else {
            throw InvalidArgument("no key generation for this kind");
        }
        return 0;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

// Signs `message` (a digest for RSA and ECDSA, the message for Ed25519)
// into `sig`; ECDSA signatures in Crypto++'s form, IEEE P1363 (r ‖ s, each
// as long as the group order), which the caller encodes as DER.
int cbcp_pk_sign(void* handle, const uint8_t* message, size_t len, uint8_t* sig, size_t cap, size_t* sig_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->signer) throw InvalidArgument("no private key to sign with");
        if (cap < h->signer->MaxSignatureLength()) throw InvalidArgument("the signature buffer is too small");
        *sig_len = h->signer->SignMessage(h->rng, message, len, sig);
        return 0;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

// 0 when the signature verifies, -2 when it does not (ECDSA: P1363, as signed).
int cbcp_pk_verify(void* handle, const uint8_t* message, size_t len, const uint8_t* sig, size_t sig_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->verifier) throw InvalidArgument("no public key to verify with");
        return h->verifier->VerifyMessage(message, len, sig, sig_len) ? 0 : -2;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

int cbcp_pk_encrypt(void* handle, const uint8_t* message, size_t len, uint8_t* out, size_t cap, size_t* out_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->encryptor) throw InvalidArgument("no public key to encrypt with");
        size_t n = h->encryptor->CiphertextLength(len);
        if (n == 0 || n > cap) throw InvalidArgument("the message is too long or the buffer too small");
        h->encryptor->Encrypt(h->rng, message, len, out);
        *out_len = n;
        return 0;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

// -2 when the ciphertext does not decrypt.
int cbcp_pk_decrypt(void* handle, const uint8_t* ciphertext, size_t len, uint8_t* out, size_t cap, size_t* out_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->decryptor) throw InvalidArgument("no private key to decrypt with");
        if (cap < h->decryptor->MaxPlaintextLength(len)) throw InvalidArgument("the buffer is too small");
        if (len != h->decryptor->FixedCiphertextLength()) return -2;
        DecodingResult r = h->decryptor->Decrypt(h->rng, ciphertext, len, out);
        if (!r.isValidCoding) return -2;
        *out_len = r.messageLength;
        return 0;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

// The shared secret of our private key and the peer's public key.
int cbcp_pk_derive(void* handle, uint8_t* out, size_t cap, size_t* out_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->domain) throw InvalidArgument("not a key agreement handle");
        size_t n = h->domain->AgreedValueLength();
        if (cap < n) throw InvalidArgument("the buffer is too small");
        if (!h->domain->Agree(out, h->private_key, h->peer_public, true)) throw InvalidArgument("the peer's public key is rejected");
        *out_len = n;
        return 0;
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

// The public key of the handle's private key: the uncompressed EC point
// (ECDSA, ECDH) or the raw key (Ed25519, X25519); of a key generation
// handle, the last pair's (RSA: the modulus).
int cbcp_pk_public(void* handle, uint8_t* out, size_t cap, size_t* out_len) {
    try {
        auto* h = static_cast<PkHandle*>(handle);
        if (!h->generated.empty()) {
            if (cap < h->generated.size()) throw InvalidArgument("the buffer is too small");
            std::memcpy(out, h->generated, h->generated.size());
            *out_len = h->generated.size();
            return 0;
        }
        if (h->kind == PK_ED25519 && h->verifier) {
            const auto& key = static_cast<const ed25519PublicKey&>(h->verifier->GetPublicKey());
            const byte* y = key.GetPublicKeyBytePtr();
            if (cap < 32) throw InvalidArgument("the buffer is too small");
            std::memcpy(out, y, 32);
            *out_len = 32;
            return 0;
        }
        if (h->domain) {
            size_t n = h->domain->PublicKeyLength();
            if (cap < n) throw InvalidArgument("the buffer is too small");
            h->domain->GeneratePublicKey(h->rng, h->private_key, out);
            *out_len = n;
            return 0;
        }
        if (is_ecdsa(h->kind) && h->signer) {
            const auto& key = dynamic_cast<const DL_PrivateKey_EC<ECP>&>(h->signer->GetPrivateKey());
            DL_PublicKey_EC<ECP> pub;
            key.MakePublicKey(pub);
            const auto& params = pub.GetGroupParameters();
            size_t n = params.GetCurve().EncodedPointSize(false);
            if (cap < n) throw InvalidArgument("the buffer is too small");
            params.GetCurve().EncodePoint(out, pub.GetPublicElement(), false);
            *out_len = n;
            return 0;
        }
        throw InvalidArgument("no public key computed for this kind");
    } catch (const std::exception& e) {
        return cbcp_fail(e);
    }
}

}  // extern "C"
