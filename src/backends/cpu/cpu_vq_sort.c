/*
 * cpu_vq_sort.c — the C fallback's keys-only, all-bits strategy: the keys
 * are split in place into one range per member of the team by partitions
 * around sampled pivots (a range for c members is split in the ratio
 * c/2 : c - c/2 by its first member, ceil(log2 members) rounds), then each
 * member vqsorts its range in place. Keys-only sorts by all bits may use an
 * unstable sort: equal keys are the same bits.
 *
 * Why: no temporary copy, no merge, no copy back. On the 2-core VM this was
 * written on (AMD Zen 4, random u64 keys, 2 threads, best of 5) vqsorted
 * blocks then a merge into a temporary copy and a copy back took 7.1-7.7 ms
 * for 1M keys and 124-137 ms for 16M (the merge 1.8 and 27 ms, the copy 0.4
 * and 7, the temporary copy's pages 1 and 10-100); a top-digit scatter into
 * buckets then vqsorted in cache took 271 ms for 16M on one thread against
 * 158 for one vqsort of everything.
 *
 * The partition is a block partition (BlockQuicksort, Edelkamp and Weiss
 * 2016): the misplaced keys of a block of each end are found without a
 * branch, then swapped, so random keys cost no branch misprediction.
 *
 * Floats: see sort_block. Partitions compare dk(k) (the signed integer in
 * the float's totalOrder, key_order.h) computed on the fly, so no
 * pass turns keys into dk(k) and back.
 */
#include "backends/cpu/cpu_vq_sort.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_hwy_vqsort.h"
#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/key_order.h"

/* The keys of `count` members: [lo, hi), split among them while count > 1. */
typedef struct vq_group {
    size_t lo, hi;
    unsigned first, count;
} vq_group;

typedef struct vq_job {
    char *keys;
    size_t n;
    unsigned kb;
    int kind, descending; /* kind: 0 unsigned, 1 signed, 2 float */
    uint64_t c;           /* ordered key: dk(k) ^ c as unsigned, c = sign bit and/or all ones */
    zs_vq **vq;           /* one sorter a member */
    vq_group *group;      /* at most one a member */
    size_t *split;        /* the current round: where group g's range was split */
    unsigned groups;
    enum { VQ_SPLIT, VQ_SORT } what;
} vq_job;

/* dk of key_order.h for floats: the float's totalOrder is then that of a
 * signed integer. */
#define DK32(k) zs_key_dk32((k), 1)
#define DK64(k) zs_key_dk64((k), 1)
#define ZS_SAME(k) (k)

