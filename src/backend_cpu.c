/*
 * backend_cpu.c — the C fallback sort. Independent of the CM design on
 * purpose: 8-bit digits and a counting pass per digit are the fastest simple
 * stable sort on a CPU, and the tests compare it with cm_reference and qsort.
 *
 * It sorts (ordered key, input index) records, then gathers keys and values
 * through the indices: one code path for every key width, kind and order.
 */
#include "backend_cpu.h"

#include <stdlib.h>
#include <string.h>

#define CPU_DIGIT_BITS 8u
#define CPU_BINS (1u << CPU_DIGIT_BITS)

typedef struct record {
    uint64_t key;   /* ordered key: unsigned order == requested order */
    uint64_t index; /* position in the input */
} record;

/* The same order the kernels compute (kernels/cm_radix.cl, zs_ordered). */
static uint64_t ordered_key(const void *keys, uint64_t i, unsigned key_bytes, uint32_t flags)
{
    uint64_t k, sign;
    if (key_bytes == 8) {
        memcpy(&k, (const char *)keys + i * 8, 8);
        sign = UINT64_C(1) << 63;
    } else {
        uint32_t k32;
        memcpy(&k32, (const char *)keys + i * 4, 4);
        k = k32;
        sign = UINT64_C(1) << 31;
    }
    const uint64_t all = key_bytes == 8 ? UINT64_MAX : UINT32_MAX;
    switch (flags & 3u) {
    case 1: k ^= sign; break;                                   /* signed */
    case 2: k = (k & sign) ? (~k & all) : (k | sign); break;    /* IEEE float */
    default: break;
    }
    return (flags & 4u) ? (~k & all) : k;
}

static void radix_pass(const record *src, record *dst, uint64_t n, unsigned shift, uint64_t mask)
{
    uint64_t offset[CPU_BINS] = {0};
    for (uint64_t i = 0; i < n; ++i)
        offset[(src[i].key >> shift) & mask]++;
    uint64_t running = 0;
    for (unsigned b = 0; b < CPU_BINS; ++b) {
        uint64_t c = offset[b];
        offset[b] = running;
        running += c;
    }
    for (uint64_t i = 0; i < n; ++i)
        dst[offset[(src[i].key >> shift) & mask]++] = src[i];
}

zesort_status zs_cpu_sort(void *keys, uint32_t *values, uint64_t n, unsigned key_bytes,
                          uint32_t key_flags, unsigned bit_lo, unsigned bit_hi)
{
    if (n < 2 || bit_lo >= bit_hi)
        return ZESORT_OK;
    record *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    void *key_copy = malloc((size_t)n * key_bytes);
    uint32_t *value_copy = values ? malloc((size_t)n * sizeof *value_copy) : NULL;
    if (!a || !b || !key_copy || (values && !value_copy)) {
        free(a), free(b), free(key_copy), free(value_copy);
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint64_t i = 0; i < n; ++i)
        a[i] = (record){ordered_key(keys, i, key_bytes, key_flags), i};
    record *src = a, *dst = b;
    for (unsigned shift = bit_lo; shift < bit_hi; shift += CPU_DIGIT_BITS) {
        unsigned width = bit_hi - shift < CPU_DIGIT_BITS ? bit_hi - shift : CPU_DIGIT_BITS;
        radix_pass(src, dst, n, shift, (UINT64_C(1) << width) - 1);
        record *t = src;
        src = dst;
        dst = t;
    }
    memcpy(key_copy, keys, (size_t)n * key_bytes);
    if (values)
        memcpy(value_copy, values, (size_t)n * sizeof *values);
    for (uint64_t i = 0; i < n; ++i) {
        memcpy((char *)keys + i * key_bytes, (const char *)key_copy + src[i].index * key_bytes,
               key_bytes);
        if (values)
            values[i] = value_copy[src[i].index];
    }
    free(a), free(b), free(key_copy), free(value_copy);
    return ZESORT_OK;
}
