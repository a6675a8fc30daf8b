/*
 * mpi_keys.c — the value a distributed sort compares keys by: the ordered
 * key of zesort.h (signed: sign bit flipped; floats: IEEE-754 totalOrder),
 * cut to the bit range and flipped for descending order. The local sorts
 * (zesort) order keys by exactly this value, so splitters found on it split
 * their output at the right places. Device keys (device_buffers) are
 * searched by bisections in lockstep, copying only the keys they probe.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* Bytes of a key, and its kind: 0 unsigned, 1 signed, 2 float. */
static size_t key_size_of(zesort_key_type t)
{
    switch (t) {
    case ZESORT_KEY_U64: case ZESORT_KEY_I64: case ZESORT_KEY_F64: return 8;
    case ZESORT_KEY_U8: case ZESORT_KEY_I8: return 1;
    case ZESORT_KEY_U16: case ZESORT_KEY_I16: case ZESORT_KEY_F16: case ZESORT_KEY_BF16: return 2;
    default: return 4;
    }
}

static int kind_of(zesort_key_type t)
{
    switch (t) {
    case ZESORT_KEY_I32: case ZESORT_KEY_I64: case ZESORT_KEY_I8: case ZESORT_KEY_I16: return 1;
    case ZESORT_KEY_F32: case ZESORT_KEY_F64: case ZESORT_KEY_F16: case ZESORT_KEY_BF16: return 2;
    default: return 0;
    }
}

zm_order zm_order_of(const zesort_options *opts)
{
    zm_order o;
    o.type = opts->key_type;
    o.key_size = key_size_of(o.type);
    unsigned bits = (unsigned)o.key_size * 8;
    unsigned hi = opts->bit_hi == 0 ? bits : opts->bit_hi;
    o.lo = opts->bit_lo;
    o.width = hi - opts->bit_lo;
    o.descending = opts->descending != 0;
    return o;
}

/* The ordered key of keys[i] (little-endian, any width). */
static uint64_t ordered(zesort_key_type type, const void *keys, uint64_t i)
{
    const size_t size = key_size_of(type);
    uint64_t k = 0;
    memcpy(&k, (const char *)keys + i * size, size);
    const uint64_t sign = UINT64_C(1) << (8 * size - 1);
    const uint64_t all = size == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * size)) - 1;
    switch (kind_of(type)) {
    case 1: return k ^ sign;
    case 2: return (k & sign) ? ~k & all : k | sign;
    default: return k;
    }
}

uint64_t zm_digit(const zm_order *o, const void *keys, uint64_t i)
{
    uint64_t mask = o->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << o->width) - 1;
    uint64_t d = (ordered(o->type, keys, i) >> o->lo) & mask;
    return o->descending ? d ^ mask : d;
}

void zm_keys_init(zm_keys *kv, const zm_order *o, const void *keys, uint64_t n, zm_mem *mem)
{
    memset(kv, 0, sizeof *kv);
    kv->o = *o;
    kv->keys = keys;
    kv->n = n;
    kv->mem = mem && zm_mem_is_device(mem) ? mem : NULL;
}

/* Copies keys to the host (device memory), recording the first failure:
 * the searches go on, on zeros, so that every collective still runs. */
static void fetch(zm_keys *kv, const zm_copy_req *req, uint64_t n)
{
    zesort_status st = kv->st == ZESORT_OK ? zm_copy_many(kv->mem, req, n, kv->o.key_size)
                                           : kv->st;
    if (st != ZESORT_OK) {
        kv->st = st;
        for (uint64_t i = 0; i < n; i++)
            memset(req[i].dst, 0, kv->o.key_size);
    }
    kv->bytes_copied += n * kv->o.key_size;
    kv->trips++;
}

uint64_t zm_digit_at(zm_keys *kv, uint64_t i)
{
    if (!kv->mem)
        return zm_digit(&kv->o, kv->keys, i);
    uint64_t key = 0;
    zm_copy_req req = {&key, kv->keys + i * kv->o.key_size};
    fetch(kv, &req, 1);
    return zm_digit(&kv->o, &key, 0);
}

