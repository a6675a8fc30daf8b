/*
 * split_sort.c — see split_sort.h. Why a partition and not sorted runs then
 * a merge: a run-and-merge sort reads and writes every key twice more on the
 * host (the runs come back, then the merge), and its merge must be stable
 * across runs; the partition reads the keys once into a host copy, and each
 * part goes to the device and comes back to its final place. Its cost is a
 * host copy of the keys and values, and parts of uneven size when the top
 * bits are skewed (a bucket bigger than a part is split again on the next
 * bits; one whose keys are equal in the bit range keeps its input order).
 */
#include "dispatch/split_sort.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_threads.h"
#include "common/host_memory.h"
#include "dispatch/part_runner.h"

/* Digit width of one split: 2048 buckets, whose counts stay in L1. */
#define ZS_SPLIT_BITS 11u

/* Several devices: a bucket bigger than this share of a device's part is
 * split again on the next bits, so that cuts between devices land within
 * an eighth of a part of where balance wants them. */
#define ZS_SPLIT_BALANCE_SLACK 8u

/* A partition of this many keys or more is counted and scattered by the
 * host's cores (zs_cpu_thread_count), each a chunk of the keys in order
 * (stable); below, thread hand-offs cost more than they save. */
#define ZS_SPLIT_PARALLEL_FROM (UINT64_C(1) << 18)

typedef struct splitter {
    const zs_split_target *t;
    const zs_plan_request *req;
    zs_error *err;
    char *keys, *values; /* the host copy, where every part is sorted */
    uint64_t goal;       /* several devices: keys of one balanced part (0: one device) */
    uint64_t tol;        /* the biggest bucket kept whole */
    zs_split_part *parts;
    uint64_t count, cap;
    zs_team *team;       /* the host's cores for big partitions (NULL: one) */
} splitter;

/* The bucket of a key: bits [shift, shift + d) of its ordered key (README
 * "Orders": the unsigned order of dk(k) ^ c, dk flipping every bit but the
 * sign of a negative float). One loop per key width, typed copies: a
 * memcpy of run-time width per key made the split 4x slower. */
#define ZS_SPLIT_KERNELS(SFX, T)                                                                 \
    static inline unsigned bucket_##SFX(T k, int flt, T c, unsigned shift, T mask)               \
    {                                                                                             \
        const unsigned top = sizeof(T) * 8u - 1u;                                                 \
        if (flt)                                                                                  \
            k ^= ((T)0 - (k >> top)) & ((T) ~(T)0 >> 1);                                          \
        return (unsigned)(((k ^ c) >> shift) & mask);                                             \
    }                                                                                             \
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

/* Keys equal in the bit range: stable means input order, a copy. */
static void copy_through(const zs_host_arrays *io, uint64_t n, unsigned kb, unsigned vb)
{
    if (io->keys_out && io->keys_out != io->keys_in)
        memcpy(io->keys_out, io->keys_in, (size_t)(n * kb));
    if (io->values_out && io->values_in && io->values_out != io->values_in)
        memcpy(io->values_out, io->values_in, (size_t)(n * vb));
}

/* A part of the copy to sort by bits [bit_lo, bit_hi): noted, sorted once
 * the whole split is done (by part_runner, on every device at once). Parts
 * of fewer than 2 keys, or equal in the bit range, are in place already. */
static zesort_status add_part(splitter *s, uint64_t off, uint64_t n, unsigned bit_hi)
{
    if (n < 2 || bit_hi <= s->req->bit_lo)
        return ZESORT_OK;
    if (s->count == s->cap) {
        const uint64_t cap = s->cap ? 2 * s->cap : 64;
        zs_split_part *p = realloc(s->parts, (size_t)cap * sizeof *p);
        if (!p)
            return zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                                "out of host memory for a list of %llu parts",
                                (unsigned long long)cap);
        s->parts = p, s->cap = cap;
    }
    s->parts[s->count++] = (zs_split_part){off, n, bit_hi, 0};
    return ZESORT_OK;
}

static zesort_status split_again(splitter *s, uint64_t base, uint64_t n, unsigned bit_hi);

/* Whether a group of buckets at global offsets [g0, g) takes the next
 * bucket of c keys: within max_keys, and, on several devices, not past the
 * next balanced cut unless its end lands nearer to the cut than g does. */
