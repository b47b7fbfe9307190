// A C face for Crypto++ (a C++ template library with no C API), built by
// crates/backends/build.rs into a small shared object that links
// libcrypto++ and is loaded at run time by the cryptopp backend
// (crates/backends/src/libraries/cryptopp). Every function catches Crypto++'s
// exceptions and returns a code: 0 success, -1 failure (the message is
// kept for cbcp_last_error), -2 a tag that does not verify.
//
// The calls mirror what Crypto++'s own benchmarks and test programs use:
// the mode objects' ProcessData (and, for XTS, ProcessLastBlock for the
// stolen tail), Resynchronize for a new IV on the kept key,
// EncryptAndAuthenticate / DecryptAndVerify for AEAD messages
// (cryptlib.h, AuthenticatedSymmetricCipher), and
// HashTransformation::CalculateDigest as the one-shot hash. MACs are
// HashTransformations too (MessageAuthenticationCode): keyed once, their
// Final restarts them under the kept key (HMAC, CMAC), so they run through
// the hash functions below; Poly1305's one-time key is set per message.

#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1

#include <cryptopp/aes.h>
#include <cryptopp/aria.h>
#include <cryptopp/blake2.h>
#include <cryptopp/camellia.h>
#include <cryptopp/chachapoly.h>
#include <cryptopp/cmac.h>
#include <cryptopp/config.h>
#include <cryptopp/cpu.h>
#include <cryptopp/cryptlib.h>
#include <cryptopp/des.h>
#include <cryptopp/gcm.h>
#include <cryptopp/hmac.h>
#include <cryptopp/md5.h>
#include <cryptopp/modes.h>
#include <cryptopp/poly1305.h>
#include <cryptopp/sha.h>
#include <cryptopp/sha3.h>
#include <cryptopp/sm3.h>
#include <cryptopp/sm4.h>
#include <cryptopp/xts.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

using namespace CryptoPP;

