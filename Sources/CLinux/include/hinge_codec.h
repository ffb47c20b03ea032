#ifndef HINGE_CODEC_H
#define HINGE_CODEC_H
// The request log's body compressors, loaded at run time: `dlopen("liblz4.so.1")` and
// `dlopen("libzstd.so.1")`, the runtime libraries of Debian's liblz4-1 and libzstd1 packages, so that
// building needs no -dev package and a machine without either library still runs (the store then keeps
// bodies uncompressed, docs/store.md#body-codec). The prototypes are our own, from the libraries'
// documented stable ABI; nothing of the libraries is vendored. Every function is safe from any thread.
#include <stddef.h>
#include <stdint.h>

/// 1 when the library was found and every symbol we use resolved (loaded once, on first call), else 0.
int hinge_lz4_available(void);
int hinge_zstd_available(void);

/// The library's version number (e.g. 10904 for 1.9.4, 10504 for 1.5.4); 0 when unavailable.
unsigned hinge_lz4_version(void);
unsigned hinge_zstd_version(void);

/// Largest output of compressing `n` bytes; 0 when unavailable (or `n` too large for the codec).
size_t hinge_lz4_bound(size_t n);
size_t hinge_zstd_bound(size_t n);

/// LZ4 block (`LZ4_compress_fast`, acceleration ≥ 1). Returns the compressed size, or 0 on failure
/// (unavailable, or `capacity` too small).
size_t hinge_lz4_compress(const void *src, size_t n, void *dst, size_t capacity, int acceleration);
/// LZ4 block (`LZ4_decompress_safe`): returns the decompressed size, or -1 on malformed input, on output
/// longer than `capacity`, or when unavailable.
long hinge_lz4_decompress(const void *src, size_t n, void *dst, size_t capacity);

/// An LZ4 dictionary prepared once, for the process's life (the bytes are copied): `LZ4_loadDict` into a
/// stream, and `LZ4F_createCDict` when liblz4 has the frame API. NULL when LZ4 is unavailable or allocation
/// failed.
void *hinge_lz4_dictionary_create(const void *dictionary, size_t n);
/// An LZ4 block that may refer to `dictionary`: the compressed size, or 0. Bodies of up to 4 KB go through
/// `hinge_lz4_compress_dictionary_block` (and are copied to `dst`); longer ones, or all when that path is
/// unavailable, start from a copy of the prepared stream's state (`LZ4_sizeofState()` bytes, about 16 KB) in a
/// per-thread stream (`LZ4_compress_fast_continue`).
size_t hinge_lz4_compress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity,
    int acceleration);
/// The same LZ4 block (decoded by `hinge_lz4_decompress_dictionary`) compressed against the dictionary where it
/// is, without copying its state: `LZ4F_compressFrame_usingCDict` into a per-thread frame. Sets `*block` to the
/// block inside that frame, valid until the thread's next call, and returns its size, which is less than `n`;
/// 0 when LZ4 could not make it smaller than `n`; -1 when this path cannot take the body (longer than 4 KB,
/// empty, no frame API, an unexpected frame).
long hinge_lz4_compress_dictionary_block(const void *dictionary, const void *src, size_t n, int acceleration,
    const unsigned char **block);
/// `LZ4_decompress_safe_usingDict`: the decompressed size, or -1.
long hinge_lz4_decompress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity);

/// A zstd frame at `level` (with a compression context kept per thread). Returns the compressed size, or 0
/// on failure.
size_t hinge_zstd_compress(const void *src, size_t n, void *dst, size_t capacity, int level);
/// A zstd frame (a decompression context kept per thread): the decompressed size, or -1 on malformed
/// input, on output longer than `capacity`, or when unavailable.
long hinge_zstd_decompress(const void *src, size_t n, void *dst, size_t capacity);

#endif
