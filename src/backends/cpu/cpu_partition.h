/*
 * cpu_partition.h — the host's partition of keys by one digit of their
 * ordered key (key_order.h), for the split of a sort too big for its
 * devices (dispatch/split_sort.c): the counts of the digit's buckets, then a
 * stable scatter by groups of buckets, which the caller plans from the
 * counts.
 */
#ifndef ZESORT_CPU_PARTITION_H
#define ZESORT_CPU_PARTITION_H

#include <stdint.h>

#include "backends/cpu/cpu_threads.h"

/* Digit width of one partition: 2048 buckets, whose counts stay in L1. */
#define ZS_SPLIT_BITS 11u

/* A partition of this many keys or more is counted and scattered by the
 * team's members, each a chunk of the keys in order (stable); below,
 * thread hand-offs cost more than they save. */
#define ZS_SPLIT_PARALLEL_FROM (UINT64_C(1) << 18)

/* The groups of the buckets whose offsets are start (bins + 1): writes each
 * bucket's group to map (groups numbered in bucket order, each a run of
 * consecutive buckets, together every bucket); returns how many groups. */
typedef unsigned (*zs_partition_groups_fn)(void *user, const uint64_t *start, unsigned bins,
                                           uint16_t *map);

/* One partition: n keys (key_bytes; key_flags as zs_cpu_sort's) and their
 * values (value_bytes; iota: the input positions, an argsort's indices,
 * made on the way) into keys_out and values_out, by the top digit (at
 * most ZS_SPLIT_BITS) of bits [bit_lo, bit_hi). Scratch: start (bins + 1),
 * hist (zs_team_size(team) x bins) and map (bins). */
typedef struct zs_partition {
    const void *keys, *values;
    int iota;
    uint64_t n;
    unsigned key_bytes, value_bytes;
    uint32_t key_flags;
    unsigned bit_lo, bit_hi;
    void *keys_out, *values_out;
    uint64_t *start, *hist;
    uint16_t *map;
} zs_partition;

/* The counts (p->start: the buckets' offsets), the groups (groups_of), then
 * a stable scatter by group, not by bucket: a part's keys are sorted by
 * all their differing bits anyway, and a few write streams scatter several
 * times faster than 2048. From ZS_SPLIT_PARALLEL_FROM keys both passes run
 * on team, a chunk a member. Returns the digit's shift; *groups the
 * groups' count. */
unsigned zs_cpu_partition(zs_team *team, const zs_partition *p, zs_partition_groups_fn groups_of,
                          void *user, unsigned *groups);

#endif
