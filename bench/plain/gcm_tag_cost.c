/* What one AES-128-GCM message costs in libcrypto with and without the two
 * calls in which `openssl speed` 3.x and cryptobench's message mode differ:
 * speed's loop (apps/speed.c EVP_Update_loop_aead_enc) sets the IV length
 * before every message (EVP_CTRL_AEAD_SET_IVLEN) and never reads the tag;
 * cryptobench reads it (EVP_CTRL_AEAD_GET_TAG), as a caller must, and sets
 * the IV length once. The four loops alternate, each timed for `seconds`,
 * and the fastest of `rounds` is printed per size, in ns per message.
 *
 * libcrypto is opened with dlopen, so no headers are needed; the two ctrl
 * numbers are include/openssl/evp.h's (EVP_CTRL_AEAD_SET_IVLEN =
 * EVP_CTRL_GCM_SET_IVLEN = 0x9, EVP_CTRL_AEAD_GET_TAG = 0x10).
 *
 * usage: gcm_tag_cost LIBCRYPTO ROUNDS SECONDS SIZE...  (bench/gcm-tag-cost) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define EVP_CTRL_AEAD_SET_IVLEN 0x9
#define EVP_CTRL_AEAD_GET_TAG 0x10

static void *(*ctx_new)(void);
static const void *(*aes_128_gcm)(void);
static int (*cipher_init)(void *, const void *, void *, const unsigned char *, const unsigned char *, int);
static int (*encrypt_update)(void *, unsigned char *, int *, const unsigned char *, int);
static int (*encrypt_final)(void *, unsigned char *, int *);
static int (*ctrl)(void *, int, int, void *);

static unsigned char key[16], iv[12], buf[65536 + 16], tag[16];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ns per message of one loop variant, timed for at least `seconds`. */
static double loop(void *ctx, int size, int set_ivlen, int get_tag, double seconds) {
    long count = 0;
    int outl;
    double start = now(), elapsed;
    do {
        for (int i = 0; i < 256; i++) {
            if (set_ivlen && ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) != 1) exit(3);
            if (cipher_init(ctx, NULL, NULL, key, iv, -1) != 1) exit(3);
            if (encrypt_update(ctx, buf, &outl, buf, size) != 1) exit(3);
            if (encrypt_final(ctx, buf + outl, &outl) != 1) exit(3);
            if (get_tag && ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1) exit(3);
            count++;
        }
        elapsed = now() - start;
    } while (elapsed < seconds);
    return elapsed / count * 1e9;
}

static void *symbol(void *lib, const char *name) {
    void *s = dlsym(lib, name);
    if (!s) {
        fprintf(stderr, "gcm_tag_cost: %s has no %s\n", "libcrypto", name);
        exit(2);
    }
    return s;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: gcm_tag_cost LIBCRYPTO ROUNDS SECONDS SIZE...\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "gcm_tag_cost: %s\n", dlerror());
        return 2;
    }
    ctx_new = symbol(lib, "EVP_CIPHER_CTX_new");
    aes_128_gcm = symbol(lib, "EVP_aes_128_gcm");
    cipher_init = symbol(lib, "EVP_CipherInit_ex");
    encrypt_update = symbol(lib, "EVP_EncryptUpdate");
    encrypt_final = symbol(lib, "EVP_EncryptFinal_ex");
    ctrl = symbol(lib, "EVP_CIPHER_CTX_ctrl");
    int rounds = atoi(argv[2]);
    double seconds = atof(argv[3]);
    void *ctx = ctx_new();
    if (!ctx || cipher_init(ctx, aes_128_gcm(), NULL, key, iv, 1) != 1) return 3;
    printf("size speed_loop speed_loop_get_tag no_set_ivlen no_set_ivlen_get_tag\n");
    for (int a = 4; a < argc; a++) {
        int size = atoi(argv[a]);
        if (size < 1 || size > 65536) return 2;
        double best[4] = {1e30, 1e30, 1e30, 1e30};
        for (int r = 0; r < rounds; r++)
            for (int v = 0; v < 4; v++) {
                double ns = loop(ctx, size, v < 2, v % 2, seconds);
                if (ns < best[v]) best[v] = ns;
            }
        printf("%d %.1f %.1f %.1f %.1f\n", size, best[0], best[1], best[2], best[3]);
    }
    return 0;
}
