/*
 * segments.h — segmented sorts (zesort_sort_segments): the check of the
 * offsets (segments.c), for the API and the interop. The C fallback's
 * parallel per-segment sort is cpu_segments.c (backend_cpu.h); the device
 * path a kernel of its own (kernels/segsort.cl, zs_plan_segments).
 */
#ifndef ZESORT_SEGMENTS_H
#define ZESORT_SEGMENTS_H

#include <stdint.h>

#include "common/error.h"
#include "zesort.h"

/* INVALID_ARGUMENT with a message naming fn unless offsets (s + 1 of them)
 * are non-decreasing and offsets[s] <= n. */
zesort_status zs_segments_check(const uint64_t *offsets, uint64_t s, uint64_t n, const char *fn,
                                zs_error *err);

#endif
