/*
 * cpu_segments.c — the C fallback's segmented sort: segments sorted
 * independently, in parallel.
 *
 * The keys of [offsets[0], offsets[S]) are cut into blocks of ZS_SEG_BLOCK
 * keys; team members claim blocks from an atomic counter and sort every
 * segment that starts in their block (so a block of many tiny segments and
 * one holding a segment of 100K keys balance themselves). A segment sorts
 * by the cheapest way for its size:
 * - up to ZS_SEG_SMALL_MAX keys without values, more than ZS_SEG_MERGE_MAX:
 *   the keys themselves by LSD passes of 8-bit digits in the member's
 *   scratch (4096-key segments of 16M u32 keys: 62 -> 53 ms against the
 *   records below);
 * - else up to ZS_SEG_SMALL_MAX keys: (ordered key bits, position) records in
 *   the member's scratch, sorted stably (a merge sort up to ZS_SEG_MERGE_MAX
 *   keys, else LSD passes of 8-bit digits, constant digits skipped), then the
 *   keys and values gathered by position — no allocation, 256-bin tables;
 *   up to ZS_SEG_MERGE_MAX keys with at most ZS_SEG_WORD_BITS bits to sort
 *   (every 32-bit key), one 8-byte word a key instead, (bits << 12 | its
 *   position): words are all different, so sorting networks (not stable
 *   themselves) sort them stably, branch-free;
 * - larger: zs_cpu_sort_with on one thread (the radix passes, or vqsort
 *   where it was calibrated faster);
 * - from ZS_SEG_TEAM_MIN keys (with more than one thread): left out of the
 *   blocks and sorted afterwards one at a time by zs_cpu_sort on every
 *   thread, as one unsegmented sort of that size would be;
 * - longer than the caller's max_len (more than zs_cpu_sort takes at once):
 *   left to the caller, who splits each as zesort_sort splits so many keys.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/backend_cpu.h"
#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/key_order.h"

/* Keys per claimed block: large enough that the claim's atomic costs
 * nothing, small enough that 2 threads end together (16M keys: 256 blocks). */
#define ZS_SEG_BLOCK 65536u
/* Segments of at most this many keys are sorted in scratch (128 KiB of
 * records per member twice plus a copy of the keys and values): measured
 * (bench --segments, 16M u32 keys, 2 threads) the radix passes of
 * zs_cpu_sort_with cost ~0.1 ms of set-up per call, as much as 1024 keys. */
#define ZS_SEG_SMALL_MAX 4096u
/* Up to this many keys a merge sort (its merge picks without a branch: the
 * order is random, a branch mispredicted every other key), above LSD passes
 * in scratch, whose 256-bin tables cost as much as the keys below ~64.
 * Measured (bench --segments, 16M u32 keys, 2 threads, busy VM, ms): 64-key
 * segments 143 merge / 170 radix, 128: 199 / 107, 256: 223 / 101; the
 * branching merge took 1410 ms at 1024. Packed words (network_sort) moved
 * the 64-key case to 105 ms (idle) but not the bound: 128-key segments took
 * 121 ms by words against 93 by radix. */
#define ZS_SEG_MERGE_MAX 64u
#define ZS_SEG_DIGITS 8u /* 8-bit digits of a 64-bit ordered key */
/* Segments of at least this many keys are sorted by the whole team: the
 * unsegmented sort's rule for using two threads (ZS_CPU_MIN_KEYS_PER_THREAD). */
#define ZS_SEG_TEAM_MIN (2 * (uint64_t)ZS_CPU_MIN_KEYS_PER_THREAD)

typedef struct rec {
    uint64_t bits; /* the ordered key's bits [bit_lo, bit_hi) */
    uint32_t at;   /* position in the segment */
} rec;

/* Packed words (sort_small): a key's bits above its position in the segment. */
#define ZS_SEG_POS_BITS 12u /* positions < ZS_SEG_SMALL_MAX */
#define ZS_SEG_WORD_BITS (64u - ZS_SEG_POS_BITS)
_Static_assert(ZS_SEG_SMALL_MAX <= 1u << ZS_SEG_POS_BITS, "a position fits its bits");

