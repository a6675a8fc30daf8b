/*
 * zesort_internal.h — hooks for tests only (not installed): run the pieces of
 * one CM pass on a context's device so tests can compare the count table and
 * the prefix table with cm_reference bit for bit.
 */
#ifndef ZESORT_INTERNAL_H
#define ZESORT_INTERNAL_H

#include "zesort.h"

/* One CM pass over `keys` (n u32 keys, host memory) with digit width
 * radix_bits (2|4) at bit `shift`, on ctx's device backend (OpenCL or Level Zero;
 * UNSUPPORTED on the cpu backend). Fills, when non-NULL:
 *   count_table  bins*chunks entries, bin-major, as written by cm_count
 *   prefix_table bins*chunks entries after the scan (host or device per `scan`)
 *   out_keys     n keys after cm_bucket
 * chunks = ceil(n/256), bins = 1 << radix_bits. n must be >= 1. */
zesort_status zs_debug_cm_pass(zesort_context *ctx, int radix_bits, zesort_scan scan,
                               const uint32_t *keys, uint64_t n, unsigned shift,
                               uint32_t *count_table, uint32_t *prefix_table, uint32_t *out_keys);

#endif
