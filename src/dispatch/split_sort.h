/*
 * split_sort.h — sorts split on the host: the keys are split by
 * a stable partition on the top bits of their bit range into parts that
 * each fit the target (a device's memory and largest allocation,
 * ZESORT_MAX_KEYS, the C fallback's 32-bit offsets), then each part is
 * sorted by the target and lands at its place in the output. No merge: a
 * part's keys all sort before the next part's. Stable, every key type,
 * values of 4 or 8 bytes, argsort, descending, bit ranges, and 64-bit
 * counts and offsets throughout.
 *
 * The same partition serves several devices (part_runner.h): the
 * parts are then balanced (cut near equal shares of the keys by the one
 * histogram of the top digit, skewed buckets split again on the next bits)
 * and sorted concurrently, one thread per device.
 */
#ifndef ZESORT_SPLIT_SORT_H
#define ZESORT_SPLIT_SORT_H

#include <stdint.h>

#include "common/error.h"
#include "plan/plan.h"
#include "run/run_plan.h"

/* The most devices one split sorts on (zesort.h's ZESORT_MAX_DEVICES). */
#define ZS_SPLIT_MAX_DEVICES 16u

/* Who sorts a part: sort(user, device, io, req) sorts req->n keys (and
 * values) from io's inputs into its outputs as a host sort does (in place
 * when they are the same arrays), on device `device` (0 .. devices - 1);
 * calls for different devices come from different threads at once, never
 * two for one device. req is the caller's request with n and the bit range
 * of the part and iota_values 0 (an argsort's indices were made by the
 * split). max_keys: the most keys one part may have (>= 1; the smallest
 * device's). devices: 1 (the parts one after the other on the calling
 * thread) to ZS_SPLIT_MAX_DEVICES. */
typedef struct zs_split_target {
    zesort_status (*sort)(void *user, unsigned device, const zs_host_arrays *io,
                          const zs_plan_request *req);
    void *user;
    uint64_t max_keys;
    unsigned devices;
} zs_split_target;

/* How a split sort went: parts sorted, and where the time went (wall
 * milliseconds): partition (the top-digit histogram and stable scatter
 * into the host copy, skewed buckets split again), sort (from the first
 * part's start to the last part's end, every device), gather (the copy to
 * the caller's outputs); per device the parts, keys and the time its sorts
 * took. failed_device: the device whose sort failed first (-1: none, or the
 * split itself failed). */
typedef struct zs_split_report {
    uint64_t parts;
    double partition_ms, sort_ms, gather_ms;
    int failed_device;
    uint64_t device_parts[ZS_SPLIT_MAX_DEVICES], device_keys[ZS_SPLIT_MAX_DEVICES];
    double device_ms[ZS_SPLIT_MAX_DEVICES];
} zs_split_report;

/* Sorts req->n keys of io (req as zs_make_request made it; iota_values for
 * an argsort, whose indices are made here as values) by parts of at most
 * t->max_keys keys, balanced over t->devices devices when there are
 * several (then the keys are split even when they fit one device). The
 * inputs are read once by the split (into a host copy of the keys and
 * values, where the parts are sorted), the outputs written once, when
 * every part has succeeded: on any failure (OUT_OF_HOST_MEMORY with its
 * message in err, or a part's failure as the target returned it, the
 * target's message wherever the target keeps it) the caller's arrays are
 * unchanged. report (may be NULL) is filled in either case. */
zesort_status zs_split_sort(const zs_split_target *t, const zs_host_arrays *io,
                            const zs_plan_request *req, zs_error *err, zs_split_report *report);

/* The number of parts zs_split_sort would use for n keys of uniformly spread
 * bits on `devices` devices: ceil(n / max_keys) rounded up to a multiple of
 * devices (skewed keys may take more). */
uint64_t zs_split_parts_estimate(uint64_t n, uint64_t max_keys, unsigned devices);

#endif
