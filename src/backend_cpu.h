/*
 * backend_cpu.h — the C fallback: a stable LSD radix sort on the host, so the
 * library always works, with or without a GPU or OpenCL driver.
 */
#ifndef ZESORT_BACKEND_CPU_H
#define ZESORT_BACKEND_CPU_H

#include "zesort.h"

/* Sorts n keys of key_bytes (4|8) in place, values (NULL or n u32) along,
 * stable, by bits [bit_lo, bit_hi) of the ordered key (key_flags as the
 * kernels': kind | descending << 2). OUT_OF_HOST_MEMORY leaves both unchanged. */
zesort_status zs_cpu_sort(void *keys, uint32_t *values, uint64_t n, unsigned key_bytes,
                          uint32_t key_flags, unsigned bit_lo, unsigned bit_hi);

#endif
