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
#include "split_sort.h"

#include <stdlib.h>
#include <string.h>

#include "part_runner.h"

/* Digit width of one split: 2048 buckets, whose counts stay in L1. */
#define ZS_SPLIT_BITS 11u

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
    /* values: vb 0 none, 4 or 8 bytes from vin, or (iota) the input positions */                \
    static void scatter_##SFX(const T *k, const void *vin, unsigned vb, int iota, uint64_t n,     \
                              int flt, T c, unsigned shift, T mask, uint64_t *at, T *ko, void *vo) \
    {                                                                                             \
        uint32_t *v32 = vo;                                                                       \
        uint64_t *v64 = vo;                                                                       \
        const uint32_t *i32 = vin;                                                                \
        const uint64_t *i64 = vin;                                                                \
        for (uint64_t i = 0; i < n; i++) {                                                        \
            const uint64_t to = at[bucket_##SFX(k[i], flt, c, shift, mask)]++;                    \
            ko[to] = k[i];                                                                        \
            if (vb == 8)                                                                          \
                v64[to] = iota ? i : i64[i];                                                      \
            else if (vb == 4)                                                                     \
                v32[to] = iota ? (uint32_t)i : i32[i];                                            \
        }                                                                                         \
    }
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
    s->parts[s->count++] = (zs_split_part){off, n, bit_hi};
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

/* The buckets of one partition of the copy's [base, base + n), grouped
 * into parts in order; a bucket bigger than the limit (a part, or on
 * several devices a share of a balanced part) is split again below its
 * digit. */
static zesort_status group_buckets(splitter *s, uint64_t base, const uint64_t *start,
                                   unsigned bins, unsigned shift, unsigned bit_hi)
{
    zesort_status st = ZESORT_OK;
    unsigned b = 0; /* the open group's first bucket */
    for (unsigned e = 0; e <= bins && st == ZESORT_OK; e++) {
        const uint64_t c = e < bins ? start[e + 1] - start[e] : 0;
        const int big = e < bins && c > s->tol;
        if (e < bins && !big && (e == b || group_takes(s, base + start[b], base + start[e], c)))
            continue;
        if (e > b) /* the group [b, e): one bucket's keys share its digit */
            st = add_part(s, base + start[b], start[e] - start[b], e - b == 1 ? shift : bit_hi);
        if (big && st == ZESORT_OK)
            st = split_again(s, base + start[e], c, shift);
        b = big ? e + 1 : e;
    }
    return st;
}

/* The top digit of bits [.., bit_hi) of n keys: counts, a stable scatter
 * from (keys, values) into (ko, vo) (an argsort's indices made on the way:
 * iota), start[] the buckets' offsets (bins + 1). Returns the digit's
 * shift; *bins its bucket count. */
static unsigned partition(const splitter *s, const void *keys, const void *values, int iota,
                          uint64_t n, unsigned bit_hi, void *ko, void *vo, uint64_t *start,
                          uint64_t *at, unsigned *bins)
{
    const zs_plan_request *req = s->req;
    const unsigned kb = req->key_bytes, vb = req->value_bytes;
    const unsigned d = bit_hi - req->bit_lo < ZS_SPLIT_BITS ? bit_hi - req->bit_lo : ZS_SPLIT_BITS;
    const unsigned shift = bit_hi - d;
    *bins = 1u << d;
    const int flt = (req->key_flags & 3u) == 2u;
    const uint64_t all = kb == 8 ? UINT64_MAX : UINT32_MAX;
    const uint64_t c = ((req->key_flags & 3u) ? (uint64_t)1 << (kb * 8u - 1u) : 0) ^
                       ((req->key_flags & 4u) ? all : 0);
    memset(start, 0, (*bins + 1u) * sizeof *start);
    if (kb == 8)
        count_64(keys, n, flt, c, shift, *bins - 1u, start + 1);
    else
        count_32(keys, n, flt, (uint32_t)c, shift, *bins - 1u, start + 1);
    for (unsigned b = 0; b < *bins; b++)
        start[b + 1] += start[b];
    memcpy(at, start, *bins * sizeof *at);
    if (kb == 8)
        scatter_64(keys, values, vb, iota, n, flt, c, shift, *bins - 1u, at, ko, vo);
    else
        scatter_32(keys, values, vb, iota, n, flt, (uint32_t)c, shift, *bins - 1u, at, ko, vo);
    return shift;
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
    uint64_t *start = malloc(((1u << ZS_SPLIT_BITS) + 1u) * sizeof *start);
    uint64_t *at = malloc((1u << ZS_SPLIT_BITS) * sizeof *at);
    char *keys = malloc((size_t)(n * kb)), *values = vb ? malloc((size_t)(n * vb)) : NULL;
    zesort_status st = ZESORT_OK;
    if (!start || !at || !keys || (vb && !values)) {
        st = zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "out of host memory for a copy of %llu keys (a bucket of the split "
                          "split again)", (unsigned long long)n);
    } else {
        char *k = s->keys + base * kb, *v = vb ? s->values + base * vb : NULL;
        unsigned bins;
        const unsigned shift = partition(s, k, v, 0, n, bit_hi, keys, values, start, at, &bins);
        memcpy(k, keys, (size_t)(n * kb));
        if (vb)
            memcpy(v, values, (size_t)(n * vb));
        free(keys), free(values), free(at);
        keys = values = NULL, at = NULL;
        st = group_buckets(s, base, start, bins, shift, bit_hi);
    }
    free(start), free(at), free(keys), free(values);
    return st;
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
    uint64_t *start = malloc(((1u << ZS_SPLIT_BITS) + 1u) * sizeof *start);
    uint64_t *at = malloc((1u << ZS_SPLIT_BITS) * sizeof *at);
    s->keys = malloc((size_t)(n * kb));
    s->values = vb ? malloc((size_t)(n * vb)) : NULL;
    zesort_status st = ZESORT_OK;
    if (!start || !at || !s->keys || (vb && !s->values))
        st = zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "out of host memory for a copy of %llu keys (a sort split on the "
                          "host)", (unsigned long long)n);
    if (st == ZESORT_OK) {
        unsigned bins;
        const unsigned shift = partition(s, io->keys_in, io->values_in, req->iota_values, n,
                                         req->bit_hi, s->keys, s->values, start, at, &bins);
        free(at), at = NULL;
        st = group_buckets(s, 0, start, bins, shift, req->bit_hi);
    }
    free(start), free(at);
    rep->partition_ms = zs_now_ms() - t0;
    if (st == ZESORT_OK) {
        const zs_host_arrays copy = {s->keys, s->values, s->keys, s->values};
        st = zs_run_parts(s->t, &copy, req, s->parts, s->count, rep);
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
    zesort_status st = split_all(&s, io, rep);
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
