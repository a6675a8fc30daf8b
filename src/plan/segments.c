/*
 * segments.c — the offsets check of zesort_sort_segments and of the interop
 * segmented sorts (interop_common.c).
 */
#include "plan/segments.h"

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
