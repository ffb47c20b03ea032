#define _GNU_SOURCE
#include "hinge_codec.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Our own prototypes of the few functions used, matching the libraries' stable, documented ABI
// (lz4.h of lz4 ≥ 1.7, zstd.h of zstd ≥ 1.3). Contexts are opaque pointers.
typedef int (*lz4_version_fn)(void);
typedef int (*lz4_bound_fn)(int inputSize);
typedef int (*lz4_compress_fast_fn)(const char *src, char *dst, int srcSize, int dstCapacity, int acceleration);
typedef int (*lz4_decompress_safe_fn)(const char *src, char *dst, int compressedSize, int dstCapacity);
typedef int (*lz4_sizeof_state_fn)(void);
typedef void *(*lz4_create_stream_fn)(void);
typedef int (*lz4_free_stream_fn)(void *stream);
typedef int (*lz4_load_dict_fn)(void *stream, const char *dictionary, int dictSize);
typedef int (*lz4_compress_continue_fn)(void *stream, const char *src, char *dst, int srcSize, int dstCapacity,
    int acceleration);
typedef int (*lz4_decompress_using_dict_fn)(const char *src, char *dst, int compressedSize, int dstCapacity,
    const char *dictionary, int dictSize);

// The frame API's preferences (lz4frame.h of lz4 ≥ 1.8: LZ4F_frameInfo_t then the level and flags). All zero but
// the level: 64 KB blocks (one block for the bodies given to it, which liblz4 then makes independent), no
// checksums, no content size, no dictID.
struct lz4f_preferences {
    int block_size_id, block_mode, content_checksum, frame_type;
    unsigned long long content_size;
    unsigned dict_id;
    int block_checksum;
    int compression_level;
    unsigned auto_flush, favor_decompression_speed, reserved[3];
};
typedef void *(*lz4f_create_cdict_fn)(const void *dictionary, size_t dictSize);
typedef size_t (*lz4f_create_cctx_fn)(void **cctx, unsigned version);
typedef size_t (*lz4f_free_cctx_fn)(void *cctx);
typedef size_t (*lz4f_compress_frame_cdict_fn)(void *cctx, void *dst, size_t dstCapacity, const void *src,
    size_t srcSize, const void *cdict, const struct lz4f_preferences *preferences);
typedef unsigned (*lz4f_is_error_fn)(size_t code);

typedef unsigned (*zstd_version_fn)(void);
typedef size_t (*zstd_bound_fn)(size_t srcSize);
typedef unsigned (*zstd_is_error_fn)(size_t code);
typedef void *(*zstd_create_fn)(void);
typedef size_t (*zstd_free_fn)(void *ctx);
typedef size_t (*zstd_compress_cctx_fn)(void *cctx, void *dst, size_t dstCapacity, const void *src, size_t srcSize,
    int level);
typedef size_t (*zstd_decompress_dctx_fn)(void *dctx, void *dst, size_t dstCapacity, const void *src,
    size_t srcSize);

static struct {
    int ok;
    lz4_version_fn version;
    lz4_bound_fn bound;
    lz4_compress_fast_fn compress;
    lz4_decompress_safe_fn decompress;
    lz4_sizeof_state_fn sizeof_state;
    lz4_create_stream_fn create_stream;
    lz4_free_stream_fn free_stream;
    lz4_load_dict_fn load_dict;
    lz4_compress_continue_fn compress_continue;
    lz4_decompress_using_dict_fn decompress_using_dict;
    // The frame API, for a dictionary used where it is (see hinge_lz4_compress_dictionary_block); optional.
    int frame_ok;
    lz4f_create_cdict_fn create_cdict;
    lz4f_create_cctx_fn create_cctx;
    lz4f_free_cctx_fn free_cctx;
    lz4f_compress_frame_cdict_fn compress_frame_cdict;
    lz4f_is_error_fn is_error;
} lz4;

// A prepared dictionary: its bytes (owned), a stream that has loaded them, and the frame API's prepared
// dictionary over the same bytes (NULL without the frame API).
struct lz4_dictionary {
    char *bytes;
    int size;
    void *stream;
    void *cdict;
};
// The per-thread stream a compression with a dictionary starts from a copy of the prepared one.
static pthread_key_t lz4_stream_key;

// The largest body compressed with the dictionary in place. Above it LZ4 itself copies the dictionary's
// table into the stream (one table to probe pays for the copy on long inputs), as the copying path does.
#define LZ4_IN_PLACE_MAX 4096
// Frame header (magic, FLG, BD, header checksum), block size, end mark.
#define LZ4F_HEADER 7
#define LZ4F_OVERHEAD (LZ4F_HEADER + 4 + 4)

