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

/// An LZ4 dictionary prepared once (`LZ4_loadDict` into a stream kept for the process's life; the bytes are
/// copied): compressing with it copies that stream's state (`LZ4_sizeofState()` bytes) into a per-thread
/// stream instead of hashing the dictionary again. NULL when LZ4 is unavailable or allocation failed.
void *hinge_lz4_dictionary_create(const void *dictionary, size_t n);
/// An LZ4 block that may refer to `dictionary` (`LZ4_compress_fast_continue`): the compressed size, or 0.
size_t hinge_lz4_compress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity,
    int acceleration);
/// `LZ4_decompress_safe_usingDict`: the decompressed size, or -1.
long hinge_lz4_decompress_dictionary(const void *dictionary, const void *src, size_t n, void *dst, size_t capacity);

/// A zstd frame at `level` (with a compression context kept per thread). Returns the compressed size, or 0
/// on failure.
size_t hinge_zstd_compress(const void *src, size_t n, void *dst, size_t capacity, int level);
/// A zstd frame (a decompression context kept per thread): the decompressed size, or -1 on malformed
/// input, on output longer than `capacity`, or when unavailable.
long hinge_zstd_decompress(const void *src, size_t n, void *dst, size_t capacity);

#endif
