/*
 * part_runner.h — sorts the parts of a split (split_sort.h) or the
 * runs of a segmented sort (segment_runs.h): one after the other on
 * one device, or concurrently, a thread per device, on several.
 */
#ifndef ZESORT_PART_RUNNER_H
#define ZESORT_PART_RUNNER_H

#include <stdint.h>

#include "dispatch/split_sort.h"

/* One part: n keys to sort. A split's: keys [off, off + n) of its host
 * copy, by bits [req->bit_lo, bit_hi). A segmented sort's run: its
 * segments [off, end), n their keys. */
typedef struct zs_split_part {
    uint64_t off, n;
    unsigned bit_hi;
    uint64_t end;
} zs_split_part;

/* Sorts one part on device `device` (0 .. devices - 1); calls for
 * different devices come from different threads at once, never two for
 * one device. */
typedef zesort_status (*zs_part_sort)(void *user, unsigned device, const zs_split_part *part);

/* Sorts the count parts with sort(user, ...): the parts are dealt to
 * `devices` devices (1 .. ZS_SPLIT_MAX_DEVICES), biggest first to the
 * device with the fewest keys so far, then each device sorts its own on a
 * thread of its own (the calling thread is device 0) until every part is
 * sorted or one fails; then no device starts another part. One device
 * sorts the parts in their order. Fills rep's sort_ms, parts, per-device
 * fields and failed_device (the caller zeroes rep and sets failed_device
 * to -1 first). Returns OK, the first failure's status (its message is
 * wherever sort keeps it), or OUT_OF_HOST_MEMORY (no message: only a few
 * bytes a part were wanted). A thread that cannot be started leaves its
 * device's parts to the calling thread, after its own. */
zesort_status zs_run_parts(zs_part_sort sort, void *user, unsigned devices, zs_split_part *parts,
                           uint64_t count, zs_split_report *rep);

#endif
