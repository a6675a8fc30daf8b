/*
 * cpu_vq_sort.h — keys-only, all-bits sorts of the C fallback by vqsorted
 * partitions and ranges (cpu_vq_sort.c), and the measurement that decides
 * whether they or the radix passes sort a key width (cpu_calibrate.c).
 */
#ifndef ZESORT_CPU_VQ_SORT_H
#define ZESORT_CPU_VQ_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "zesort.h"

/* Sorts n keys of key_bytes (4 | 8) in place by all their bits (key_flags
 * as the kernels': kind | descending << 2) with a team of `threads`
 * (create_limit as zs_team_start's). Not stable: keys only. Needs
 * zs_vq_target() != NULL. OUT_OF_HOST_MEMORY (no sorter, or no temporary
 * copy of the keys with 2 or more threads) leaves the keys unchanged. */
zesort_status zs_cpu_vq_sort(void *keys, size_t n, unsigned key_bytes, uint32_t key_flags,
                             unsigned threads, unsigned create_limit);

/* Whether vqsort sorts keys of key_bytes faster than the radix passes on
 * this CPU: measured once per process and key width (thread-safe), on one
 * thread, 32768 random keys each way, best of 3. 0 when vqsort is not
 * available. The result only chooses a strategy: both give the same bits. */
int zs_cpu_vq_faster(unsigned key_bytes);

#endif