static uint64_t ordered(const vq_job *j, const char *p)
{
    if (j->kb == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return (j->kind == 2 ? DK64(v) : v) ^ j->c;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return (j->kind == 2 ? DK32(v) : v) ^ j->c;
}

/* The first of count keys, sorted as signed integers (ascending: the
 * negatives first; descending: last), whose sign bit is clear (ascending)
 * or set (descending): a binary search. */
static size_t sign_change(const char *p, size_t count, unsigned kb, int descending)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        uint64_t v = 0;
        memcpy(&v, p + mid * kb, kb); /* little endian: the key's low bytes */
        const int negative = (int)(v >> (kb * 8u - 1u)) & 1;
        if (negative != descending)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#define ZS_REVERSE(name, T)                                                                    \
    static void name(T *k, size_t count)                                                        \
    {                                                                                           \
        for (size_t i = 0, e = count; i + 1 < e; ++i, --e) {                                    \
            const T t = k[i];                                                                   \
            k[i] = k[e - 1];                                                                    \
            k[e - 1] = t;                                                                       \
        }                                                                                       \
    }
ZS_REVERSE(reverse32, uint32_t)
ZS_REVERSE(reverse64, uint64_t)

static void reverse(char *p, size_t count, unsigned kb)
{
    if (kb == 8)
        reverse64((uint64_t *)(void *)p, count);
    else
        reverse32((uint32_t *)(void *)p, count);
}

/* Member m's block in place, in totalOrder. Floats are vqsorted as signed
 * integers, not as floats: Highway 1.0.3 turns +inf into FLT_MAX when it
 * sorts floats, and orders neither NaNs nor zeros' signs. As signed
 * integers the non-negative floats are in order and the negative ones (sign
 * set) in reverse, so their run is reversed: a pass over the negatives only,
 * where turning every key into dk(k) and back took two passes over all. */
static void sort_block(const vq_job *j, unsigned m, char *p, size_t count)
{
    zs_vq_sort(j->vq[m], p, count, j->kb, j->kind != 0, j->descending);
    if (j->kind != 2)
        return;
    const size_t at = sign_change(p, count, j->kb, j->descending);
    if (j->descending)
        reverse(p + at * j->kb, count - at, j->kb);
    else
        reverse(p, at, j->kb);
}

/* Partitions k[0, n) in place so that the keys whose ordered key ORD(k) ^ c
 * is below pivot come first; returns how many. Blocks of ZS_VQ_BLOCK keys
 * at each end: the offsets of the keys that belong to the other side are
 * gathered without a branch, then swapped pairwise; what is left (under
 * two blocks, and a block partly done) by the plain two-ended scan. */
#define ZS_VQ_BLOCK 128u
#define ZS_VQ_PARTITION(name, T, ORD)                                                          \
    static size_t name(T *k, size_t n, T c, T pivot)                                            \
    {                                                                                           \
        unsigned char off_l[ZS_VQ_BLOCK], off_r[ZS_VQ_BLOCK];                                   \
        size_t l = 0, r = n, num_l = 0, num_r = 0, at_l = 0, at_r = 0;                          \
        while (r - l > 2 * ZS_VQ_BLOCK) {                                                       \
            if (num_l == 0) {                                                                   \
                at_l = 0;                                                                       \
                for (unsigned i = 0; i < ZS_VQ_BLOCK; ++i) {                                    \
                    off_l[num_l] = (unsigned char)i;                                            \
                    num_l += (T)(ORD(k[l + i]) ^ c) >= pivot;                                   \
                }                                                                               \
            }                                                                                   \
            if (num_r == 0) {                                                                   \
                at_r = 0;                                                                       \
                for (unsigned i = 0; i < ZS_VQ_BLOCK; ++i) {                                    \
                    off_r[num_r] = (unsigned char)i;                                            \
                    num_r += (T)(ORD(k[r - 1 - i]) ^ c) < pivot;                                \
                }                                                                               \
            }                                                                                   \
            const size_t swaps = num_l < num_r ? num_l : num_r;                                 \
            for (size_t s = 0; s < swaps; ++s) {                                                \
                T *a = &k[l + off_l[at_l + s]], *b = &k[r - 1 - off_r[at_r + s]];               \
                const T t = *a;                                                                 \
                *a = *b;                                                                        \
                *b = t;                                                                         \
            }                                                                                   \
            num_l -= swaps, num_r -= swaps, at_l += swaps, at_r += swaps;                       \
            if (num_l == 0)                                                                     \
                l += ZS_VQ_BLOCK;                                                               \
            if (num_r == 0)                                                                     \
                r -= ZS_VQ_BLOCK;                                                               \
        }                                                                                       \
        for (;;) { /* [0, l) below the pivot, [r, n) not */                                     \
            while (l < r && (T)(ORD(k[l]) ^ c) < pivot)                                         \
                ++l;                                                                            \
            while (l < r && (T)(ORD(k[r - 1]) ^ c) >= pivot)                                    \
                --r;                                                                            \
            if (l >= r)                                                                         \
                return l;                                                                       \
            const T t = k[l];                                                                   \
            k[l++] = k[r - 1];                                                                  \
            k[--r] = t;                                                                         \
        }                                                                                       \
    }
ZS_VQ_PARTITION(partition32, uint32_t, ZS_SAME)
ZS_VQ_PARTITION(partition64, uint64_t, ZS_SAME)
ZS_VQ_PARTITION(partition_f32, uint32_t, DK32)
ZS_VQ_PARTITION(partition_f64, uint64_t, DK64)

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Group g's range split in place: its first count/2 members' share of the
 * keys (by a pivot from ZS_VQ_SAMPLE evenly spaced keys) before the rest. */
#define ZS_VQ_SAMPLE 255u
static size_t split_group(const vq_job *j, const vq_group *g)
{
    const size_t n = g->hi - g->lo;
    if (n < 2)
        return g->lo;
    uint64_t sample[ZS_VQ_SAMPLE];
    const unsigned ns = n < ZS_VQ_SAMPLE ? (unsigned)n : ZS_VQ_SAMPLE;
    for (unsigned i = 0; i < ns; ++i)
        sample[i] = ordered(j, j->keys + (g->lo + (size_t)((uint64_t)n * i / ns)) * j->kb);
    qsort(sample, ns, sizeof sample[0], cmp_u64);
    const uint64_t pivot = sample[(size_t)ns * (g->count / 2) / g->count];
    char *p = j->keys + g->lo * j->kb;
    size_t left;
    if (j->kb == 8)
        left = (j->kind == 2 ? partition_f64 : partition64)((uint64_t *)(void *)p, n, j->c, pivot);
    else
        left = (j->kind == 2 ? partition_f32 : partition32)((uint32_t *)(void *)p, n,
                                                            (uint32_t)j->c, (uint32_t)pivot);
    return g->lo + left;
}

static void vq_phase(void *arg, unsigned m, unsigned members)
{
    (void)members;
    vq_job *j = arg;
    for (unsigned g = 0; g < j->groups; ++g) {
        const vq_group *gr = &j->group[g];
        if (gr->first != m)
            continue;
        if (j->what == VQ_SPLIT && gr->count > 1)
            j->split[g] = split_group(j, gr);
        else if (j->what == VQ_SORT)
            sort_block(j, m, j->keys + gr->lo * j->kb, gr->hi - gr->lo);
    }
}

/* The groups after a round: each group of count > 1 becomes two. */
static void split_groups(vq_job *j)
{
    const unsigned before = j->groups;
    for (unsigned g = 0; g < before; ++g) {
        vq_group *gr = &j->group[g];
        if (gr->count < 2)
            continue;
        const unsigned half = gr->count / 2;
        j->group[j->groups++] = (vq_group){j->split[g], gr->hi, gr->first + half, gr->count - half};
        gr->hi = j->split[g];
        gr->count = half;
    }
}

static void vq_free(zs_vq **vq, unsigned count)
{
    for (unsigned m = 0; vq && m < count; ++m)
        zs_vq_free(vq[m]);
    free(vq);
}

zesort_status zs_cpu_vq_sort(void *keys, size_t n, unsigned key_bytes, uint32_t key_flags,
                             unsigned threads, unsigned create_limit)
{
    vq_job j = {.keys = keys, .n = n, .kb = key_bytes};
    j.kind = (int)(key_flags & 3u);
    j.descending = (key_flags & 4u) != 0;
    j.c = zs_key_order_xor(key_bytes, key_flags);

    /* all memory before the first write to the caller's keys */
    zs_team *team = zs_team_start(threads, create_limit);
    const unsigned members = zs_team_size(team);
    j.vq = calloc(members, sizeof *j.vq);
    j.group = calloc(members, sizeof *j.group);
    j.split = calloc(members, sizeof *j.split);
    int ok = j.vq && j.group && j.split;
    for (unsigned m = 0; ok && m < members; ++m)
        ok = (j.vq[m] = zs_vq_new()) != NULL;
    if (ok) {
        j.group[0] = (vq_group){0, n, 0, members};
        j.groups = 1;
        j.what = VQ_SPLIT;
        while (j.groups < members) {
            zs_team_run(team, vq_phase, &j);
            split_groups(&j);
        }
        j.what = VQ_SORT;
        zs_team_run(team, vq_phase, &j);
    }
    zs_team_stop(team);
    vq_free(j.vq, members), free(j.group), free(j.split);
    return ok ? ZESORT_OK : ZESORT_ERROR_OUT_OF_HOST_MEMORY;
}
