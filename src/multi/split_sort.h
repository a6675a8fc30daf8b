/*
 * split_sort.h — sorts larger than one device pass (issue 23): the keys are
 * split on the host by a stable partition on the top bits of their bit
 * range into parts that each fit the target (a device's memory and largest
 * allocation, ZESORT_MAX_KEYS, the C fallback's 32-bit offsets), then each
 * part is sorted by the target and lands at its place in the output. No
 * merge: a part's keys all sort before the next part's. Stable, every key
 * type, values of 4 or 8 bytes, argsort, descending, bit ranges, and 64-bit
 * counts and offsets throughout.
 */
#ifndef ZESORT_SPLIT_SORT_H
#define ZESORT_SPLIT_SORT_H

#include <stdint.h>

#include "error.h"
#include "plan.h"
#include "run_plan.h"

/* Who sorts a part: sort(user, io, req) sorts req->n keys (and values) from
 * io's inputs into its outputs as a host sort does (in place when they are
 * the same arrays). req is the caller's request with n and the bit range of
 * the part and iota_values 0 (an argsort's indices were made by the split).
 * max_keys: the most keys one part may have (>= 1). */
typedef struct zs_split_target {
    zesort_status (*sort)(void *user, const zs_host_arrays *io, const zs_plan_request *req);
    void *user;
    uint64_t max_keys;
} zs_split_target;

/* Sorts req->n keys of io (req as zs_make_request made it; iota_values for
 * an argsort, whose indices are made here as values) by parts of at most
 * t->max_keys keys. The inputs are read once by the split (into a host copy
 * of the keys and values, where the parts are sorted), the outputs written
 * once, when every part has succeeded: on any failure (OUT_OF_HOST_MEMORY
 * with its message in err, or a part's failure as the target returned it)
 * the caller's arrays are unchanged.
 * parts (may be NULL) receives the number of parts sorted. */
zesort_status zs_split_sort(const zs_split_target *t, const zs_host_arrays *io,
                            const zs_plan_request *req, zs_error *err, uint64_t *parts);

/* The number of parts zs_split_sort would use for n keys of uniformly spread
 * bits: ceil(n / max_keys) (skewed keys may take more). */
uint64_t zs_split_parts_estimate(uint64_t n, uint64_t max_keys);

#endif
