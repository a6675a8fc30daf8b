/*
 * kernel_frames.c — the embedded kernel frames (kernel_blobs.h), decompressed
 * on first use, checked, and kept for the process.
 *
 * A frame is decompressed under one lock (each frame once per process; the
 * lock is taken only until then) and published with release semantics, so
 * the lock-free fast path sees the bytes it points to. A corrupt frame is an
 * error of the request that needed it, never a crash: zstd checks the
 * frame's own XXH64 while it decompresses, and the size and CRC-32 that
 * the generator recorded are checked after it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "common/test_hooks.h"
#include "programs/kernel_blobs.h"

static pthread_mutex_t g_decompress_lock = PTHREAD_MUTEX_INITIALIZER;

/* CRC-32 as zlib computes it (reflected polynomial 0xEDB88320), the
 * generator's check of a frame: a table a byte, built once under the lock. */
static uint32_t g_crc_table[256];

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    if (!g_crc_table[1]) {
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            g_crc_table[i] = c;
        }
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i)
        c = g_crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* The frame's compressed bytes; under the test hook a copy with one byte
 * flipped (*copy holds it, for the caller to free), as a damaged library
 * file would have. */
static const unsigned char *compressed_input(const zs_frame *f, unsigned char **copy)
{
    *copy = NULL;
    if (!zs_test_corrupt_kernels() || f->zsize == 0)
        return f->zdata;
    *copy = malloc(f->zsize);
    if (!*copy)
        return NULL;
    memcpy(*copy, f->zdata, f->zsize);
    (*copy)[f->zsize / 2] ^= 0xff;
    return *copy;
}

/* Decompresses and checks frame f, with the decompressed bytes of its
 * dictionary frame (dict, dict_size; NULL when it has none), into a new
 * buffer (*out); the caller holds the lock. */
static zesort_status decompress(const zs_frame *f, const unsigned char *dict, size_t dict_size,
                                unsigned char **out, zs_error *e)
{
    *out = NULL;
    unsigned char *copy;
    const unsigned char *src = compressed_input(f, &copy);
    unsigned char *raw = malloc(f->size ? f->size : 1);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (!src || !raw || !dctx) {
        free(copy);
        free(raw);
        ZSTD_freeDCtx(dctx);
        return zs_error_set(e, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "no memory to decompress the embedded kernel binaries for %s "
                            "(%zu bytes)", f->name, f->size);
    }
    /* a dictionary that is not in zstd's dictionary format (SPIR-V is not)
     * is taken as raw content, as the generator's zstd -D used it */
    size_t got = ZSTD_decompress_usingDict(dctx, raw, f->size, src, f->zsize, dict, dict_size);
    ZSTD_freeDCtx(dctx);
    free(copy);
    const char *why = NULL;
    if (ZSTD_isError(got))
        why = ZSTD_getErrorName(got);
    else if (got != f->size)
        why = "wrong size";
    else if (crc32_of(raw, got) != f->crc32)
        why = "checksum mismatch";
    if (why) {
        free(raw);
        return zs_error_set(e, ZESORT_ERROR_BACKEND,
                            "embedded kernel binaries for %s are corrupt: %s (%zu bytes "
                            "expected); the zesort library file is damaged", f->name, why,
                            f->size);
    }
    *out = raw;
    return ZESORT_OK;
}

zesort_status zs_frame_data(unsigned index, const unsigned char **out, zs_error *e)
{
    *out = NULL;
    if (index >= zs_frame_count)
        return zs_error_set(e, ZESORT_ERROR_BACKEND, "no embedded kernel frame %u", index);
    const unsigned char *ready =
        atomic_load_explicit(&zs_frame_cache[index], memory_order_acquire);
    if (ready) {
        *out = ready;
        return ZESORT_OK;
    }
    const zs_frame *f = &zs_frames[index];
    const unsigned char *dict = NULL;
    size_t dict_size = 0;
    if (f->dict >= 0) { /* before the lock, which it takes itself */
        zesort_status st = zs_frame_data((unsigned)f->dict, &dict, e);
        if (st != ZESORT_OK)
            return st;
        dict_size = zs_frames[f->dict].size;
    }
    zesort_status st = ZESORT_OK;
    pthread_mutex_lock(&g_decompress_lock);
    ready = atomic_load_explicit(&zs_frame_cache[index], memory_order_acquire);
    if (!ready) { /* not another thread's meanwhile */
        unsigned char *raw;
        st = decompress(f, dict, dict_size, &raw, e);
        if (st == ZESORT_OK) {
            atomic_store_explicit(&zs_frame_cache[index], raw, memory_order_release);
            ready = raw;
        }
    }
    pthread_mutex_unlock(&g_decompress_lock);
    *out = ready;
    return st;
}

zesort_status zs_blob_data(const zs_blob *b, const unsigned char **out, zs_error *e)
{
    const unsigned char *frame;
    zesort_status st = zs_frame_data(b->frame, &frame, e);
    *out = st == ZESORT_OK ? frame + b->offset : NULL;
    return st;
}

zesort_status zs_program_source(zs_program program, const char **out, zs_error *e)
{
    *out = NULL;
    if ((unsigned)program >= ZS_PROG_COUNT)
        return zs_error_set(e, ZESORT_ERROR_INVALID_ARGUMENT, "program %d has no source",
                            (int)program);
    const unsigned char *frame;
    zesort_status st = zs_frame_data(zs_source_frame, &frame, e);
    if (st == ZESORT_OK)
        *out = (const char *)frame + zs_source_offset[program];
    return st;
}