/* First index whose digit is > d (upto) or >= d (below), by bisection. */
static uint64_t bound(const zm_keys *kv, uint64_t d, int upto)
{
    uint64_t lo = 0, hi = kv->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t v = zm_digit(&kv->o, kv->keys, mid);
        if (upto ? v <= d : v < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One step's probes, each index once: an open-addressing table of the
 * indices probed (index + 1, 0 for free) and their keys, as copied. */
typedef struct probes {
    uint64_t *index, *key;
    size_t mask;
} probes;

static size_t probe_slot(probes *p, uint64_t index, int *fresh)
{
    size_t h = (size_t)((index * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & p->mask;
    while (p->index[h] && p->index[h] != index + 1)
        h = (h + 1) & p->mask;
    *fresh = !p->index[h];
    p->index[h] = index + 1;
    return h;
}

/* The device bisections in lockstep: lo/hi per query, one fetch per step;
 * slot[q] is where the step's probe of query q landed in the table. */
static void search_device(zm_keys *kv, const uint64_t *digits, uint64_t nq, int upto,
                          uint64_t *lo, uint64_t *hi, uint64_t *slot, probes *p,
                          zm_copy_req *req)
{
    size_t ks = kv->o.key_size;
    for (uint64_t q = 0; q < nq; q++)
        lo[q] = 0, hi[q] = kv->n;
    for (;;) {
        uint64_t nreq = 0;
        memset(p->index, 0, (p->mask + 1) * sizeof *p->index);
        for (uint64_t q = 0; q < nq; q++) {
            if (lo[q] >= hi[q])
                continue;
            int fresh = 0;
            uint64_t mid = lo[q] + (hi[q] - lo[q]) / 2;
            size_t h = probe_slot(p, mid, &fresh);
            slot[q] = h;
            if (fresh)
                req[nreq++] = (zm_copy_req){&p->key[h], kv->keys + mid * ks};
        }
        if (!nreq)
            return;
        fetch(kv, req, nreq);
        for (uint64_t q = 0; q < nq; q++) {
            if (lo[q] >= hi[q])
                continue;
            uint64_t mid = lo[q] + (hi[q] - lo[q]) / 2;
            uint64_t v = zm_digit(&kv->o, &p->key[slot[q]], 0);
            if (upto ? v <= digits[q] : v < digits[q])
                lo[q] = mid + 1;
            else
                hi[q] = mid;
        }
    }
}

void zm_count_many(zm_keys *kv, const uint64_t *digits, uint64_t nq, int upto,
                   uint64_t *counts)
{
    if (!kv->mem) {
        for (uint64_t q = 0; q < nq; q++)
            counts[q] = bound(kv, digits[q], upto);
        return;
    }
    size_t slots = 16; /* a power of two, at least twice the probes of a step */
    while (slots < 2 * nq)
        slots *= 2;
    probes p = {calloc(slots, sizeof *p.index), malloc(slots * sizeof *p.key), slots - 1};
    uint64_t *lohi = malloc(3 * nq * sizeof *lohi + 1); /* lo, hi, slot */
    zm_copy_req *req = malloc(nq * sizeof *req + 1);
    if (!p.index || !p.key || !lohi || !req) {
        if (kv->st == ZESORT_OK)
            kv->st = zm_fail(ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (%llu "
                             "splitter probes)", (unsigned long long)nq);
    }
    if (kv->st == ZESORT_OK)
        search_device(kv, digits, nq, upto, lohi, lohi + nq, lohi + 2 * nq, &p, req);
    for (uint64_t q = 0; q < nq; q++) /* after a failure: 0, the same on every call */
        counts[q] = kv->st == ZESORT_OK ? lohi[q] : 0;
    free(p.index);
    free(p.key);
    free(lohi);
    free(req);
}
