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
static int verify_pairs(const cli_expected *exp, const void *keys, const uint32_t *values,
                        uint64_t n, char *msg, size_t cap)
{
    size_t ksize = cli_key_size(exp->type);
    unsigned char *seen = calloc(n ? (size_t)n : 1, 1);
    if (!seen) {
        snprintf(msg, cap, "out of host memory while verifying");
        return -1;
    }
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; ++i) {
        uint32_t v = values[i];
        if (v >= n || seen[v]) {
            snprintf(msg, cap, "values are not a permutation (value %u at index %llu)", v,
                     (unsigned long long)i);
            rc = -1;
        } else if (memcmp((const unsigned char *)keys + i * ksize,
                          (const unsigned char *)exp->input + (uint64_t)v * ksize, ksize) != 0) {
            snprintf(msg, cap, "key at index %llu did not move with its value %u",
                     (unsigned long long)i, v);
            rc = -1;
        } else if (i > 0 && values[i - 1] > v &&
                   cli_key_order(keys, i - 1, exp->type) == cli_key_order(keys, i, exp->type)) {
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

int cli_verify_sort(const cli_expected *exp, const void *keys, const uint32_t *values, uint64_t n,
                    char *msg, size_t cap)
{
    uint64_t bad = cli_first_unsorted(keys, n, exp->type, exp->descending);
    if (bad < n) {
        snprintf(msg, cap, "keys out of order at index %llu", (unsigned long long)bad);
        return -1;
    }
    if (values)
        return verify_pairs(exp, keys, values, n, msg, cap);
    size_t ksize = cli_key_size(exp->type);
    if (exp->reference && !exp->descending) {
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
