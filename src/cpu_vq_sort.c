/*
 * cpu_vq_sort.c — the C fallback's keys-only, all-bits strategy: each
 * member of the team vqsorts one block of the keys in place, then rounds of
 * pairwise merges, every member merging an equal share of each round's
 * output (its piece of a pair of runs found by a merge-path search), until
 * one run is left. Keys-only sorts by all bits may use an unstable sort:
 * equal keys are the same bits.
 *
 * Why blocks and merges, not a top-digit split then vqsorted buckets: on the
 * 2-core VM this was written on (AMD Zen 4, 16M random u64 keys), the split
 * then buckets took 271 ms on one thread against 158 ms for one vqsort of
 * everything (the split's scatter and copy back cost more than vqsort saves
 * on small buckets), and merges read and write sequentially.
 *
 * Floats: see sort_block. The merges compare dk(k) (the signed integer in
 * the float's totalOrder, cpu_radix_kernels.h) computed on the fly, so no
 * pass turns keys into dk(k) and back: that cost an f64 sort on one thread
 * 9.4 ms against 8.4 for u64 (1M keys).
 */
#include "cpu_vq_sort.h"

#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "cpu_threads.h"
#include "cpu_vqsort.h"

typedef struct vq_job {
    char *keys, *tmp;
    size_t n;
    unsigned kb;
    int kind, descending; /* kind: 0 unsigned, 1 signed, 2 float */
    uint64_t c;           /* ordered key: dk(k) ^ c as unsigned, c = sign bit and/or all ones */
    zs_vq **vq;           /* one sorter a member */
    size_t *run;          /* run r is [run[r], run[r + 1]) */
    unsigned runs;        /* before this round */
    const char *src;      /* this round: from */
    char *dst;            /* to */
    enum { VQ_BLOCKS, VQ_MERGE, VQ_COPY } what;
} vq_job;

/* dk of cpu_radix_kernels.h: a negative float gets every bit but the sign
 * flipped, which makes the float's totalOrder that of a signed integer. */
#define DK32(k) ((k) ^ ((0u - ((k) >> 31)) & (UINT32_MAX >> 1)))
#define DK64(k) ((k) ^ ((UINT64_C(0) - ((k) >> 63)) & (UINT64_MAX >> 1)))

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

/* How many of the first k outputs of merging a[0, la) and b[0, lb) come
 * from a (ties: a first, so the merge is stable; it need not be, but the
 * rule must be one). */
static size_t merge_split(const vq_job *j, const char *a, size_t la, const char *b, size_t lb,
                          size_t k)
{
    size_t lo = k > lb ? k - lb : 0, hi = k < la ? k : la;
    const unsigned kb = j->kb;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ordered(j, a + mid * kb) <= ordered(j, b + (k - mid - 1) * kb))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* count outputs of merging a[0, la) and b[0, lb) from a[i] and b[jb] on,
 * comparing ORD(k) (the ordered key): stretches of as many steps as neither
 * run can run out in, each step without a branch (a select), then the
 * tails. One function per key width and float-or-not. */
#define ZS_VQ_MERGE(name, T, ORD)                                                              \
    static void name(const T *a, size_t la, const T *b, size_t lb, size_t i, size_t jb, T *out, \
                     size_t count, T c)                                                         \
    {                                                                                           \
        size_t o = 0;                                                                           \
        for (;;) {                                                                              \
            size_t k = count - o;                                                               \
            k = la - i < k ? la - i : k;                                                        \
            k = lb - jb < k ? lb - jb : k;                                                      \
            if (k == 0)                                                                         \
                break;                                                                          \
            for (const size_t end = o + k; o < end; ++o) {                                      \
                const T va = a[i], vb = b[jb];                                                  \
                const size_t take_a = (T)(ORD(va) ^ c) <= (T)(ORD(vb) ^ c);                     \
                out[o] = take_a ? va : vb;                                                      \
                i += take_a;                                                                    \
                jb += 1 - take_a;                                                               \
            }                                                                                   \
        }                                                                                       \
        while (o < count && i < la)                                                             \
            out[o++] = a[i++];                                                                  \
        while (o < count && jb < lb)                                                            \
            out[o++] = b[jb++];                                                                 \
    }
#define ZS_SAME(k) (k)
ZS_VQ_MERGE(merge32, uint32_t, ZS_SAME)
ZS_VQ_MERGE(merge64, uint64_t, ZS_SAME)
ZS_VQ_MERGE(merge_f32, uint32_t, DK32)
ZS_VQ_MERGE(merge_f64, uint64_t, DK64)

