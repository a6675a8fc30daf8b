/*
 * part_runner.h — sorts the parts of a split (multi/split_sort.h): one
 * after the other on one device, or concurrently, a thread per device, on
 * several.
 */
#ifndef ZESORT_PART_RUNNER_H
#define ZESORT_PART_RUNNER_H

#include <stdint.h>

#include "split_sort.h"

/* One part: keys [off, off + n) of the host copy, to sort by bits
 * [req->bit_lo, bit_hi). */
typedef struct zs_split_part {
    uint64_t off, n;
    unsigned bit_hi;
} zs_split_part;

/* Sorts the count parts of copy (in place: inputs and outputs the same
 * arrays) with t: the parts are dealt to t->devices devices, biggest first
 * to the device with the fewest keys so far, then each device sorts its
 * own on a thread of its own (the calling thread is device 0) until every
 * part is sorted or one fails; then no device starts another part. Fills
 * rep's sort_ms, parts, per-device fields and failed_device. Returns OK,
 * the first failure's status (the target's message is where the target
 * keeps it), or OUT_OF_HOST_MEMORY (no message: only a few bytes a part
 * were wanted). A thread that cannot be started leaves its device's parts
 * to the calling thread, after its own. */
zesort_status zs_run_parts(const zs_split_target *t, const zs_host_arrays *copy,
                           const zs_plan_request *req, zs_split_part *parts, uint64_t count,
                           zs_split_report *rep);

#endif
