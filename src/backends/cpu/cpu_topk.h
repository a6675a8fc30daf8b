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

#endif
