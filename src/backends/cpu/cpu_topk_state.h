/*
 * cpu_topk_state.h — what the C fallback's radix select (cpu_topk.c) and its
 * compaction (cpu_topk_compact.c) share: a key's sort bits, the state of
 * the passes, and the compaction's two ways. Not a public header of the
 * C fallback: cpu_topk.h is.
 */
#ifndef ZESORT_CPU_TOPK_STATE_H
#define ZESORT_CPU_TOPK_STATE_H

#include <stdint.h>

#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/key_order.h"

#define ZS_TOPK_DIGIT_BITS 8u
#define ZS_TOPK_BINS (1u << ZS_TOPK_DIGIT_BITS)

/* The sort bits of a key: its ordered key's (key_order.h) bits
 * [lo, lo + width). */
typedef struct key_map {
    uint64_t c, mask;
    int flt;
    unsigned lo;
} key_map;

/* Of dk(k) (zs_key_dk): branch-free, so that the compiler vectorises the
 * counting loops. */
static inline uint64_t sort_bits(key_map m, uint64_t dk)
{
    return ((dk ^ m.c) >> m.lo) & m.mask;
}

/* One body (the variadic part: it may hold commas) for the four key widths:
 * K is the typed keys' pointer in it (the load is then a plain typed read,
 * not a switch per key). */
#define ZS_BY_WIDTH(keys, kb, ...)                                                     \
    do {                                                                               \
        if ((kb) == 1) {                                                               \
            const uint8_t *K = (keys);                                                 \
            __VA_ARGS__                                                                \
        } else if ((kb) == 2) {                                                        \
            const uint16_t *K = (keys);                                                \
            __VA_ARGS__                                                                \
        } else if ((kb) == 4) {                                                        \
            const uint32_t *K = (keys);                                                \
            __VA_ARGS__                                                                \
        } else {                                                                       \
            const uint64_t *K = (keys);                                                \
            __VA_ARGS__                                                                \
        }                                                                              \
    } while (0)

/* A list: sort bits, and (collected mode) input positions. */
typedef struct list {
    uint64_t *v, *pos;
    uint64_t n;
} list;

/* What the passes know: the keys in play are those whose sort bits above
 * `shift` equal `prefix`; the k-th key is the one of rank `rank` among them,
 * and `less` keys are below them. */
typedef struct select_state {
    const void *keys;
    uint64_t n;
    unsigned kb;
    key_map m;
    unsigned shift;
    uint64_t prefix, rank, in_play, less;
    list l;        /* l.v NULL: no list yet */
    int collected; /* 1: l holds every key below too, with positions */
    uint64_t hist[ZS_TOPK_BINS];
    uint64_t lo, hi; /* the smallest and largest sort bits in play */
    zs_team *team;
} select_state;

/* Writes the k winners of every key, in input order: those whose sort bits
 * are below kth and the first `equal` of those equal to it (positions to
 * pos, keys to out: either may be NULL); on s's team. */
void zs_topk_compact_keys(const select_state *s, uint64_t kth, uint64_t equal, uint64_t k,
                          uint64_t *pos, void *out);

/* The same from a collected list (every winner is in it, in input order). */
void zs_topk_compact_list(const select_state *s, uint64_t kth, uint64_t equal, uint64_t k,
                          uint64_t *pos, void *out);

#endif
