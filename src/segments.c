/*
 * segments.c — the offsets check of zesort_sort_segments and the host step of
 * its device path: the device has sorted all the segments' keys together,
 * stably by key; visiting them in that order and appending each to its own
 * segment leaves every segment stably sorted (one stable sort by key, then a
 * stable counting sort by segment id, the "sort by key, then by
 * segment").
 */
#include "segments.h"

#include <stdlib.h>
#include <string.h>

zesort_status zs_segments_check(const uint64_t *offsets, uint64_t s, uint64_t n, const char *fn,
                                zs_error *err)
{
    if (!offsets)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: offsets is NULL", fn);
    for (uint64_t i = 0; i < s; i++)
        if (offsets[i] > offsets[i + 1])
            return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: offsets decrease: offsets[%llu] = %llu > offsets[%llu] = %llu",
                                fn, (unsigned long long)i, (unsigned long long)offsets[i],
                                (unsigned long long)i + 1, (unsigned long long)offsets[i + 1]);
    if (offsets[s] > n)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: offsets[%llu] = %llu exceeds n = %llu", fn, (unsigned long long)s,
                            (unsigned long long)offsets[s], (unsigned long long)n);
    return ZESORT_OK;
}

/* One key or value of 4 or 8 bytes: constant-size copies the compiler turns
 * into a load and a store (a run-time size is a call per element). */
static inline void move_item(char *dst, const char *src, unsigned bytes)
{
    if (bytes == 4)
        memcpy(dst, src, 4);
    else
        memcpy(dst, src, 8);
}

zesort_status zs_segments_scatter(void *keys, void *values, const uint64_t *offsets, uint64_t s,
                                  unsigned key_bytes, unsigned value_bytes, const void *sorted,
                                  const uint32_t *perm)
{
    const uint64_t base = offsets[0], m = offsets[s] - base;
    /* seg[p]: the segment of position p, numbered among non-empty segments
     * (at most m of them, so 32 bits hold it); next[id]: its next free slot */
    uint32_t *seg = malloc((size_t)(m ? m : 1) * sizeof *seg);
    uint32_t *next = malloc((size_t)(m ? m : 1) * sizeof *next);
    char *vcopy = values ? malloc((size_t)(m ? m : 1) * value_bytes) : NULL;
    if (!seg || !next || (values && !vcopy)) {
        free(seg), free(next), free(vcopy);
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    uint32_t ids = 0;
    for (uint64_t i = 0; i < s; i++) {
        const uint64_t b = offsets[i] - base, e = offsets[i + 1] - base;
        if (b == e)
            continue;
        next[ids] = (uint32_t)b;
        for (uint64_t p = b; p < e; p++)
            seg[p] = ids;
        ids++;
    }
    char *k = (char *)keys + base * key_bytes;
    char *v = values ? (char *)values + base * value_bytes : NULL;
    /* the values move by perm from a copy: the slots they are read from are
     * overwritten on the way */
    if (v)
        memcpy(vcopy, v, (size_t)m * value_bytes);
    for (uint64_t i = 0; i < m; i++) {
        const uint32_t from = perm[i], to = next[seg[from]]++;
        move_item(k + (size_t)to * key_bytes, (const char *)sorted + i * key_bytes, key_bytes);
        if (v)
            move_item(v + (size_t)to * value_bytes, vcopy + (size_t)from * value_bytes,
                      value_bytes);
    }
    free(seg), free(next), free(vcopy);
    return ZESORT_OK;
}