// Per thread: a frame compression context and the frame it writes, whose block the caller then copies.
struct lz4_frame_scratch {
    void *cctx;
    unsigned char frame[LZ4_IN_PLACE_MAX + LZ4F_OVERHEAD + 64];
};
static pthread_key_t lz4_frame_key;

static struct {
    int ok;
    zstd_version_fn version;
    zstd_bound_fn bound;
    zstd_is_error_fn is_error;
    zstd_create_fn create_cctx;
    zstd_free_fn free_cctx;
    zstd_compress_cctx_fn compress;
    zstd_create_fn create_dctx;
    zstd_free_fn free_dctx;
    zstd_decompress_dctx_fn decompress;
} zstd;

// One compression and one decompression context per thread, freed when the thread exits.
static pthread_key_t zstd_cctx_key, zstd_dctx_key;

static void free_cctx(void *ctx) {
    if (ctx) zstd.free_cctx(ctx);
}
static void free_dctx(void *ctx) {
    if (ctx) zstd.free_dctx(ctx);
}

static void free_stream(void *stream) {
    if (stream) lz4.free_stream(stream);
}

static void free_frame_scratch(void *p) {
    struct lz4_frame_scratch *scratch = p;
    if (!scratch) return;
    if (scratch->cctx) lz4.free_cctx(scratch->cctx);
    free(scratch);
}

static void load_lz4(void) {
    // RTLD_LOCAL: the symbols stay out of the global namespace; the handle is kept for the process's life.
    void *h = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    lz4.version = (lz4_version_fn)dlsym(h, "LZ4_versionNumber");
    lz4.bound = (lz4_bound_fn)dlsym(h, "LZ4_compressBound");
    lz4.compress = (lz4_compress_fast_fn)dlsym(h, "LZ4_compress_fast");
    lz4.decompress = (lz4_decompress_safe_fn)dlsym(h, "LZ4_decompress_safe");
    lz4.sizeof_state = (lz4_sizeof_state_fn)dlsym(h, "LZ4_sizeofState");
    lz4.create_stream = (lz4_create_stream_fn)dlsym(h, "LZ4_createStream");
    lz4.free_stream = (lz4_free_stream_fn)dlsym(h, "LZ4_freeStream");
    lz4.load_dict = (lz4_load_dict_fn)dlsym(h, "LZ4_loadDict");
    lz4.compress_continue = (lz4_compress_continue_fn)dlsym(h, "LZ4_compress_fast_continue");
    lz4.decompress_using_dict = (lz4_decompress_using_dict_fn)dlsym(h, "LZ4_decompress_safe_usingDict");
    int ok = lz4.version && lz4.bound && lz4.compress && lz4.decompress && lz4.sizeof_state && lz4.create_stream
        && lz4.free_stream && lz4.load_dict && lz4.compress_continue && lz4.decompress_using_dict;
    if (ok && pthread_key_create(&lz4_stream_key, free_stream) != 0) ok = 0;
    lz4.create_cdict = (lz4f_create_cdict_fn)dlsym(h, "LZ4F_createCDict");
    lz4.create_cctx = (lz4f_create_cctx_fn)dlsym(h, "LZ4F_createCompressionContext");
    lz4.free_cctx = (lz4f_free_cctx_fn)dlsym(h, "LZ4F_freeCompressionContext");
    lz4.compress_frame_cdict = (lz4f_compress_frame_cdict_fn)dlsym(h, "LZ4F_compressFrame_usingCDict");
    lz4.is_error = (lz4f_is_error_fn)dlsym(h, "LZ4F_isError");
    lz4.frame_ok = ok && lz4.create_cdict && lz4.create_cctx && lz4.free_cctx && lz4.compress_frame_cdict
        && lz4.is_error && pthread_key_create(&lz4_frame_key, free_frame_scratch) == 0;
    lz4.ok = ok;
}