static int group_takes(const splitter *s, uint64_t g0, uint64_t g, uint64_t c)
{
    if (g - g0 + c > s->t->max_keys)
        return 0;
    if (!s->goal)
        return 1;
    const uint64_t cut = (g0 / s->goal + (g0 % s->goal >= s->goal / 2 ? 1 : 0) + 1) * s->goal;
    return g < cut && (g + c <= cut || g + c - cut < cut - g);
}

/* Buckets [b, e) of one digit: a part, or (big) one bucket too big to stay
 * whole (a part, or on several devices a share of a balanced part), split
 * again below its digit. */
typedef struct bucket_group {
    unsigned b, e, big;
} bucket_group;

/* The buckets (start: bins + 1 offsets) of the copy's [base, ..) grouped
 * in order into g (bins entries at most); returns how many groups. */
static unsigned plan_groups(const splitter *s, uint64_t base, const uint64_t *start, unsigned bins,
                            bucket_group *g)
{
    unsigned count = 0, b = 0; /* the open group's first bucket */
    for (unsigned e = 0; e <= bins; e++) {
        const uint64_t c = e < bins ? start[e + 1] - start[e] : 0;
        const int big = e < bins && c > s->tol;
        if (e < bins && !big && (e == b || group_takes(s, base + start[b], base + start[e], c)))
            continue;
        if (e > b)
            g[count++] = (bucket_group){b, e, 0};
        if (big)
            g[count++] = (bucket_group){e, e + 1, 1};
        b = big ? e + 1 : e;
    }
    return count;
}

/* The groups of one partition of the copy's [base, ..): each a part (one
 * bucket's keys share its digit: sorted below it) or split again. */
static zesort_status use_groups(splitter *s, uint64_t base, const uint64_t *start,
                                const bucket_group *g, unsigned groups, unsigned shift,
                                unsigned bit_hi)
{
    zesort_status st = ZESORT_OK;
    for (unsigned i = 0; i < groups && st == ZESORT_OK; i++) {
        const uint64_t off = base + start[g[i].b], n = start[g[i].e] - start[g[i].b];
        st = g[i].big ? split_again(s, off, n, shift)
                      : add_part(s, off, n, g[i].e - g[i].b == 1 ? shift : bit_hi);
    }
    return st;
}

/* Scratch of one partition: the buckets' offsets, each member's counts
 * and slots, the bucket map and the groups. */
typedef struct scratch {
    uint64_t *start, *hist;
    uint16_t *map;
    bucket_group *g;
    unsigned members;
} scratch;

static int scratch_new(scratch *x, const zs_team *team)
{
    const size_t bins = (size_t)1 << ZS_SPLIT_BITS;
    x->members = zs_team_size(team);
    x->start = malloc((bins + 1) * sizeof *x->start);
    x->hist = malloc(bins * x->members * sizeof *x->hist);
    x->map = malloc(bins * sizeof *x->map);
    x->g = malloc(bins * sizeof *x->g);
    return x->start && x->hist && x->map && x->g;
}

static void scratch_free(scratch *x)
{
    free(x->start), free(x->hist), free(x->map), free(x->g);
}

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

static void chunk_of(const digit_job *j, unsigned m, uint64_t *lo, uint64_t *hi)
{
    *lo = j->n * m / j->members;
    *hi = j->n * (m + 1) / j->members;
}

static void count_member(void *arg, unsigned m, unsigned members)
{
    const digit_job *j = arg;
    uint64_t lo, hi;
    (void)members;
    chunk_of(j, m, &lo, &hi);
    uint64_t *h = j->hist + (size_t)m * j->bins;
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
    uint64_t lo, hi;
    (void)members;
    chunk_of(j, m, &lo, &hi);
    uint64_t *at = j->hist + (size_t)m * j->bins;
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
 * it is written), members in order within a group (stable); and the map
 * from bucket to group. */
static void group_slots(digit_job *j, const uint64_t *start, const bucket_group *g,
                        unsigned groups, uint16_t *map)
{
    for (unsigned i = 0; i < groups; i++) {
        for (unsigned b = g[i].b; b < g[i].e; b++)
            map[b] = (uint16_t)i;
        uint64_t off = start[g[i].b];
        for (unsigned m = 0; m < j->members; m++) {
            uint64_t *h = j->hist + (size_t)m * j->bins, count = 0;
            for (unsigned b = g[i].b; b < g[i].e; b++)
                count += h[b];
            h[i] = off;
            off += count;
        }
    }
    j->map = map;
}