/* Member m's share [lo, hi) of this round's output: the pieces of the pairs
 * of runs (run 2p and 2p + 1 become one run) that fall in it. */
static void merge_share(vq_job *j, size_t lo, size_t hi)
{
    const unsigned kb = j->kb;
    for (unsigned p = 0; 2 * p < j->runs; ++p) {
        const size_t s = j->run[2 * p], mid = j->run[2 * p + 1];
        const size_t e = 2 * p + 2 <= j->runs ? j->run[2 * p + 2] : mid;
        const size_t from = lo > s ? lo : s, to = hi < e ? hi : e;
        if (from >= to)
            continue;
        const char *a = j->src + s * kb, *b = j->src + mid * kb;
        const size_t la = mid - s, lb = e - mid;
        const size_t i = merge_split(j, a, la, b, lb, from - s), jb = from - s - i;
        void *out = j->dst + from * kb;
        const void *va = a, *vb = b;
        if (kb == 8)
            (j->kind == 2 ? merge_f64 : merge64)(va, la, vb, lb, i, jb, out, to - from, j->c);
        else
            (j->kind == 2 ? merge_f32 : merge32)(va, la, vb, lb, i, jb, out, to - from, (uint32_t)j->c);
    }
}

static void vq_phase(void *arg, unsigned m, unsigned members)
{
    vq_job *j = arg;
    const size_t lo = (size_t)((uint64_t)j->n * m / members);
    const size_t hi = (size_t)((uint64_t)j->n * (m + 1) / members);
    switch (j->what) {
    case VQ_BLOCKS: /* run m is member m's block; its share of tmp populated */
        if (j->tmp)
            zs_cpu_populate(j->tmp, lo * j->kb, hi * j->kb);
        sort_block(j, m, j->keys + lo * j->kb, hi - lo);
        break;
    case VQ_MERGE:
        merge_share(j, lo, hi);
        break;
    case VQ_COPY:
        memcpy(j->dst + lo * j->kb, j->src + lo * j->kb, (hi - lo) * j->kb);
        break;
    }
}

/* The runs after a round: pairs joined, an odd last run kept. */
static void join_runs(vq_job *j)
{
    unsigned r = 0;
    for (unsigned p = 0; 2 * p < j->runs; ++p)
        j->run[r++] = j->run[2 * p];
    j->run[r] = j->n;
    j->runs = r;
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
    const uint64_t all = key_bytes == 8 ? UINT64_MAX : UINT32_MAX;
    j.c = (j.kind ? (uint64_t)1 << (key_bytes * 8u - 1u) : 0) ^ (j.descending ? all : 0);

    /* all memory before the first write to the caller's keys */
    zs_team *team = zs_team_start(threads, create_limit);
    const unsigned members = zs_team_size(team);
    j.vq = calloc(members, sizeof *j.vq);
    j.run = calloc(members + 1u, sizeof *j.run);
    j.tmp = members > 1 ? zs_cpu_alloc_temp(n * key_bytes, 0) : NULL;
    int ok = j.vq && j.run && (members == 1 || j.tmp);
    for (unsigned m = 0; ok && m < members; ++m)
        ok = (j.vq[m] = zs_vq_new()) != NULL;
    if (!ok) {
        zs_team_stop(team);
        vq_free(j.vq, members), free(j.run), free(j.tmp);
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }

    for (unsigned m = 0; m <= members; ++m)
        j.run[m] = (size_t)((uint64_t)n * m / members);
    j.runs = members;
    j.what = VQ_BLOCKS;
    zs_team_run(team, vq_phase, &j);
    /* merges ping-pong between the keys and tmp; an odd number of rounds
     * ends with a copy back */
    j.src = keys, j.dst = j.tmp;
    unsigned rounds = 0;
    for (unsigned r = members; r > 1; r = (r + 1) / 2)
        ++rounds;
    for (unsigned round = 0; round < rounds; ++round) {
        j.what = VQ_MERGE;
        zs_team_run(team, vq_phase, &j);
        join_runs(&j);
        const char *t = j.src;
        j.src = j.dst, j.dst = (char *)t;
    }
    if (rounds % 2) {
        j.what = VQ_COPY;
        j.dst = keys;
        zs_team_run(team, vq_phase, &j);
    }
    zs_team_stop(team);
    vq_free(j.vq, members), free(j.run), free(j.tmp);
    return ZESORT_OK;
}
