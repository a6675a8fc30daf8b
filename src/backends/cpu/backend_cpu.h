/*
 * backend_cpu.h — the C fallback: a stable multi-threaded LSD radix sort on
 * the host, so the library always works, with or without a GPU or OpenCL.
 * Keys-only sorts by all bits (where stability cannot be seen) may instead
 * run partitions then vqsorted ranges (cpu_vq_sort.h), where Highway's vqsort was
 * measured faster for the key width on this CPU (cpu_calibrate.c; 4- and
 * 8-byte keys), or, for 1- and 2-byte keys, a counting sort (cpu_counting.h).
 *
 * Threads: one per online core by default; the environment variable
 * ZESORT_THREADS=N (a decimal integer, 1 <= N <= 256) overrides it, read at
 * every sort. Any other value (0, negative, junk, above 256) is ignored:
 * the default applies. Sorts below ZS_CPU_MIN_KEYS_PER_THREAD keys per thread
 * use fewer threads (below 2x that, one). A thread that cannot be created
 * means fewer threads, never a failed sort.
 */
#ifndef ZESORT_BACKEND_CPU_H
#define ZESORT_BACKEND_CPU_H

#include "zesort.h"

/* Digit width of a pass (the sort uses the fewest passes of at most this
 * many bits, widths balanced): 11 measured faster than 8 (docs/results.md,
 * "Tuning of the C fallback"). */
#define ZS_CPU_DIGIT_BITS 11u
/* Below this many keys the digits are at most 8 bits: the 2^11-bin tables
 * of ZS_CPU_DIGIT_BITS (cleared, counted and scanned a pass) cost more than
 * the keys; the two are even near 30000 keys (docs/results.md). */
#define ZS_CPU_SMALL_KEYS 16384u
#define ZS_CPU_MAX_DIGIT_BITS 11u
/* A thread per this many keys at most: 2 threads from 256K keys. Below
 * that the team's start and phase hand-offs cost more than the second core
 * brings, on the radix and the vqsort paths alike (docs/results.md). */
#define ZS_CPU_MIN_KEYS_PER_THREAD 131072u

/* Sorts n keys of key_bytes (1|2|4|8) in place, values (NULL or n of value_bytes,
 * 4|8) along,
 * stable, by bits [bit_lo, bit_hi) of the ordered key (key_flags as the
 * kernels': kind | descending << 2). OUT_OF_HOST_MEMORY leaves both unchanged.
 * n above UINT32_MAX: INVALID_ARGUMENT (the API never passes one). */
zesort_status zs_cpu_sort(void *keys, void *values, uint64_t n, unsigned key_bytes,
                          unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                          unsigned bit_hi);

/* The most keys one zs_cpu_sort may take: any number that fits in size_t for
 * keys-only sorts of 4- or 8-byte keys by all bits where vqsort is
 * available (its partitions count in size_t and need no temporary copy),
 * UINT32_MAX otherwise (the radix passes' and the counting sort's counts); beyond it the API splits the sort into parts
 * (src/dispatch/split_sort.h). */
uint64_t zs_cpu_max_keys(int with_values, unsigned key_bytes, unsigned bit_lo, unsigned bit_hi);

/* The knobs of zs_cpu_sort, for tests and the benchmark. */
typedef struct zs_cpu_config {
    unsigned threads;             /* threads wanted, >= 1 */
    unsigned create_limit;        /* create at most this many threads (tests: creation failure) */
    uint64_t min_keys_per_thread; /* 0 or 1: every wanted thread runs, even on 2 keys */
    unsigned digit_bits;          /* 1..ZS_CPU_MAX_DIGIT_BITS */
    uint64_t small_keys;          /* below this many keys, digits of at most 8 bits
                                     (default ZS_CPU_SMALL_KEYS; 0: digit_bits always) */
    uint64_t msd_min_keys;        /* top digit first, then the buckets in cache, from this
                                     many keys on (default ZS_CPU_MSD_MIN_KEYS; 0: always
                                     where the data allows, UINT64_MAX: never) */
    int vqsort;                   /* keys-only sorts by all bits: partitions, vqsorted ranges
                                     (cpu_vq_sort.h) where vqsort is available, instead of the
                                     radix passes: 1 always, 0 never, -1 (default) where
                                     measured faster for the key width (zs_cpu_vq_faster) */
} zs_cpu_config;

/* What zs_cpu_sort uses: zs_cpu_thread_count() threads (ZESORT_THREADS),
 * ZS_CPU_MIN_KEYS_PER_THREAD, ZS_CPU_DIGIT_BITS, ZS_CPU_MSD_MIN_KEYS, and
 * vqsort where measured faster. */
void zs_cpu_config_default(zs_cpu_config *cfg);

zesort_status zs_cpu_sort_with(void *keys, void *values, uint64_t n, unsigned key_bytes,
                               unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                               unsigned bit_hi,
                               const zs_cpu_config *cfg);

/* The C fallback: every segment of keys (values along, NULL or of
 * value_bytes) of at most max_len keys sorted as zs_cpu_sort sorts, in
 * parallel; longer ones (beyond what zs_cpu_sort takes, zs_cpu_max_keys)
 * are left as they are, for the caller. OUT_OF_HOST_MEMORY (its only
 * failure) leaves each segment sorted or unchanged. Offsets checked
 * already. */
zesort_status zs_cpu_sort_segments(void *keys, void *values, const uint64_t *offsets, uint64_t s,
                                   unsigned key_bytes, unsigned value_bytes, uint32_t key_flags,
                                   unsigned bit_lo, unsigned bit_hi, uint64_t max_len);

#endif
