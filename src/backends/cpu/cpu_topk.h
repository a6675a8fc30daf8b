/*
 * cpu_topk.h — the C fallback's radix select for top-k (cpu_topk.c): which
 * keys a stable sort would put first, found without sorting them. The
 * dispatcher (dispatch/topk.c) then sorts only those candidates.
 */
#ifndef ZESORT_CPU_TOPK_H
#define ZESORT_CPU_TOPK_H

#include <stdint.h>

/* Writes to pos (NULL: not wanted), in increasing order, the input
 * positions of the k keys (0 < k < n) that a stable sort of keys[0, n) (key_bytes 1, 2, 4 or 8)
 * by bits [bit_lo, bit_hi) of the ordered key (key_flags as zs_cpu_sort's:
 * kind | descending << 2; bit_lo < bit_hi <= the key's width) puts first:
 * every key below the k-th key's bits, then the first keys equal to it, in
 * input order; and to keys_out (NULL: not wanted) those keys, in the same
 * order. Runs on the C fallback's threads (ZESORT_THREADS) from
 * 2 * ZS_CPU_MIN_KEYS_PER_THREAD keys. Never fails: without memory for its
 * lists it reads every key each pass. */
void zs_cpu_topk_select(const void *keys, uint64_t n, uint64_t k, unsigned key_bytes,
                        uint32_t key_flags, unsigned bit_lo, unsigned bit_hi, uint64_t *pos,
                        void *keys_out);

/* For k a large part of n (0 < k < n): writes to keys_out (room for n keys)
 * and pos (NULL: not wanted; room for n) every key whose sort bits (as
 * zs_cpu_topk_select's) are at or below a bound that a sample of the keys
 * puts above the k-th key's, in input order, with its position; a stable
 * sort of those m keys then begins with the answer. Returns m (k <= m <= n),
 * or 0 when the sample's bound holds fewer than k keys, n is below 65536 or
 * memory ran out (the caller then takes every key). One read of the keys,
 * on the C fallback's threads. */
uint64_t zs_cpu_topk_bounded(const void *keys, uint64_t n, uint64_t k, unsigned key_bytes,
                             uint32_t key_flags, unsigned bit_lo, unsigned bit_hi, uint64_t *pos,
                             void *keys_out);

#endif
