/*
 * segments.h — segmented sorts (zesort_sort_segments): the check of the
 * offsets, the C fallback's parallel per-segment sort (cpu_segments.c), and
 * the host step of the device path (segments.c), which moves the keys of
 * all segments, sorted together by key on the device, to their segments.
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
 * value_bytes) sorted as zs_cpu_sort sorts, in parallel. OUT_OF_HOST_MEMORY
 * leaves each segment sorted or unchanged. Offsets checked already. */
zesort_status zs_cpu_sort_segments(void *keys, void *values, const uint64_t *offsets, uint64_t s,
                                   unsigned key_bytes, unsigned value_bytes, uint32_t key_flags,
                                   unsigned bit_lo, unsigned bit_hi);

/* The device path's last step. m = offsets[s] - offsets[0]; `sorted` holds
 * the m keys of [offsets[0], offsets[s]) stably sorted by key, perm[i] the
 * position (from offsets[0]) of sorted[i]. Writes the keys into keys[offsets[0]
 * + ...] segment by segment in that order (so each segment is stably sorted)
 * and moves the values (NULL or of value_bytes) alike. All memory is taken
 * before the first write: OUT_OF_HOST_MEMORY leaves keys and values as they were. */
zesort_status zs_segments_scatter(void *keys, void *values, const uint64_t *offsets, uint64_t s,
                                  unsigned key_bytes, unsigned value_bytes, const void *sorted,
                                  const uint32_t *perm);

#endif