typedef union items {
    rec r[ZS_SEG_SMALL_MAX];
    uint64_t w[ZS_SEG_SMALL_MAX];
} items;

typedef struct scratch {
    items a, b;
    uint32_t order[ZS_SEG_SMALL_MAX]; /* the positions in sorted order */
    uint32_t count[ZS_SEG_DIGITS][256];
    uint64_t keys[ZS_SEG_SMALL_MAX], values[ZS_SEG_SMALL_MAX];
} scratch;

/* A key's sort bits (key_bits): passed by value into the loops, where a
 * pointer's fields would be read again after every store to a count (same
 * type: they might alias). */
typedef struct key_map {
    uint64_t c, mask; /* ordered key = dk(k) ^ c (key_order.h); its bits >> bit_lo & mask */
    unsigned bit_lo;
    int flt;
} key_map;

typedef struct seg_job {
    char *keys, *values;
    const uint64_t *o;
    uint64_t s, first, end, blocks, team_min;
    uint64_t max_len; /* longer segments are the caller's */
    unsigned kb, vb, bit_lo, bit_hi;
    uint32_t key_flags;
    key_map map;
    scratch *scr;     /* one per member */
    _Atomic uint64_t next_block;
    _Atomic int status;
} seg_job;

/* The sort key of a key whose digit key (zs_key_dk) is dk: the ordered
 * key's bits [bit_lo, bit_hi) (the kernels' and the radix passes' order). */
static inline uint64_t key_bits(key_map m, uint64_t dk)
{
    return ((dk ^ m.c) >> m.bit_lo) & m.mask;
}

/* The sort key of keys[i]. */
static inline uint64_t sort_bits(const seg_job *j, uint64_t i)
{
    switch (j->kb) {
    case 1: return key_bits(j->map, zs_key_dk(((const uint8_t *)j->keys)[i], j->map.flt));
    case 2: return key_bits(j->map, zs_key_dk(((const uint16_t *)j->keys)[i], j->map.flt));
    case 4: return key_bits(j->map, zs_key_dk(((const uint32_t *)j->keys)[i], j->map.flt));
    default: return key_bits(j->map, zs_key_dk(((const uint64_t *)j->keys)[i], j->map.flt));
    }
}

/* Bottom-up merges of the sorted runs of 8 of a[0, n), between a and t (on
 * equal keys the left run first); returns the array holding the result.
 * One body for records and packed words. */
#define ZS_SEG_MERGES(NAME, T, KEY)                                                    \
    static T *NAME(T *a, T *t, size_t n)                                               \
    {                                                                                  \
        for (size_t w = 8; w < n; w *= 2) {                                            \
            for (size_t lo = 0; lo < n; lo += 2 * w) {                                 \
                const size_t mid = lo + w < n ? lo + w : n;                            \
                const size_t hi = lo + 2 * w < n ? lo + 2 * w : n;                     \
                size_t i = lo, k = mid, o = lo;                                        \
                while (i < mid && k < hi) { /* branch-free: the order is random */     \
                    const size_t right = KEY(a[k]) < KEY(a[i]);                        \
                    t[o++] = a[right ? k : i];                                         \
                    k += right, i += 1 - right;                                        \
                }                                                                      \
                while (i < mid)                                                        \
                    t[o++] = a[i++];                                                   \
                while (k < hi)                                                         \
                    t[o++] = a[k++];                                                   \
            }                                                                          \
            T *x = a;                                                                  \
            a = t, t = x;                                                              \
        }                                                                              \
        return a;                                                                      \
    }
#define ZS_REC_KEY(x) ((x).bits)
#define ZS_WORD_KEY(x) (x)
ZS_SEG_MERGES(merge_records, rec, ZS_REC_KEY)
ZS_SEG_MERGES(merge_words, uint64_t, ZS_WORD_KEY)

/* Stable sort of n records by bits: insertion sort of runs of 8, then the
 * merges. Returns the array holding the result. */
