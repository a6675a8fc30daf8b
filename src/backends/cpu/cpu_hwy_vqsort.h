/*
 * cpu_hwy_vqsort.h — Highway's vqsort (Debian's libhwy-contrib), seen from C:
 * the C fallback (backend_cpu.c) sorts the buckets of keys-only, all-bits
 * sorts with it, where equal keys are indistinguishable and stability does
 * not matter. Built when meson finds libhwy (option `highway`); without it
 * every function here says "not available" and the radix sort runs alone.
 */
#ifndef ZESORT_CPU_HWY_VQSORT_H
#define ZESORT_CPU_HWY_VQSORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The instruction set vqsort dispatches to ("AVX3", "AVX2", ...), or NULL
 * when the library was built without Highway or the CPU has neither AVX2
 * nor AVX-512: vqsort was measured faster than the radix passes only there
 * (bench/cpu_vs_std.cpp), so only there is it used. */
const char *zs_vq_target(void);

/* A sorter: vqsort's own scratch (a few KiB), one per thread, made before
 * the caller's data is touched. NULL when out of memory or not available. */
typedef struct zs_vq zs_vq;
zs_vq *zs_vq_new(void);
void zs_vq_free(zs_vq *vq); /* NULL: no-op */

/* Sorts keys[0, n) of key_bytes (4 | 8) in place as integers, signed or
 * unsigned, ascending or descending. Not stable: for keys-only sorts. (No
 * float sort: Highway 1.0.3 turns +inf into FLT_MAX; cpu_vq_sort.c sorts
 * floats as signed integers.) */
void zs_vq_sort(const zs_vq *vq, void *keys, size_t n, unsigned key_bytes, int is_signed,
                int descending);

#ifdef __cplusplus
}
#endif

#endif
