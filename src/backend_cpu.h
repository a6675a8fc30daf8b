/*
 * backend_cpu.h — the C fallback: a stable LSD radix sort on the host, so the
 * library always works, with or without a GPU or OpenCL driver.
 */
#ifndef ZESORT_BACKEND_CPU_H
#define ZESORT_BACKEND_CPU_H

#include "zesort.h"

/* Sorts n u32 keys in place (8-bit digits over bits [bit_lo, bit_hi)).
 * OUT_OF_HOST_MEMORY leaves keys unchanged. */
zesort_status zs_cpu_sort_u32(uint32_t *keys, uint64_t n, unsigned bit_lo, unsigned bit_hi);

#endif