namespace {

thread_local std::string last_error;
thread_local std::string last_text;

int fail(const std::exception& e) {
    last_error = e.what();
    return -1;
}

// Catalog kinds, in the order of crates/backends/src/libraries/cryptopp/api.rs (Kind).
enum Kind {
    K_ECB = 0, K_CBC = 1, K_CFB = 2, K_CTR = 3, K_XTS = 4, K_GCM = 5, K_CHAPOLY = 6, K_DES3_CBC = 7,
    K_CAMELLIA_CBC = 8, K_ARIA_CBC = 9, K_SM4_CBC = 10
};

struct Session {
    virtual ~Session() {}
    virtual void rekey(const byte* key, size_t len) = 0;
    virtual void update(byte* buf, size_t len) = 0;
    // Plain modes: IV and one pass in place. AEADs: the whole message.
    virtual void seal(const byte* iv, size_t ivlen, const byte* aad, size_t aadlen, byte* buf, size_t len, byte* tag, size_t taglen) = 0;
    virtual bool open(const byte* iv, size_t ivlen, const byte* aad, size_t aadlen, const byte* in, byte* out, size_t len, const byte* tag, size_t taglen) = 0;
    virtual std::string provider() const = 0;
};

// A plain mode (ECB, CBC, CFB, CTR over AES or 3DES): one mode object in the
// session's direction, keyed with the IV; messages resynchronise it.
template <class M>
struct Plain : Session {
    M mode;
    std::string iv;
    Plain(const byte* key, size_t keylen, const byte* iv_, size_t ivlen) : iv(reinterpret_cast<const char*>(iv_), ivlen) {
        rekey(key, keylen);
    }
    void rekey(const byte* key, size_t len) override {
        if (iv.empty())
            mode.SetKey(key, len);
        else
            mode.SetKeyWithIV(key, len, reinterpret_cast<const byte*>(iv.data()), iv.size());
    }
    void update(byte* buf, size_t len) override { mode.ProcessData(buf, buf, len); }
    void seal(const byte* iv_, size_t ivlen, const byte*, size_t, byte* buf, size_t len, byte*, size_t) override {
        if (ivlen) mode.Resynchronize(iv_, static_cast<int>(ivlen));
        mode.ProcessData(buf, buf, len);
    }
    bool open(const byte* iv_, size_t ivlen, const byte*, size_t, const byte* in, byte* out, size_t len, const byte*, size_t) override {
        if (ivlen) mode.Resynchronize(iv_, static_cast<int>(ivlen));
        mode.ProcessData(out, in, len);
        return true;
    }
    std::string provider() const override { return mode.AlgorithmProvider(); }
};

// XTS: every update is one data unit under the IV as tweak; a tail that is
// not a whole block is stolen by ProcessLastBlock (xts.h).
template <class M>
struct Xts : Session {
    M mode;
    std::string iv;
    Xts(const byte* key, size_t keylen, const byte* iv_, size_t ivlen) : iv(reinterpret_cast<const char*>(iv_), ivlen) {
        rekey(key, keylen);
    }
    void rekey(const byte* key, size_t len) override {
        mode.SetKeyWithIV(key, len, reinterpret_cast<const byte*>(iv.data()), iv.size());
    }
    void unit(const byte* tweak, size_t tlen, const byte* in, byte* out, size_t len) {
        mode.Resynchronize(tweak, static_cast<int>(tlen));
        size_t rest = len % 16;
        if (rest == 0) {
            mode.ProcessData(out, in, len);
            return;
        }
        size_t head = len - 16 - rest;
        if (head) mode.ProcessData(out, in, head);
        mode.ProcessLastBlock(out + head, 16 + rest, in + head, 16 + rest);
    }
    void update(byte* buf, size_t len) override { unit(reinterpret_cast<const byte*>(iv.data()), iv.size(), buf, buf, len); }
    void seal(const byte* iv_, size_t ivlen, const byte*, size_t, byte* buf, size_t len, byte*, size_t) override {
        unit(iv_, ivlen, buf, buf, len);
    }
    bool open(const byte* iv_, size_t ivlen, const byte*, size_t, const byte* in, byte* out, size_t len, const byte*, size_t) override {
        unit(iv_, ivlen, in, out, len);
        return true;
    }
    std::string provider() const override { return mode.AlgorithmProvider(); }
};

// An AEAD: E encrypts, D decrypts (one of them used, per direction).
template <class E, class D>
struct Aead : Session {
    bool encrypt;
    E enc;
    D dec;
    std::string iv;
    Aead(bool encrypt_, const byte* key, size_t keylen, const byte* iv_, size_t ivlen)
        : encrypt(encrypt_), iv(reinterpret_cast<const char*>(iv_), ivlen) {
        rekey(key, keylen);
    }
    void rekey(const byte* key, size_t len) override {
        const byte* v = reinterpret_cast<const byte*>(iv.data());
        if (encrypt)
            enc.SetKeyWithIV(key, len, v, iv.size());
        else
            dec.SetKeyWithIV(key, len, v, iv.size());
    }
    // A stream: data only, no AAD and no tag, on the message started at the IV.
    void update(byte* buf, size_t len) override {
        if (encrypt)
            enc.ProcessData(buf, buf, len);
        else
            dec.ProcessData(buf, buf, len);
    }
    void seal(const byte* iv_, size_t ivlen, const byte* aad, size_t aadlen, byte* buf, size_t len, byte* tag, size_t taglen) override {
        enc.EncryptAndAuthenticate(buf, tag, taglen, iv_, static_cast<int>(ivlen), aad, aadlen, buf, len);
    }
    bool open(const byte* iv_, size_t ivlen, const byte* aad, size_t aadlen, const byte* in, byte* out, size_t len, const byte* tag, size_t taglen) override {
        return dec.DecryptAndVerify(out, tag, taglen, iv_, static_cast<int>(ivlen), aad, aadlen, in, len);
    }
    std::string provider() const override { return encrypt ? enc.AlgorithmProvider() : dec.AlgorithmProvider(); }
};

template <template <class> class Wrap, class Mode>
Session* directed(bool encrypt, const byte* key, size_t keylen, const byte* iv, size_t ivlen) {
    if (encrypt) return new Wrap<typename Mode::Encryption>(key, keylen, iv, ivlen);
    return new Wrap<typename Mode::Decryption>(key, keylen, iv, ivlen);
}

struct Hash {
    virtual ~Hash() {}
    virtual HashTransformation& h() = 0;
    virtual HashTransformation& scratch() = 0;
    // Before each one-shot message: a one-time MAC key is set again.
    virtual void before_message() {}
    // The digest of the stream so far, from a copy of the state.
    virtual void peek(byte* out) const = 0;
};

template <class H>
struct HashOf : Hash {
    H stream;
    H one;
    HashTransformation& h() override { return stream; }
    HashTransformation& scratch() override { return one; }
    void peek(byte* out) const override {
        H copy(stream);
        copy.Final(out);
    }
};

// A MAC keyed once: the stream object and the one-shot object share the key.
// A one-time MAC (Poly1305) is keyed again before every message, as every
// backend does (docs/METHOD.md, MACs).
template <class M, bool OneTime = false>
struct MacOf : Hash {
    M stream;
    M one;
    SecByteBlock key;
    MacOf(const byte* k, size_t len) : stream(k, len), one(k, len), key(k, len) {}
    HashTransformation& h() override { return stream; }
    HashTransformation& scratch() override { return one; }
    void before_message() override {
        if (OneTime) one.SetKey(key, key.size());
    }
    void peek(byte* out) const override {
        M copy(stream);
        copy.Final(out);
    }
};

}  // namespace

