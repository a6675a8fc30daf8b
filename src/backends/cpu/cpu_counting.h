/*
 * cpu_counting.h — the C fallback's counting sort of narrow keys
 * (cpu_counting.c): keys-only sorts of 8- and 16-bit keys by all their bits,
 * where equal keys are the same bits, so the sorted array is written from
 * the keys' counts alone.
 */
#ifndef ZESORT_CPU_COUNTING_H
#define ZESORT_CPU_COUNTING_H

#include <stdint.h>

#include "zesort.h"

/* From this many 16-bit keys the counting sort (65536 bins per thread:
 * cleared, summed, walked) beats the radix passes (two 8-bit digits); 8-bit
 * keys always (256 bins). Measured (zesort bench --backend cpu --type u16
 * --n N --repeat 15, random keys, ms, counting / radix, the 2-core VM busy,
 * two runs each): 64K 0.73 / 0.29, 128K 0.93-0.94 / 0.56-0.67, 256K
 * 1.52-3.35 / 1.48-1.51, 512K 1.59-1.73 / 3.5-11.9, 1M 2.5-2.7 / 22-24,
 * 16M 39-79 / 189-400. */
#define ZS_CPU_COUNT16_MIN_KEYS 262144u

/* Sorts n (2 .. UINT32_MAX) keys of key_bytes (1 or 2) in place by every bit
 * of the ordered key (key_flags as the kernels': kind | descending << 2), on
 * a team of `threads` (at most create_limit created). One read counts the
 * keys, one write lays them out. Returns OK, or OUT_OF_HOST_MEMORY with the
 * keys unchanged. */
zesort_status zs_cpu_counting_sort(void *keys, uint64_t n, unsigned key_bytes, uint32_t key_flags,
                                   unsigned threads, unsigned create_limit);

#endif