static void load_zstd(void) {
    void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    zstd.version = (zstd_version_fn)dlsym(h, "ZSTD_versionNumber");
    zstd.bound = (zstd_bound_fn)dlsym(h, "ZSTD_compressBound");
    zstd.is_error = (zstd_is_error_fn)dlsym(h, "ZSTD_isError");
    zstd.create_cctx = (zstd_create_fn)dlsym(h, "ZSTD_createCCtx");
    zstd.free_cctx = (zstd_free_fn)dlsym(h, "ZSTD_freeCCtx");
    zstd.compress = (zstd_compress_cctx_fn)dlsym(h, "ZSTD_compressCCtx");
    zstd.create_dctx = (zstd_create_fn)dlsym(h, "ZSTD_createDCtx");
    zstd.free_dctx = (zstd_free_fn)dlsym(h, "ZSTD_freeDCtx");
    zstd.decompress = (zstd_decompress_dctx_fn)dlsym(h, "ZSTD_decompressDCtx");
    int ok = zstd.version && zstd.bound && zstd.is_error && zstd.create_cctx && zstd.free_cctx && zstd.compress
        && zstd.create_dctx && zstd.free_dctx && zstd.decompress;
    if (ok && pthread_key_create(&zstd_cctx_key, free_cctx) != 0) ok = 0;
    if (ok && pthread_key_create(&zstd_dctx_key, free_dctx) != 0) ok = 0;
    zstd.ok = ok;
}

static pthread_once_t lz4_once = PTHREAD_ONCE_INIT, zstd_once = PTHREAD_ONCE_INIT;

int hinge_lz4_available(void) {
    pthread_once(&lz4_once, load_lz4);
    return lz4.ok;
}

int hinge_zstd_available(void) {
    pthread_once(&zstd_once, load_zstd);
    return zstd.ok;
}

unsigned hinge_lz4_version(void) { return hinge_lz4_available() ? (unsigned)lz4.version() : 0; }
unsigned hinge_zstd_version(void) { return hinge_zstd_available() ? zstd.version() : 0; }

size_t hinge_lz4_bound(size_t n) {
    if (!hinge_lz4_available() || n > INT_MAX) return 0;
    int b = lz4.bound((int)n);
    return b > 0 ? (size_t)b : 0;
}

size_t hinge_zstd_bound(size_t n) {
    if (!hinge_zstd_available()) return 0;
    size_t b = zstd.bound(n);
    return zstd.is_error(b) ? 0 : b;
}

size_t hinge_lz4_compress(const void *src, size_t n, void *dst, size_t capacity, int acceleration) {
    if (!hinge_lz4_available() || n > INT_MAX) return 0;
    int cap = capacity > INT_MAX ? INT_MAX : (int)capacity;
    int r = lz4.compress((const char *)src, (char *)dst, (int)n, cap, acceleration < 1 ? 1 : acceleration);
    return r > 0 ? (size_t)r : 0;
}

long hinge_lz4_decompress(const void *src, size_t n, void *dst, size_t capacity) {
    if (!hinge_lz4_available() || n > INT_MAX) return -1;
    int cap = capacity > INT_MAX ? INT_MAX : (int)capacity;
    int r = lz4.decompress((const char *)src, (char *)dst, (int)n, cap);
    return r < 0 ? -1 : (long)r;
}

void *hinge_lz4_dictionary_create(const void *dictionary, size_t n) {
    if (!hinge_lz4_available() || n == 0 || n > 65536) return NULL;
    struct lz4_dictionary *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->bytes = malloc(n);
    d->stream = lz4.create_stream();
    if (!d->bytes || !d->stream) {
        free(d->bytes);
        if (d->stream) lz4.free_stream(d->stream);
        free(d);
        return NULL;
    }
    memcpy(d->bytes, dictionary, n);
    d->size = (int)n;
    lz4.load_dict(d->stream, d->bytes, d->size);
    // Its own copy of the bytes, hashed once; NULL leaves only the copying path.
    if (lz4.frame_ok) d->cdict = lz4.create_cdict(d->bytes, n);
    return d;
}

