/*
 * cpu_partition.c — the host's partition of keys by one digit (cpu_partition.h):
 * the counts and the stable scatter of the split of a sort too big for its
 * devices, on the C fallback's team for big partitions.
 */
#include "backends/cpu/cpu_partition.h"

#include <string.h>

#include "backends/cpu/key_order.h"

/* The bucket of a key: bits [shift, shift + d) of its ordered key
 * (key_order.h). One loop per key width, typed copies: a
 * memcpy of run-time width per key made the split 4x slower. */
#define ZS_SPLIT_KERNELS(SFX, T)                                                                 \
    static inline unsigned bucket_##SFX(T k, int flt, T c, unsigned shift, T mask)               \
    {                                                                                            \
        return (unsigned)(((zs_key_dk(k, flt) ^ c) >> shift) & mask);                            \
    }                                                                                            \
    static void count_##SFX(const T *k, uint64_t n, int flt, T c, unsigned shift, T mask,         \
                            uint64_t *count)                                                      \
    {                                                                                             \
        for (uint64_t i = 0; i < n; i++)                                                          \
            count[bucket_##SFX(k[i], flt, c, shift, mask)]++;                                     \
    }                                                                                             \
    /* into groups of buckets (map: a bucket's group; at: each group's next slot);         \
     * values: vb 0 none, 4 or 8 bytes from vin, or (iota) the input positions */                \
    static void scatter_##SFX(const T *k, const void *vin, unsigned vb, int iota, uint64_t first, \
                              uint64_t n, int flt, T c, unsigned shift, T mask,                   \
                              const uint16_t *map, uint64_t *at, T *ko, void *vo)                 \
    {                                                                                             \
        uint32_t *v32 = vo;                                                                       \
        uint64_t *v64 = vo;                                                                       \
        const uint32_t *i32 = vin;                                                                \
        const uint64_t *i64 = vin;                                                                \
        for (uint64_t i = 0; i < n; i++) {                                                        \
            const uint64_t to = at[map[bucket_##SFX(k[i], flt, c, shift, mask)]]++;               \
            ko[to] = k[i];                                                                        \
            if (vb == 8)                                                                          \
                v64[to] = iota ? first + i : i64[i];                                              \
            else if (vb == 4)                                                                     \
                v32[to] = iota ? (uint32_t)(first + i) : i32[i];                                  \
        }                                                                                         \
    }
ZS_SPLIT_KERNELS(8, uint8_t)
ZS_SPLIT_KERNELS(16, uint16_t)
ZS_SPLIT_KERNELS(32, uint32_t)
ZS_SPLIT_KERNELS(64, uint64_t)

/* One partition's digit and its arrays: keys (values; iota: an argsort's
 * indices made from the positions) into ko (vo), by `members` chunks of
 * the keys in order. hist: members x bins counts, then each member's next
 * slot of each group. */
typedef struct digit_job {
    const void *keys, *values;
    int iota, flt;
    uint64_t n, c;
    unsigned kb, vb, shift, bins, members;
    void *ko, *vo;
    uint64_t *hist;
    const uint16_t *map;
} digit_job;

/* Member m's chunk [lo, hi) of the keys; returns its row of hist. */
static uint64_t *chunk_of(const digit_job *j, unsigned m, uint64_t *lo, uint64_t *hi)
{
    *lo = j->n * m / j->members;
    *hi = j->n * (m + 1) / j->members;
    return j->hist + (size_t)m * j->bins;
}

static void count_member(void *arg, unsigned m, unsigned members)
{
    const digit_job *j = arg;
    uint64_t lo, hi, *h = chunk_of(j, m, &lo, &hi);
    (void)members;
    memset(h, 0, j->bins * sizeof *h);
    switch (j->kb) {
    case 1:
        count_8((const uint8_t *)j->keys + lo, hi - lo, j->flt, (uint8_t)j->c, j->shift,
                (uint8_t)(j->bins - 1u), h);
        break;
    case 2:
        count_16((const uint16_t *)j->keys + lo, hi - lo, j->flt, (uint16_t)j->c, j->shift,
                 (uint16_t)(j->bins - 1u), h);
        break;
    case 4:
        count_32((const uint32_t *)j->keys + lo, hi - lo, j->flt, (uint32_t)j->c, j->shift,
                 j->bins - 1u, h);
        break;
    default:
        count_64((const uint64_t *)j->keys + lo, hi - lo, j->flt, j->c, j->shift, j->bins - 1u, h);
    }
}

static void scatter_member(void *arg, unsigned m, unsigned members)
{
    const digit_job *j = arg;
    uint64_t lo, hi, *at = chunk_of(j, m, &lo, &hi);
    (void)members;
    const void *v = j->values && !j->iota ? (const char *)j->values + lo * j->vb : NULL;
    switch (j->kb) {
    case 1:
        scatter_8((const uint8_t *)j->keys + lo, v, j->vb, j->iota, lo, hi - lo, j->flt,
                  (uint8_t)j->c, j->shift, (uint8_t)(j->bins - 1u), j->map, at, j->ko, j->vo);
        break;
    case 2:
        scatter_16((const uint16_t *)j->keys + lo, v, j->vb, j->iota, lo, hi - lo, j->flt,
                   (uint16_t)j->c, j->shift, (uint16_t)(j->bins - 1u), j->map, at, j->ko, j->vo);
        break;
    case 4:
        scatter_32((const uint32_t *)j->keys + lo, v, j->vb, j->iota, lo, hi - lo, j->flt,
                   (uint32_t)j->c, j->shift, j->bins - 1u, j->map, at, j->ko, j->vo);
        break;
    default:
        scatter_64((const uint64_t *)j->keys + lo, v, j->vb, j->iota, lo, hi - lo, j->flt, j->c,
                   j->shift, j->bins - 1u, j->map, at, j->ko, j->vo);
    }
}

/* fn on every member: the team's threads, or the caller alone. */
static void run_members(zs_team *team, digit_job *j, zs_team_fn fn)
{
    if (j->members > 1)
        zs_team_run(team, fn, j);
    else
        fn(j, 0, 1);
}

/* The groups' slots: each member's first slot of each group, written over
 * its counts (group i starts at a bucket >= i, so hist[m][i] is read before
 * it is written), members in order within a group (stable). Group i: the
 * run of buckets that the map gives i. */
static void group_slots(digit_job *j, const uint64_t *start, unsigned groups)
{
    unsigned e = 0;
    for (unsigned i = 0; i < groups; i++) {
        const unsigned b0 = e;
        while (e < j->bins && j->map[e] == i)
            e++;
        uint64_t off = start[b0];
        for (unsigned m = 0; m < j->members; m++) {
            uint64_t *h = j->hist + (size_t)m * j->bins, count = 0;
            for (unsigned b = b0; b < e; b++)
                count += h[b];
            h[i] = off;
            off += count;
        }
    }
}

unsigned zs_cpu_partition(zs_team *team, const zs_partition *p, zs_partition_groups_fn groups_of,
                          void *user, unsigned *groups)
{
    const unsigned kb = p->key_bytes, span = p->bit_hi - p->bit_lo;
    const unsigned d = span < ZS_SPLIT_BITS ? span : ZS_SPLIT_BITS;
    digit_job j = {p->keys, p->values, p->iota, zs_key_is_float(p->key_flags), p->n,
                   zs_key_order_xor(kb, p->key_flags), kb, p->value_bytes, p->bit_hi - d, 1u << d,
                   p->n >= ZS_SPLIT_PARALLEL_FROM ? zs_team_size(team) : 1, p->keys_out,
                   p->values_out, p->hist, p->map};
    run_members(team, &j, count_member);
    memset(p->start, 0, (j.bins + 1u) * sizeof *p->start);
    for (unsigned m = 0; m < j.members; m++)
        for (unsigned b = 0; b < j.bins; b++)
            p->start[b + 1] += p->hist[(size_t)m * j.bins + b];
    for (unsigned b = 0; b < j.bins; b++)
        p->start[b + 1] += p->start[b];
    *groups = groups_of(user, p->start, j.bins, p->map);
    group_slots(&j, p->start, *groups);
    run_members(team, &j, scatter_member);
    return j.shift;
}
