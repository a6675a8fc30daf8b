/*
 * segment_oracle.h — what a segmented sort must produce (issue 22), for
 * the host API's tests (tests/unit/test_segments.c, test_multi.c) and the
 * interop APIs' (interop_segments.h): each segment the stable sort of its
 * input keys (sort_oracle.h), the values moved along; the input values
 * are oracle_value(i, vb) at array position i. Header-only.
 */
#ifndef ZESORT_TESTS_SEGMENT_ORACLE_H
#define ZESORT_TESTS_SEGMENT_ORACLE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sort_oracle.h"

/* 0 when segment [b, b + len) of keys_out (values_out: NULL, or values of
 * vb bytes) is the stable sort under o of that segment of keys; else the
 * first wrong position in the segment + 1 (1 when out of memory). The
 * arrays are whole: positions are the array's. */
static inline uint64_t segment_check(const void *keys, const void *keys_out, const void *values_out,
                              uint64_t b, uint64_t len, unsigned kb, unsigned vb,
                              const zesort_options *o)
{
    uint64_t *perm = oracle_permutation((const char *)keys + b * kb, len, o);
    if (!perm)
        return 1;
    for (uint64_t i = 0; i < len; i++)
        perm[i] += b; /* the values carry the array's positions */
    const uint64_t bad = oracle_check(keys, perm, (const char *)keys_out + b * kb,
                                      values_out ? (const char *)values_out + b * vb : NULL, 0,
                                      len, kb, vb);
    free(perm);
    return bad;
}

/* Whether positions [b, e) of keys_out (values_out: NULL or of vb bytes)
 * are as they were: keys those of keys, values oracle_value. */
static inline int segment_unchanged(const void *keys, const void *keys_out, const void *values_out,
                             uint64_t b, uint64_t e, unsigned kb, unsigned vb)
{
    if (e > b && memcmp((const char *)keys_out + b * kb, (const char *)keys + b * kb,
                        (size_t)((e - b) * kb)) != 0)
        return 0;
    for (uint64_t i = b; values_out && i < e; i++) {
        uint64_t v = 0;
        memcpy(&v, (const char *)values_out + i * vb, vb);
        if (v != oracle_value(i, vb))
            return 0;
    }
    return 1;
}

/* A whole segmented sort's output (s segments of off over n keys): NULL
 * when every segment is sorted (or, may_be_unchanged, as it was: after a
 * failure) and everything outside [off[0], off[s]) as it was; else what is
 * wrong, in why. */
static inline const char *segments_verify(const void *keys, const void *keys_out, const void *values_out,
                                   const uint64_t *off, uint64_t s, uint64_t n, unsigned kb,
                                   unsigned vb, const zesort_options *o, int may_be_unchanged,
                                   char *why, size_t size)
{
    if (!segment_unchanged(keys, keys_out, values_out, 0, off[0], kb, vb) ||
        !segment_unchanged(keys, keys_out, values_out, off[s], n, kb, vb)) {
        snprintf(why, size, "an element outside the segments [%llu, %llu) changed",
                 (unsigned long long)off[0], (unsigned long long)off[s]);
        return why;
    }
    for (uint64_t g = 0; g < s; g++) {
        const uint64_t b = off[g], len = off[g + 1] - b;
        const uint64_t bad = segment_check(keys, keys_out, values_out, b, len, kb, vb, o);
        if (bad && !(may_be_unchanged &&
                     segment_unchanged(keys, keys_out, values_out, b, b + len, kb, vb))) {
            snprintf(why, size, "segment %llu [%llu, %llu): element %llu wrong%s",
                     (unsigned long long)g, (unsigned long long)b, (unsigned long long)(b + len),
                     (unsigned long long)(b + bad - 1),
                     may_be_unchanged ? ", and the segment is not as it was" : "");
            return why;
        }
    }
    return NULL;
}

#endif
