/*
 * verify.c — checks a sort result on the host, for `bench` and `demo`. A
 * benchmark number is only printed for a result that is verified: sorted,
 * a permutation of the input, and (with values) stable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Pairs: values started as 0..n-1, so value v must carry input key v, every v
 * must appear once, and equal keys must keep increasing values (stable). */
static uint64_t value_at(const void *values, unsigned value_bytes, uint64_t i)
{
    return value_bytes == 8 ? ((const uint64_t *)values)[i] : ((const uint32_t *)values)[i];
}

static int verify_pairs(const cli_expected *exp, const void *keys, const void *values,
                        unsigned value_bytes, uint64_t n, char *msg, size_t cap)
{
    size_t ksize = cli_key_size(exp->type);
    unsigned char *seen = calloc(n ? (size_t)n : 1, 1);
    if (!seen) {
        snprintf(msg, cap, "out of host memory while verifying");
        return -1;
    }
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; ++i) {
        const uint64_t v = value_at(values, value_bytes, i);
        if (v >= n || seen[v]) {
            snprintf(msg, cap, "values are not a permutation (value %llu at index %llu)",
                     (unsigned long long)v, (unsigned long long)i);
            rc = -1;
        } else if (memcmp((const unsigned char *)keys + i * ksize,
                          (const unsigned char *)exp->input + (uint64_t)v * ksize, ksize) != 0) {
            snprintf(msg, cap, "key at index %llu did not move with its value %llu",
                     (unsigned long long)i, (unsigned long long)v);
            rc = -1;
        } else if (i > 0 && value_at(values, value_bytes, i - 1) > v &&
                   cli_key_field(keys, i - 1, exp->type, exp->bit_lo, exp->bit_hi) ==
                       cli_key_field(keys, i, exp->type, exp->bit_lo, exp->bit_hi)) {
            snprintf(msg, cap, "not stable: equal keys at index %llu swapped",
                     (unsigned long long)i);
            rc = -1;
        }
        if (v < n)
            seen[v] = 1;
    }
    free(seen);
    return rc;
}

/* Index of the first key out of order by the bits the sort looked at, or n. */
static uint64_t first_unsorted(const cli_expected *exp, const void *keys, uint64_t n)
{
    for (uint64_t i = 1; i < n; ++i) {
        uint64_t a = cli_key_field(keys, i - 1, exp->type, exp->bit_lo, exp->bit_hi);
        uint64_t b = cli_key_field(keys, i, exp->type, exp->bit_lo, exp->bit_hi);
        if (exp->descending ? a < b : a > b)
            return i;
    }
    return n;
}

int cli_verify_sort(const cli_expected *exp, const void *keys, const void *values,
                    unsigned value_bytes, uint64_t n, char *msg, size_t cap)
{
    uint64_t bad = first_unsorted(exp, keys, n);
    if (bad < n) {
        snprintf(msg, cap, "keys out of order at index %llu", (unsigned long long)bad);
        return -1;
    }
    if (values)
        return verify_pairs(exp, keys, values, value_bytes, n, msg, cap);
    size_t ksize = cli_key_size(exp->type);
    if (exp->reference) {
        if (memcmp(keys, exp->reference, (size_t)n * ksize) != 0) {
            snprintf(msg, cap, "keys are sorted but differ from the host reference sort");
            return -1;
        }
    } else if (cli_multiset_hash(keys, n, exp->type) != exp->input_hash) {
        snprintf(msg, cap, "keys are sorted but are not a permutation of the input");
        return -1;
    }
    return 0;
}