static rec *merge_sort(rec *a, rec *t, size_t n)
{
    for (size_t s = 0; s < n; s += 8) {
        const size_t e = s + 8 < n ? s + 8 : n;
        for (size_t i = s + 1; i < e; i++) {
            const rec x = a[i];
            size_t p = i;
            for (; p > s && a[p - 1].bits > x.bits; p--)
                a[p] = a[p - 1];
            a[p] = x;
        }
    }
    return merge_records(a, t, n);
}

/* Sort of n distinct words (room for n rounded up to 8): the last run
 * padded with UINT64_MAX (no word's: positions below 64 here), each run of 8 by a 19-comparator network
 * (min / max: no branch to mispredict), then the merges; the pads end up
 * past n. 64-key segments: 1.9x faster than records by insertion and merge
 * (a stand-alone program, 16M keys, one thread). */
static uint64_t *network_sort(uint64_t *a, uint64_t *t, size_t n)
{
    static const unsigned char net[19][2] = {
        {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {0, 1}, {2, 3},
        {4, 5}, {6, 7}, {2, 4}, {3, 5}, {1, 4}, {3, 6}, {1, 2}, {3, 4}, {5, 6}};
    const size_t m = (n + 7) & ~(size_t)7;
    for (size_t i = n; i < m; i++)
        a[i] = UINT64_MAX;
    for (size_t s = 0; s < m; s += 8)
        for (int c = 0; c < 19; c++) {
            uint64_t *x = &a[s + net[c][0]], *y = &a[s + net[c][1]];
            const uint64_t lo = *x < *y ? *x : *y, hi = *x < *y ? *y : *x;
            *x = lo, *y = hi;
        }
    return merge_words(a, t, m);
}

/* Stable sort of n items by their sort bits (KEY: the bits [0, bits) of the
 * sort key): one read counts every 8-bit digit, then a scatter per digit
 * that is not the same for all keys, between a and t. Returns the array
 * holding the result. One body for records (KEY: their bits) and for keys
 * themselves (KEY: key_bits, by m). */
#define ZS_SEG_RADIX(NAME, T, KEY)                                                        \
    static T *NAME(key_map m, T *a, T *t, size_t n, unsigned bits,                    \
                   uint32_t (*count)[256])                                            \
    {                                                                                 \
        (void)m;                                                                      \
        const unsigned nd = (bits + 7) / 8;                                           \
        memset(count, 0, nd * sizeof *count);                                         \
        for (size_t i = 0; i < n; i++) {                                              \
            const uint64_t k = KEY(a[i]); /* once: the counts' stores may alias a */  \
            for (unsigned d = 0; d < nd; d++)                                         \
                count[d][(k >> (8 * d)) & 255]++;                                     \
        }                                                                             \
        for (unsigned d = 0; d < nd; d++) {                                           \
            uint32_t *c = count[d];                                                   \
            if (c[(KEY(a[0]) >> (8 * d)) & 255] == n)                                 \
                continue; /* constant digit */                                        \
            uint32_t run = 0;                                                         \
            for (unsigned b = 0; b < 256; b++) {                                      \
                const uint32_t x = c[b];                                              \
                c[b] = run;                                                           \
                run += x;                                                             \
            }                                                                         \
            for (size_t i = 0; i < n; i++)                                            \
                t[c[(KEY(a[i]) >> (8 * d)) & 255]++] = a[i];                          \
            T *x = a;                                                                 \
            a = t, t = x;                                                             \
        }                                                                             \
        return a;                                                                     \
    }
#define ZS_KEY_BITS_OF(x) key_bits(m, zs_key_dk((x), m.flt))
ZS_SEG_RADIX(radix_records, rec, ZS_REC_KEY)
ZS_SEG_RADIX(radix_keys8, uint8_t, ZS_KEY_BITS_OF)
ZS_SEG_RADIX(radix_keys16, uint16_t, ZS_KEY_BITS_OF)
ZS_SEG_RADIX(radix_keys32, uint32_t, ZS_KEY_BITS_OF)
ZS_SEG_RADIX(radix_keys64, uint64_t, ZS_KEY_BITS_OF)

/* Keys without values, more than ZS_SEG_MERGE_MAX of them: the keys
 * themselves through the passes (1 to 8 bytes a key, not a word or a
 * record, and no gather), in the scratch's item arrays. */
static void sort_keys_only(const seg_job *j, scratch *sc, uint64_t b, size_t n)
{
    void *keys = j->keys + b * j->kb;
    const unsigned bits = j->bit_hi - j->bit_lo;
    memcpy(sc->a.w, keys, n * j->kb);
    void *a = sc->a.w, *t = sc->b.w;
    const void *sorted;
    switch (j->kb) {
    case 1: sorted = radix_keys8(j->map, a, t, n, bits, sc->count); break;
    case 2: sorted = radix_keys16(j->map, a, t, n, bits, sc->count); break;
    case 4: sorted = radix_keys32(j->map, a, t, n, bits, sc->count); break;
    default: sorted = radix_keys64(j->map, a, t, n, bits, sc->count); break;
    }
    memcpy(keys, sorted, n * j->kb);
}

/* Rearranges the n items of `bytes` (1, 2, 4 or 8) at base into `order`
 * (their positions), through copy (room for n items). */
#define ZS_SEG_GATHER(T)                                                                 \
    do {                                                                                 \
        T *a = (T *)(void *)base;                                                        \
        const T *c = (const T *)(void *)copy;                                            \
        for (size_t i = 0; i < n; i++)                                                   \
            a[i] = c[order[i]];                                                          \
    } while (0)
static void gather(char *base, unsigned bytes, uint64_t *copy, const uint32_t *order, size_t n)
{
    memcpy(copy, base, n * bytes);
    switch (bytes) {
    case 1: ZS_SEG_GATHER(uint8_t); break;
    case 2: ZS_SEG_GATHER(uint16_t); break;
    case 4: ZS_SEG_GATHER(uint32_t); break;
    default: ZS_SEG_GATHER(uint64_t); break;
    }
}
#undef ZS_SEG_GATHER

/* Segment [b, e) of at most ZS_SEG_SMALL_MAX keys, in the member's scratch. */
static void sort_small(const seg_job *j, scratch *sc, uint64_t b, uint64_t e)
{
    const size_t n = (size_t)(e - b);
    const uint64_t pos_mask = ((uint64_t)1 << ZS_SEG_POS_BITS) - 1u;
    if (!j->values && n > ZS_SEG_MERGE_MAX) {
        sort_keys_only(j, sc, b, n);
        return;
    }
    if (n <= ZS_SEG_MERGE_MAX && j->bit_hi - j->bit_lo <= ZS_SEG_WORD_BITS) {
        for (size_t i = 0; i < n; i++)
            sc->a.w[i] = sort_bits(j, b + i) << ZS_SEG_POS_BITS | i;
        const uint64_t *w = network_sort(sc->a.w, sc->b.w, n);
        for (size_t i = 0; i < n; i++)
            sc->order[i] = (uint32_t)(w[i] & pos_mask);
    } else {
        for (size_t i = 0; i < n; i++)
            sc->a.r[i] = (rec){sort_bits(j, b + i), (uint32_t)i};
        const rec *r = n <= ZS_SEG_MERGE_MAX
                           ? merge_sort(sc->a.r, sc->b.r, n)
                           : radix_records(j->map, sc->a.r, sc->b.r, n, j->bit_hi - j->bit_lo,
                                           sc->count);
        for (size_t i = 0; i < n; i++)
            sc->order[i] = r[i].at;
    }
    gather(j->keys + b * j->kb, j->kb, sc->keys, sc->order, n);
    if (j->values)
        gather(j->values + b * j->vb, j->vb, sc->values, sc->order, n);
}

static void sort_one(seg_job *j, scratch *sc, uint64_t b, uint64_t e)
{
    if (e - b <= ZS_SEG_SMALL_MAX) {
        sort_small(j, sc, b, e);
        return;
    }
    zs_cpu_config cfg;
    zs_cpu_config_default(&cfg);
    cfg.threads = 1;
    zesort_status st = zs_cpu_sort_with(j->keys + b * j->kb, j->values ? j->values + b * j->vb : NULL,
                                        e - b, j->kb, j->vb, j->key_flags, j->bit_lo, j->bit_hi,
                                        &cfg);
    if (st != ZESORT_OK)
        atomic_store(&j->status, (int)st);
}

/* The first segment starting at or after position p (s when none). */
static uint64_t first_segment_from(const seg_job *j, uint64_t p)
{
    uint64_t lo = 0, hi = j->s;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (j->o[mid] < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void member_run(void *arg, unsigned member, unsigned members)
{
    (void)members;
    seg_job *j = arg;
    uint64_t blk;
    while ((blk = atomic_fetch_add(&j->next_block, 1)) < j->blocks) {
        const uint64_t from = j->first + blk * ZS_SEG_BLOCK;
        const uint64_t to = from + ZS_SEG_BLOCK < j->end ? from + ZS_SEG_BLOCK : j->end;
        for (uint64_t i = first_segment_from(j, from); i < j->s && j->o[i] < to; i++) {
            const uint64_t len = j->o[i + 1] - j->o[i];
            if (len >= 2 && len < j->team_min && len <= j->max_len)
                sort_one(j, &j->scr[member], j->o[i], j->o[i + 1]);
        }
    }
}

zesort_status zs_cpu_sort_segments(void *keys, void *values, const uint64_t *offsets, uint64_t s,
                                   unsigned key_bytes, unsigned value_bytes, uint32_t key_flags,
                                   unsigned bit_lo, unsigned bit_hi, uint64_t max_len)
{
    const uint64_t m = offsets[s] - offsets[0];
    if (m < 2)
        return ZESORT_OK;
    seg_job *j = calloc(1, sizeof *j);
    if (!j)
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    unsigned want = zs_cpu_thread_count();
    if (m / ZS_CPU_MIN_KEYS_PER_THREAD < want)
        want = m / ZS_CPU_MIN_KEYS_PER_THREAD ? (unsigned)(m / ZS_CPU_MIN_KEYS_PER_THREAD) : 1;
    zs_team *team = want > 1 ? zs_team_start(want, ZS_CPU_MAX_THREADS) : NULL;
    const unsigned members = zs_team_size(team);
    j->scr = malloc((size_t)members * sizeof *j->scr);
    if (!j->scr) {
        zs_team_stop(team);
        free(j);
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    j->keys = keys, j->values = values, j->o = offsets, j->s = s;
    j->first = offsets[0], j->end = offsets[s];
    j->blocks = (m + ZS_SEG_BLOCK - 1) / ZS_SEG_BLOCK;
    j->team_min = members > 1 ? ZS_SEG_TEAM_MIN : UINT64_MAX;
    j->max_len = max_len;
    j->kb = key_bytes, j->vb = values ? value_bytes : 0;
    j->bit_lo = bit_lo, j->bit_hi = bit_hi, j->key_flags = key_flags;
    j->map = (key_map){zs_key_order_xor(key_bytes, key_flags),
                       bit_hi - bit_lo >= 64 ? UINT64_MAX
                                             : ((uint64_t)1 << (bit_hi - bit_lo)) - 1u,
                       bit_lo, zs_key_is_float(key_flags)};
    atomic_init(&j->next_block, 0);
    atomic_init(&j->status, ZESORT_OK);
    zs_team_run(team, member_run, j);
    zs_team_stop(team);
    /* the large segments: each by every thread, as one sort of its size */
    for (uint64_t i = 0; i < s && members > 1; i++) {
        const uint64_t b = offsets[i], len = offsets[i + 1] - b;
        if (len < j->team_min || len > max_len)
            continue;
        zesort_status st = zs_cpu_sort((char *)keys + b * key_bytes,
                                       values ? (char *)values + b * value_bytes : NULL, len,
                                       key_bytes, value_bytes, key_flags, bit_lo, bit_hi);
        if (st != ZESORT_OK)
            atomic_store(&j->status, (int)st);
    }
    zesort_status st = (zesort_status)atomic_load(&j->status);
    free(j->scr);
    free(j);
    return st;
}
