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

/* The ordered key (README "Orders"): unsigned order of (dk(k) ^ c). */
static uint64_t ordered_key(const char *keys, uint64_t i, unsigned kb, uint32_t flags)
{
    uint64_t k = 0;
    memcpy(&k, keys + i * kb, kb); /* little endian: the key's bytes, zero-extended */
    const unsigned top = kb * 8u - 1u;
    const uint64_t all = kb == 8 ? UINT64_MAX : UINT32_MAX;
    if ((flags & 3u) == 2u && (k >> top))
        k ^= all >> 1; /* a negative float: every bit but the sign flipped */
    const uint64_t c = ((flags & 3u) ? (uint64_t)1 << top : 0) ^ ((flags & 4u) ? all : 0);
    return k ^ c;
}

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
    const char *in = io->keys_in;
    for (uint64_t i = 0; i < n; i++)
        start[((ordered_key(in, i, kb, req->key_flags) >> shift) & (bins - 1u)) + 1]++;
    for (unsigned b = 0; b < bins; b++)
        start[b + 1] += start[b];
    uint64_t *at = malloc(bins * sizeof *at);
    if (!at) {
        free(start), free(keys), free(values);
        return zs_error_set(s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    memcpy(at, start, bins * sizeof *at);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t to = at[(ordered_key(in, i, kb, req->key_flags) >> shift) & (bins - 1u)]++;
        memcpy(keys + to * kb, in + i * kb, kb);
        if (iota && vb == 8)
            memcpy(values + to * 8, &i, 8);
        else if (iota) {
            const uint32_t i32 = (uint32_t)i;
            memcpy(values + to * 4, &i32, 4);
        } else if (vb)
            memcpy(values + to * vb, (const char *)io->values_in + i * vb, vb);
    }
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