// The error slot for shim_pk.cpp, the other half of the shim.
int cbcp_fail(const std::exception& e) { return fail(e); }

extern "C" {

const char* cbcp_last_error() { return last_error.c_str(); }

// Crypto++'s version as the library reports it (LibraryVersion(), e.g. 870).
int cbcp_library_version() { return LibraryVersion(); }

// An address inside libcrypto++ itself, to find the file that was loaded.
const void* cbcp_anchor() { return reinterpret_cast<const void*>(&LibraryVersion); }

// What Crypto++ detected of the CPU (cpu.h).
const char* cbcp_cpu() {
#if CRYPTOPP_BOOL_X86 || CRYPTOPP_BOOL_X32 || CRYPTOPP_BOOL_X64
    last_text = std::string("sse2=") + (HasSSE2() ? "1" : "0") + " ssse3=" + (HasSSSE3() ? "1" : "0") +
                " sse41=" + (HasSSE41() ? "1" : "0") + " aesni=" + (HasAESNI() ? "1" : "0") +
                " clmul=" + (HasCLMUL() ? "1" : "0") + " sha=" + (HasSHA() ? "1" : "0") +
                " avx=" + (HasAVX() ? "1" : "0") + " avx2=" + (HasAVX2() ? "1" : "0");
#elif CRYPTOPP_BOOL_ARM32 || CRYPTOPP_BOOL_ARMV8
    last_text = std::string("neon=") + (HasNEON() ? "1" : "0") + " aes=" + (HasAES() ? "1" : "0") +
                " pmull=" + (HasPMULL() ? "1" : "0") + " sha1=" + (HasSHA1() ? "1" : "0") +
                " sha2=" + (HasSHA2() ? "1" : "0");
#else
    last_text = "no CPU detection on this architecture";
#endif
    return last_text.c_str();
}

void* cbcp_cipher_new(int kind, int encrypt, const uint8_t* key, size_t keylen, const uint8_t* iv, size_t ivlen) {
    try {
        bool e = encrypt != 0;
        switch (kind) {
        case K_ECB: return directed<Plain, ECB_Mode<AES>>(e, key, keylen, nullptr, 0);
        case K_CBC: return directed<Plain, CBC_Mode<AES>>(e, key, keylen, iv, ivlen);
        case K_CFB: return directed<Plain, CFB_Mode<AES>>(e, key, keylen, iv, ivlen);
        case K_CTR: return directed<Plain, CTR_Mode<AES>>(e, key, keylen, iv, ivlen);
        case K_XTS: return directed<Xts, XTS_Mode<AES>>(e, key, keylen, iv, ivlen);
        case K_GCM: return new Aead<GCM<AES>::Encryption, GCM<AES>::Decryption>(e, key, keylen, iv, ivlen);
        case K_CHAPOLY: return new Aead<ChaCha20Poly1305::Encryption, ChaCha20Poly1305::Decryption>(e, key, keylen, iv, ivlen);
        case K_DES3_CBC: return directed<Plain, CBC_Mode<DES_EDE3>>(e, key, keylen, iv, ivlen);
        case K_CAMELLIA_CBC: return directed<Plain, CBC_Mode<Camellia>>(e, key, keylen, iv, ivlen);
        case K_ARIA_CBC: return directed<Plain, CBC_Mode<ARIA>>(e, key, keylen, iv, ivlen);
        case K_SM4_CBC: return directed<Plain, CBC_Mode<SM4>>(e, key, keylen, iv, ivlen);
        default: last_error = "unknown cipher kind"; return nullptr;
        }
    } catch (const std::exception& ex) {
        fail(ex);
        return nullptr;
    }
}

int cbcp_cipher_rekey(void* s, const uint8_t* key, size_t len) {
    try {
        static_cast<Session*>(s)->rekey(key, len);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

int cbcp_cipher_update(void* s, uint8_t* buf, size_t len) {
    try {
        static_cast<Session*>(s)->update(buf, len);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

int cbcp_cipher_seal(void* s, const uint8_t* iv, size_t ivlen, const uint8_t* aad, size_t aadlen, uint8_t* buf, size_t len, uint8_t* tag, size_t taglen) {
    try {
        static_cast<Session*>(s)->seal(iv, ivlen, aad, aadlen, buf, len, tag, taglen);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

int cbcp_cipher_open(void* s, const uint8_t* iv, size_t ivlen, const uint8_t* aad, size_t aadlen, const uint8_t* in, uint8_t* out, size_t len, const uint8_t* tag, size_t taglen) {
    try {
        return static_cast<Session*>(s)->open(iv, ivlen, aad, aadlen, in, out, len, tag, taglen) ? 0 : -2;
    } catch (const std::exception& e) { return fail(e); }
}

// The implementation Crypto++ says it runs (AlgorithmProvider: "AESNI", "SSSE3", "C++", …).
const char* cbcp_cipher_provider(void* s) {
    try {
        last_text = static_cast<Session*>(s)->provider();
    } catch (const std::exception& e) {
        last_text = "";
    }
    return last_text.c_str();
}

void cbcp_cipher_free(void* s) { delete static_cast<Session*>(s); }

// Hash kinds, in the order of api.rs (HashKind).
void* cbcp_hash_new(int kind) {
    try {
        switch (kind) {
        case 0: return new HashOf<Weak::MD5>();
        case 1: return new HashOf<SHA1>();
        case 2: return new HashOf<SHA224>();
        case 3: return new HashOf<SHA256>();
        case 4: return new HashOf<SHA384>();
        case 5: return new HashOf<SHA512>();
        case 6: return new HashOf<SHA3_256>();
        case 7: return new HashOf<SHA3_512>();
        case 8: return new HashOf<BLAKE2b>();
        case 9: return new HashOf<BLAKE2s>();
        case 10: return new HashOf<SHA3_224>();
        case 11: return new HashOf<SHA3_384>();
        case 12: return new HashOf<SM3>();
        default: last_error = "unknown hash kind"; return nullptr;
        }
    } catch (const std::exception& e) {
        fail(e);
        return nullptr;
    }
}

// MAC kinds, in the order of api.rs (MacKind); the result is a hash handle.
void* cbcp_mac_new(int kind, const uint8_t* key, size_t keylen) {
    try {
        switch (kind) {
        case 0: return new MacOf<HMAC<Weak::MD5>>(key, keylen);
        case 1: return new MacOf<HMAC<SHA1>>(key, keylen);
        case 2: return new MacOf<HMAC<SHA256>>(key, keylen);
        case 3: return new MacOf<HMAC<SHA512>>(key, keylen);
        case 4: return new MacOf<CMAC<AES>>(key, keylen);
        case 5: return new MacOf<Poly1305TLS, true>(key, keylen);
        default: last_error = "unknown MAC kind"; return nullptr;
        }
    } catch (const std::exception& e) {
        fail(e);
        return nullptr;
    }
}

size_t cbcp_hash_size(void* h) { return static_cast<Hash*>(h)->h().DigestSize(); }

int cbcp_hash_digest(void* h, const uint8_t* in, size_t len, uint8_t* out) {
    try {
        Hash* hash = static_cast<Hash*>(h);
        hash->before_message();
        hash->scratch().CalculateDigest(out, in, len);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

int cbcp_hash_update(void* h, const uint8_t* in, size_t len) {
    try {
        static_cast<Hash*>(h)->h().Update(in, len);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

int cbcp_hash_peek(void* h, uint8_t* out) {
    try {
        static_cast<Hash*>(h)->peek(out);
        return 0;
    } catch (const std::exception& e) { return fail(e); }
}

const char* cbcp_hash_provider(void* h) {
    try {
        last_text = static_cast<Hash*>(h)->h().AlgorithmProvider();
    } catch (const std::exception& e) {
        last_text = "";
    }
    return last_text.c_str();
}

void cbcp_hash_free(void* h) { delete static_cast<Hash*>(h); }

}  // extern "C"
