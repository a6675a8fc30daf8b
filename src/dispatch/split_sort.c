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

#include "backends/cpu/cpu_partition.h"
#include "backends/cpu/cpu_threads.h"
#include "common/host_memory.h"
#include "dispatch/part_runner.h"

/* Several devices: a bucket bigger than this share of a device's part is
 * split again on the next bits, so that cuts between devices land within
 * an eighth of a part of where balance wants them. */
#define ZS_SPLIT_BALANCE_SLACK 8u

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

/* One partition's groups, planned by the splitter (zs_partition_groups_fn):
 * into x->g, and each bucket's group into the map. */
typedef struct group_plan {
    const splitter *s;
    uint64_t base;
    bucket_group *g;
} group_plan;

static unsigned plan_map(void *user, const uint64_t *start, unsigned bins, uint16_t *map)
{
    const group_plan *gp = user;
    const unsigned groups = plan_groups(gp->s, gp->base, start, bins, gp->g);
    for (unsigned i = 0; i < groups; i++)
        for (unsigned b = gp->g[i].b; b < gp->g[i].e; b++)
            map[b] = (uint16_t)i;
    return groups;
}

/* One partition of n keys by the top digit of bits [.., bit_hi), on the
 * host's cores (zs_cpu_partition): x->start the buckets' offsets, x->g the
 * groups. Returns the digit's shift; *groups the groups' count. */
static unsigned partition(const splitter *s, const void *keys, const void *values, int iota,
                          uint64_t n, uint64_t base, unsigned bit_hi, void *ko, void *vo,
                          scratch *x, unsigned *groups)
{
    const zs_plan_request *req = s->req;
    const zs_partition p = {keys, values, iota, n, req->key_bytes, req->value_bytes,
                            req->key_flags, req->bit_lo, bit_hi, ko, vo, x->start, x->hist,
                            x->map};
    group_plan gp = {s, base, x->g};
    return zs_cpu_partition(s->team, &p, plan_map, &gp, groups);
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
