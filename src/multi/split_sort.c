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

/* Digit width of one split: 2048 buckets, whose counts stay in L1. */
#define ZS_SPLIT_BITS 11u

typedef struct splitter {
    const zs_split_target *t;
    const zs_plan_request *req;
    zs_error *err;
    uint64_t parts;
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

/* Part [off, off + n) of the split's copy (in) into the outputs (out). */
static zs_host_arrays sub_arrays(const zs_host_arrays *in, const zs_host_arrays *out, uint64_t off,
                                 unsigned kb, unsigned vb)
{
    zs_host_arrays s = {(const char *)in->keys_in + off * kb, NULL, NULL, NULL};
    if (in->values_in)
        s.values_in = (const char *)in->values_in + off * vb;
    if (out->keys_out)
        s.keys_out = (char *)out->keys_out + off * kb;
    if (out->values_out)
        s.values_out = (char *)out->values_out + off * vb;
    return s;
}

/* Keys equal in the bit range: stable means input order, a copy. */
static void copy_through(const zs_host_arrays *io, uint64_t n, unsigned kb, unsigned vb)
{
    if (io->keys_out && io->keys_out != io->keys_in)
        memcpy(io->keys_out, io->keys_in, (size_t)(n * kb));
    if (io->values_out && io->values_in && io->values_out != io->values_in)
        memcpy(io->values_out, io->values_in, (size_t)(n * vb));
}

static zesort_status split_range(splitter *s, const zs_host_arrays *io, uint64_t n,
                                 unsigned bit_hi, int iota);

/* One part: the target sorts it by bits [bit_lo, bit_hi). */
static zesort_status sort_part(splitter *s, const zs_host_arrays *io, uint64_t n, unsigned bit_hi)
{
    if (bit_hi <= s->req->bit_lo || n < 2) {
        copy_through(io, n, s->req->key_bytes, s->req->value_bytes);
        return ZESORT_OK;
    }
    zs_plan_request r = *s->req;
    r.n = n;
    r.bit_hi = bit_hi;
    r.iota_values = 0;
    s->parts++;
    return s->t->sort(s->t->user, io, &r);
}

/* The buckets of one split, grouped into parts of at most max_keys keys in
 * order; a bucket bigger than that is split again below its digit. */
static zesort_status sort_buckets(splitter *s, const zs_host_arrays *copy, const zs_host_arrays *out,
                                  const uint64_t *start, unsigned bins, unsigned shift,
                                  unsigned bit_hi)
{
    const unsigned kb = s->req->key_bytes, vb = s->req->value_bytes;
    zesort_status st = ZESORT_OK;
    for (unsigned b = 0; b < bins && st == ZESORT_OK;) {
        unsigned e = b + 1;
        while (e < bins && start[e + 1] - start[b] <= s->t->max_keys)
            ++e;
        const uint64_t off = start[b], count = start[e] - start[b];
        const zs_host_arrays part = sub_arrays(copy, out, off, kb, vb);
        if (count > s->t->max_keys) /* one bucket: its digit is the same for all */
            st = split_range(s, &part, count, shift, 0);
        else
            st = sort_part(s, &part, count, e - b == 1 ? shift : bit_hi);
        b = e;
    }
    return st;
}

/* n keys of io by bits [bit_lo, bit_hi): the top digit's counts, a stable
 * scatter into a host copy (an argsort's indices made on the way), then the
 * buckets. */
static zesort_status split_range(splitter *s, const zs_host_arrays *io, uint64_t n,
                                 unsigned bit_hi, int iota)
{
    const zs_plan_request *req = s->req;
    if (n <= s->t->max_keys && !iota)
        return sort_part(s, io, n, bit_hi);
    if (bit_hi <= req->bit_lo) {
        copy_through(io, n, req->key_bytes, req->value_bytes);
        return ZESORT_OK;
    }
    const unsigned kb = req->key_bytes, vb = req->value_bytes;
    const unsigned d = bit_hi - req->bit_lo < ZS_SPLIT_BITS ? bit_hi - req->bit_lo : ZS_SPLIT_BITS;
    const unsigned shift = bit_hi - d, bins = 1u << d;
    uint64_t *start = calloc(bins + 1u, sizeof *start);
    char *keys = malloc((size_t)(n * kb)), *values = vb ? malloc((size_t)(n * vb)) : NULL;
    if (!start || !keys || (vb && !values)) {
        free(start), free(keys), free(values);
        return zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory for a copy of %llu keys (a sort larger than one "
                            "device pass is split on the host)", (unsigned long long)n);
    }
    const int flt = (req->key_flags & 3u) == 2u;
    const uint64_t all = kb == 8 ? UINT64_MAX : UINT32_MAX;
    const uint64_t c = ((req->key_flags & 3u) ? (uint64_t)1 << (kb * 8u - 1u) : 0) ^
                       ((req->key_flags & 4u) ? all : 0);
    if (kb == 8)
        count_64(io->keys_in, n, flt, c, shift, bins - 1u, start + 1);
    else
        count_32(io->keys_in, n, flt, (uint32_t)c, shift, bins - 1u, start + 1);
    for (unsigned b = 0; b < bins; b++)
        start[b + 1] += start[b];
    uint64_t *at = malloc(bins * sizeof *at);
    if (!at) {
        free(start), free(keys), free(values);
        return zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    memcpy(at, start, bins * sizeof *at);
    if (kb == 8)
        scatter_64(io->keys_in, io->values_in, vb, iota, n, flt, c, shift, bins - 1u, at,
                   (uint64_t *)(void *)keys, values);
    else
        scatter_32(io->keys_in, io->values_in, vb, iota, n, flt, (uint32_t)c, shift, bins - 1u, at,
                   (uint32_t *)(void *)keys, values);
    free(at);
    /* the parts are sorted within the copy, which goes to the outputs only
     * when every part has succeeded: a failed split leaves them unchanged */
    const zs_host_arrays copy = {keys, values, keys, values};
    zesort_status st = sort_buckets(s, &copy, &copy, start, bins, shift, bit_hi);
    if (st == ZESORT_OK) {
        const zs_host_arrays back = {keys, values, io->keys_out, io->values_out};
        copy_through(&back, n, kb, vb);
    }
    free(start), free(keys), free(values);
    return st;
}

zesort_status zs_split_sort(const zs_split_target *t, const zs_host_arrays *io,
                            const zs_plan_request *req, zs_error *err, uint64_t *parts)
{
    splitter s = {t, req, err, 0};
    zesort_status st = split_range(&s, io, req->n, req->bit_hi, req->iota_values);
    if (parts)
        *parts = s.parts;
    return st;
}

uint64_t zs_split_parts_estimate(uint64_t n, uint64_t max_keys)
{
    return max_keys ? (n + max_keys - 1) / max_keys : 0;
}
