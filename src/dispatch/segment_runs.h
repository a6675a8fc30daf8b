/*
 * segment_runs.h — a segmented sort (zesort_sort_segments) over several
 * devices: its segments need no merge, so they are cut into runs of whole
 * consecutive segments, balanced by keys, which part_runner deals to the
 * devices (each run then sorted by the one-device path on its device).
 */
#ifndef ZESORT_SEGMENT_RUNS_H
#define ZESORT_SEGMENT_RUNS_H

#include <stdint.h>

#include "dispatch/part_runner.h"

/* The runs of segments [0, s) of offsets (s + 1 of them, checked) for
 * `devices` devices: share = the segments' keys / devices (rounded up);
 * a run closes at the cut nearest to `share` keys (one run per device on
 * evenly spread segments; ragged ones leave a few more, which the deal
 * balances), and a segment of more than share keys is in no run (*long_segments
 * counts them: the caller sorts each on the whole group). A run is
 * zs_split_part {off: its first segment, n: its keys, end: past its last
 * segment}; runs of no key are left out. Returns the runs' count and sets
 * *runs (malloc'd, the caller frees; NULL when there are none), or
 * UINT64_MAX out of host memory. */
uint64_t zs_segment_runs(const uint64_t *offsets, uint64_t s, unsigned devices,
                         zs_split_part **runs, uint64_t *long_segments);

/* The share of one device (zs_segment_runs): segments longer are sorted on
 * the whole group. */
uint64_t zs_segment_share(const uint64_t *offsets, uint64_t s, unsigned devices);

#endif
