/*
 * segments.h — segmented sorts (zesort_sort_segments): the check of the
 * offsets (segments.c) and the C fallback's parallel per-segment sort
 * (cpu_segments.c). The device path is a kernel of its own
 * (kernels/segsort.cl, zs_plan_segments).
 */
#ifndef ZESORT_SEGMENTS_H
#define ZESORT_SEGMENTS_H

#include <stdint.h>

#include "error.h"
#include "zesort.h"

/* INVALID_ARGUMENT with a message naming fn unless offsets (s + 1 of them)
 * are non-decreasing and offsets[s] <= n. */
zesort_status zs_segments_check(const uint64_t *offsets, uint64_t s, uint64_t n, const char *fn,
                                zs_error *err);

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
