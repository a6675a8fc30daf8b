/*
 * segment_runs.c — see segment_runs.h. Why runs of whole segments rather
 * than a split of the keys: a segment is sorted on its own, so a run of
 * them sorts on one device with no partition, no host copy and no merge;
 * only the run's boundaries are chosen. Why a segment longer than a
 * device's share stays out of the runs: on one device it would leave the
 * others idle for most of the sort; the whole group sorts it instead, as
 * it sorts any zesort_sort of that size.
 */
#include "dispatch/segment_runs.h"

#include <stdlib.h>

uint64_t zs_segment_share(const uint64_t *offsets, uint64_t s, unsigned devices)
{
    const uint64_t keys = offsets[s] - offsets[0], d = devices ? devices : 1;
    return (keys + d - 1) / d;
}

/* Whether a run of `keys` keys closes before a segment of `len`: the cut
 * before it is nearer to `share` than the cut after it. */
static int cut_before(uint64_t keys, uint64_t len, uint64_t share)
{
    return keys > 0 && keys + len > share && share - (keys < share ? keys : share) <
                                                 keys + len - share;
}

/* Appends run [first, end) of `keys` keys to *runs (room for them all). */
static void close_run(zs_split_part *runs, uint64_t *count, uint64_t first, uint64_t end,
                      uint64_t keys)
{
    if (keys)
        runs[(*count)++] = (zs_split_part){first, keys, 0, end};
}

uint64_t zs_segment_runs(const uint64_t *offsets, uint64_t s, unsigned devices,
                         zs_split_part **runs, uint64_t *long_segments)
{
    const uint64_t share = zs_segment_share(offsets, s, devices);
    zs_split_part *r = malloc((size_t)(s ? s : 1) * sizeof *r); /* a run has a segment at least */
    *runs = NULL, *long_segments = 0;
    if (!r)
        return UINT64_MAX;
    uint64_t count = 0, first = 0, keys = 0;
    for (uint64_t i = 0; i < s; i++) {
        const uint64_t len = offsets[i + 1] - offsets[i];
        if (len > share || cut_before(keys, len, share)) {
            close_run(r, &count, first, i, keys);
            first = i, keys = 0;
        }
        if (len > share) {
            ++*long_segments;
            first = i + 1;
            continue;
        }
        keys += len;
    }
    close_run(r, &count, first, s, keys);
    if (!count)
        free(r), r = NULL;
    *runs = r;
    return count;
}