/* One partition of n keys by the top digit of bits [.., bit_hi): counts
 * (x->start: the buckets' offsets, bins + 1), the groups of buckets
 * (x->g), then a stable scatter from (keys, values) into (ko, vo) by
 * group, not by bucket: a part's keys are sorted by all their differing
 * bits anyway, and a few write streams scatter several times faster than
 * 2048. From ZS_SPLIT_PARALLEL_FROM keys both passes run on the team, a
 * chunk each. Returns the digit's shift; *groups the groups' count. */
static unsigned partition(const splitter *s, const void *keys, const void *values, int iota,
                          uint64_t n, uint64_t base, unsigned bit_hi, void *ko, void *vo,
                          scratch *x, unsigned *groups)
{
    const zs_plan_request *req = s->req;
    const unsigned kb = req->key_bytes;
    const unsigned d = bit_hi - req->bit_lo < ZS_SPLIT_BITS ? bit_hi - req->bit_lo : ZS_SPLIT_BITS;
    const uint64_t all = kb == 8 ? UINT64_MAX : (UINT64_C(1) << (kb * 8u)) - 1u;
    digit_job j = {keys, values, iota, (req->key_flags & 3u) == 2u, n,
                   ((req->key_flags & 3u) ? (uint64_t)1 << (kb * 8u - 1u) : 0) ^
                       ((req->key_flags & 4u) ? all : 0),
                   kb, req->value_bytes, bit_hi - d, 1u << d,
                   n >= ZS_SPLIT_PARALLEL_FROM ? x->members : 1, ko, vo, x->hist, NULL};
    run_members(s->team, &j, count_member);
    memset(x->start, 0, (j.bins + 1u) * sizeof *x->start);
    for (unsigned m = 0; m < j.members; m++)
        for (unsigned b = 0; b < j.bins; b++)
            x->start[b + 1] += x->hist[(size_t)m * j.bins + b];
    for (unsigned b = 0; b < j.bins; b++)
        x->start[b + 1] += x->start[b];
    *groups = plan_groups(s, base, x->start, j.bins, x->g);
    group_slots(&j, x->start, x->g, *groups, x->map);
    run_members(s->team, &j, scatter_member);
    return j.shift;
}

/* The copy's [base, base + n), one bucket too big to stay whole, all of
 * whose keys share the bits from bit_hi up: partitioned on its next digit
 * through a scratch copy that goes back in place (so every part is a range
 * of the one host copy, sorted when the whole split is done). Keys equal
 * in the whole bit range are in input order: done. */
static zesort_status split_again(splitter *s, uint64_t base, uint64_t n, unsigned bit_hi)
{
    const unsigned kb = s->req->key_bytes, vb = s->req->value_bytes;
    if (bit_hi <= s->req->bit_lo)
        return ZESORT_OK;
    scratch x;
    char *keys = zs_alloc_big((size_t)(n * kb)), *values = vb ? zs_alloc_big((size_t)(n * vb)) : NULL;
    zesort_status st = ZESORT_OK;
    if (!scratch_new(&x, s->team) || !keys || (vb && !values)) {
        st = zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "out of host memory for a copy of %llu keys (a bucket of the split "
                          "split again)", (unsigned long long)n);
    } else {
        char *k = s->keys + base * kb, *v = vb ? s->values + base * vb : NULL;
        unsigned groups;
        const unsigned shift = partition(s, k, v, 0, n, base, bit_hi, keys, values, &x, &groups);
        memcpy(k, keys, (size_t)(n * kb));
        if (vb)
            memcpy(v, values, (size_t)(n * vb));
        free(keys), free(values);
        keys = values = NULL;
        st = use_groups(s, base, x.start, x.g, groups, shift, bit_hi);
    }
    scratch_free(&x), free(keys), free(values);
    return st;
}

/* One part of the copy, sorted in place by the target on its device. */
static zesort_status sort_copy_part(void *user, unsigned device, const zs_split_part *p)
{
    const splitter *s = user;
    const unsigned kb = s->req->key_bytes, vb = s->req->value_bytes;
    char *k = s->keys + p->off * kb, *v = vb ? s->values + p->off * vb : NULL;
    const zs_host_arrays io = {k, v, k, v};
    zs_plan_request part = *s->req;
    part.n = p->n;
    part.bit_hi = p->bit_hi;
    part.iota_values = 0;
    return s->t->sort(s->t->user, device, &io, &part);
}

