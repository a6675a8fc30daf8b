/*
 * backend_cpu.c — the C fallback sort. Independent of the CM design on
 * purpose: 8-bit digits and a counting pass per digit are the fastest simple
 * stable sort on a CPU, and the tests compare it with cm_reference and qsort.
 */
#include "backend_cpu.h"

#include <stdlib.h>
#include <string.h>

#define CPU_DIGIT_BITS 8u
#define CPU_BINS (1u << CPU_DIGIT_BITS)

zesort_status zs_cpu_sort_u32(uint32_t *keys, uint64_t n, unsigned bit_lo, unsigned bit_hi)
{
    if (n < 2 || bit_lo >= bit_hi)
        return ZESORT_OK;
    uint32_t *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t *src = keys, *dst = tmp;
    for (unsigned shift = bit_lo; shift < bit_hi; shift += CPU_DIGIT_BITS) {
        unsigned width = bit_hi - shift < CPU_DIGIT_BITS ? bit_hi - shift : CPU_DIGIT_BITS;
        uint32_t mask = (1u << width) - 1u;
        uint64_t offset[CPU_BINS] = {0};
        for (uint64_t i = 0; i < n; ++i)
            offset[(src[i] >> shift) & mask]++;
        uint64_t running = 0;
        for (unsigned b = 0; b < CPU_BINS; ++b) {
            uint64_t c = offset[b];
            offset[b] = running;
            running += c;
        }
        for (uint64_t i = 0; i < n; ++i)
            dst[offset[(src[i] >> shift) & mask]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, (size_t)n * sizeof *keys);
    free(tmp);
    return ZESORT_OK;
}