long hinge_lz4_compress_dictionary_block(const void *dictionary, const void *src, size_t n, int acceleration,
    const unsigned char **block) {
    const struct lz4_dictionary *d = dictionary;
    if (!d || !d->cdict || n == 0 || n > LZ4_IN_PLACE_MAX || !block) return -1;
    struct lz4_frame_scratch *scratch = pthread_getspecific(lz4_frame_key);
    if (!scratch) {
        scratch = calloc(1, sizeof *scratch);
        if (!scratch) return -1;
        if (lz4.is_error(lz4.create_cctx(&scratch->cctx, 100)) || pthread_setspecific(lz4_frame_key, scratch) != 0) {
            free_frame_scratch(scratch);
            return -1;
        }
    }
    // The frame API attaches the prepared dictionary to the context (LZ4_attach_dictionary, which liblz4 does
    // not export): the block is compressed against the dictionary's own table, nothing copied. Level −k is
    // acceleration k + 1.
    struct lz4f_preferences preferences = {0};
    preferences.compression_level = acceleration > 1 ? 1 - acceleration : 0;
    size_t r = lz4.compress_frame_cdict(scratch->cctx, scratch->frame, sizeof scratch->frame, src, n, d->cdict,
        &preferences);
    if (lz4.is_error(r) || r < LZ4F_OVERHEAD) return -1;
    const unsigned char *f = scratch->frame;
    // Magic 0x184D2204, then FLG: version 01, none of dictID (bit 0), content checksum (2), content size (3),
    // block checksum (4); anything else is a frame this function does not read.
    if (f[0] != 0x04 || f[1] != 0x22 || f[2] != 0x4D || f[3] != 0x18 || (f[4] & 0xC0) != 0x40 || (f[4] & 0x1D) != 0)
        return -1;
    uint32_t size = (uint32_t)f[7] | (uint32_t)f[8] << 8 | (uint32_t)f[9] << 16 | (uint32_t)f[10] << 24;
    // The high bit marks a block LZ4 stored uncompressed: nothing saved.
    if (size & 0x80000000u) return 0;
    if (r != LZ4F_OVERHEAD + size || size == 0) return -1;
    *block = f + LZ4F_HEADER + 4;
    return (long)size;
}

size_t hinge_lz4_compress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity,
    int acceleration) {
    const struct lz4_dictionary *d = dictionary;
    if (!d || !hinge_lz4_available() || n > INT_MAX) return 0;
    const unsigned char *block = NULL;
    long in_place = hinge_lz4_compress_dictionary_block(dictionary, src, n, acceleration, &block);
    if (in_place == 0) return 0;
    if (in_place > 0) {
        if ((size_t)in_place > capacity) return 0;
        memcpy(dst, block, (size_t)in_place);
        return (size_t)in_place;
    }
    void *stream = pthread_getspecific(lz4_stream_key);
    if (!stream) {
        stream = lz4.create_stream();
        if (!stream || pthread_setspecific(lz4_stream_key, stream) != 0) {
            if (stream) lz4.free_stream(stream);
            return 0;
        }
    }
    // The prepared state (hash table over the dictionary, which stays where it is) copied, as lz4.h allows
    // for a stream that loaded a dictionary: cheaper than LZ4_loadDict per body.
    memcpy(stream, d->stream, (size_t)lz4.sizeof_state());
    int cap = capacity > INT_MAX ? INT_MAX : (int)capacity;
    int r = lz4.compress_continue(stream, (const char *)src, (char *)dst, (int)n, cap, acceleration < 1 ? 1 : acceleration);
    return r > 0 ? (size_t)r : 0;
}

long hinge_lz4_decompress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity) {
    const struct lz4_dictionary *d = dictionary;
    if (!d || !hinge_lz4_available() || n > INT_MAX) return -1;
    int cap = capacity > INT_MAX ? INT_MAX : (int)capacity;
    int r = lz4.decompress_using_dict((const char *)src, (char *)dst, (int)n, cap, d->bytes, d->size);
    return r < 0 ? -1 : (long)r;
}

size_t hinge_zstd_compress(const void *src, size_t n, void *dst, size_t capacity, int level) {
    if (!hinge_zstd_available()) return 0;
    void *cctx = pthread_getspecific(zstd_cctx_key);
    if (!cctx) {
        cctx = zstd.create_cctx();
        if (!cctx || pthread_setspecific(zstd_cctx_key, cctx) != 0) {
            if (cctx) zstd.free_cctx(cctx);
            return 0;
        }
    }
    size_t r = zstd.compress(cctx, dst, capacity, src, n, level);
    return zstd.is_error(r) ? 0 : r;
}

long hinge_zstd_decompress(const void *src, size_t n, void *dst, size_t capacity) {
    if (!hinge_zstd_available()) return -1;
    void *dctx = pthread_getspecific(zstd_dctx_key);
    if (!dctx) {
        dctx = zstd.create_dctx();
        if (!dctx || pthread_setspecific(zstd_dctx_key, dctx) != 0) {
            if (dctx) zstd.free_dctx(dctx);
            return -1;
        }
    }
    size_t r = zstd.decompress(dctx, dst, capacity, src, n);
    return zstd.is_error(r) || r > LONG_MAX ? -1 : (long)r;
}