/* The whole split: the caller's keys partitioned into the host copy, the
 * parts noted, sorted (part_runner), and the copy given to the outputs
 * when every part succeeded. */
static zesort_status split_all(splitter *s, const zs_host_arrays *io, zs_split_report *rep)
{
    const zs_plan_request *req = s->req;
    const unsigned kb = req->key_bytes, vb = req->value_bytes;
    const uint64_t n = req->n;
    double t0 = zs_now_ms();
    scratch x;
    const int have = scratch_new(&x, s->team);
    s->keys = zs_alloc_big((size_t)(n * kb));
    s->values = vb ? zs_alloc_big((size_t)(n * vb)) : NULL;
    zesort_status st = ZESORT_OK;
    if (!have || !s->keys || (vb && !s->values))
        st = zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "out of host memory for a copy of %llu keys (a sort split on the "
                          "host)", (unsigned long long)n);
    if (st == ZESORT_OK) {
        unsigned groups;
        const unsigned shift = partition(s, io->keys_in, io->values_in, req->iota_values, n, 0,
                                         req->bit_hi, s->keys, s->values, &x, &groups);
        st = use_groups(s, 0, x.start, x.g, groups, shift, req->bit_hi);
    }
    scratch_free(&x);
    rep->partition_ms = zs_now_ms() - t0;
    if (st == ZESORT_OK) {
        st = zs_run_parts(sort_copy_part, s, s->t->devices, s->parts, s->count, rep);
        if (st == ZESORT_ERROR_OUT_OF_HOST_MEMORY && rep->failed_device < 0)
            zs_error_set(s->err, st, "out of host memory for the devices of %llu parts",
                         (unsigned long long)s->count);
    }
    if (st == ZESORT_OK) {
        t0 = zs_now_ms();
        /* the parts were sorted within the copy: only now do the outputs change */
        const zs_host_arrays back = {s->keys, s->values, io->keys_out, io->values_out};
        copy_through(&back, n, kb, vb);
        rep->gather_ms = zs_now_ms() - t0;
    }
    return st;
}

zesort_status zs_split_sort(const zs_split_target *t, const zs_host_arrays *io,
                            const zs_plan_request *req, zs_error *err, zs_split_report *report)
{
    zs_split_report unused;
    zs_split_report *rep = report ? report : &unused;
    memset(rep, 0, sizeof *rep);
    rep->failed_device = -1;
    const unsigned devices = t->devices ? t->devices : 1;
    if (devices == 1 && req->n <= t->max_keys && !req->iota_values) {
        /* fits: no split (an argsort's indices are made by the split) */
        zs_plan_request r = *req;
        const double t0 = zs_now_ms();
        zesort_status st = t->sort(t->user, 0, io, &r);
        rep->parts = rep->device_parts[0] = 1;
        rep->device_keys[0] = req->n;
        rep->sort_ms = rep->device_ms[0] = zs_now_ms() - t0;
        rep->failed_device = st == ZESORT_OK ? -1 : 0;
        return st;
    }
    splitter s = {.t = t, .req = req, .err = err, .tol = t->max_keys};
    if (devices > 1) {
        const uint64_t parts = zs_split_parts_estimate(req->n, t->max_keys, devices);
        s.goal = (req->n + parts - 1) / parts;
        const uint64_t share = s.goal / ZS_SPLIT_BALANCE_SLACK;
        s.tol = share < s.tol ? (share ? share : 1) : s.tol;
    }
    if (req->n >= ZS_SPLIT_PARALLEL_FROM)
        s.team = zs_team_start(zs_cpu_thread_count(), ZS_CPU_MAX_THREADS);
    zesort_status st = split_all(&s, io, rep);
    zs_team_stop(s.team);
    free(s.keys), free(s.values), free(s.parts);
    return st;
}

uint64_t zs_split_parts_estimate(uint64_t n, uint64_t max_keys, unsigned devices)
{
    if (!max_keys)
        return 0;
    const uint64_t d = devices ? devices : 1, parts = (n + max_keys - 1) / max_keys;
    return (parts + d - 1) / d * d;
}
