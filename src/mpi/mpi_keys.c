/*
 * mpi_keys.c — the value a distributed sort compares keys by: the ordered
 * key of zesort.h (signed: sign bit flipped; floats: IEEE-754 totalOrder),
 * cut to the bit range and flipped for descending order. The local sorts
 * (zesort) order keys by exactly this value, so splitters found on it split
 * their output at the right places. Device keys (device_buffers) are read
 * through a small host cache of the blocks the bisections probe.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

zm_order zm_order_of(const zesort_options *opts)
{
    zm_order o;
    o.type = opts->key_type;
    o.key_size = (o.type == ZESORT_KEY_U32 || o.type == ZESORT_KEY_I32 ||
                  o.type == ZESORT_KEY_F32) ? 4 : 8;
    unsigned bits = (unsigned)o.key_size * 8;
    unsigned hi = opts->bit_hi == 0 ? bits : opts->bit_hi;
    o.lo = opts->bit_lo;
    o.width = hi - opts->bit_lo;
    o.descending = opts->descending != 0;
    return o;
}

static uint64_t ordered(zesort_key_type type, const void *keys, uint64_t i)
{
    uint32_t u32;
    uint64_t u64;
    switch (type) {
    case ZESORT_KEY_I32:
        memcpy(&u32, (const char *)keys + i * 4, 4);
        return u32 ^ UINT32_C(0x80000000);
    case ZESORT_KEY_F32:
        memcpy(&u32, (const char *)keys + i * 4, 4);
        return (u32 >> 31) ? (uint32_t)~u32 : (u32 | UINT32_C(0x80000000));
    case ZESORT_KEY_U64:
        memcpy(&u64, (const char *)keys + i * 8, 8);
        return u64;
    case ZESORT_KEY_I64:
        memcpy(&u64, (const char *)keys + i * 8, 8);
        return u64 ^ (UINT64_C(1) << 63);
    case ZESORT_KEY_F64:
        memcpy(&u64, (const char *)keys + i * 8, 8);
        return (u64 >> 63) ? ~u64 : (u64 | (UINT64_C(1) << 63));
    default: /* U32 */
        memcpy(&u32, (const char *)keys + i * 4, 4);
        return u32;
    }
}

uint64_t zm_digit(const zm_order *o, const void *keys, uint64_t i)
{
    uint64_t mask = o->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << o->width) - 1;
    uint64_t d = (ordered(o->type, keys, i) >> o->lo) & mask;
    return o->descending ? d ^ mask : d;
}

zesort_status zm_keys_open(zm_keys *kv, const zm_order *o, const void *keys, uint64_t n,
                           zm_mem *mem)
{
    memset(kv, 0, sizeof *kv);
    kv->o = *o;
    kv->keys = keys;
    kv->n = n;
    if (!mem || !zm_mem_is_device(mem))
        return ZESORT_OK;
    kv->mem = mem;
    kv->cache = malloc((size_t)ZM_CACHE_SLOTS * ZM_CACHE_KEYS * o->key_size);
    kv->tags = calloc(ZM_CACHE_SLOTS, sizeof *kv->tags);
    if (!kv->cache || !kv->tags)
        return zm_fail(ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory (key cache)");
    return ZESORT_OK;
}

void zm_keys_close(zm_keys *kv)
{
    free(kv->cache);
    free(kv->tags);
    kv->cache = NULL;
    kv->tags = NULL;
}

/* Host address of key i: in place, or in its cached block (copied now if
 * the slot holds another one). */
static const void *key_at(zm_keys *kv, uint64_t i)
{
    size_t ks = kv->o.key_size;
    if (!kv->mem)
        return kv->keys + i * ks;
    uint64_t block = i / ZM_CACHE_KEYS, slot = block % ZM_CACHE_SLOTS;
    char *dst = kv->cache + slot * ZM_CACHE_KEYS * ks;
    if (kv->tags[slot] != block + 1) {
        uint64_t first = block * ZM_CACHE_KEYS, len = kv->n - first;
        len = (len < ZM_CACHE_KEYS ? len : ZM_CACHE_KEYS) * ks;
        zesort_status st = kv->st == ZESORT_OK ? zm_copy(kv->mem, dst, kv->keys + first * ks, len)
                                               : kv->st;
        if (st != ZESORT_OK) { /* go on with zeros: the collectives must all run */
            kv->st = st;
            memset(dst, 0, (size_t)len);
        }
        kv->tags[slot] = block + 1;
        kv->bytes_copied += len;
    }
    return dst + (i % ZM_CACHE_KEYS) * ks;
}

uint64_t zm_digit_at(zm_keys *kv, uint64_t i)
{
    return zm_digit(&kv->o, key_at(kv, i), 0);
}

/* First index whose digit is > d (upto) or >= d (below), by bisection. */
static uint64_t bound(zm_keys *kv, uint64_t d, int upto)
{
    uint64_t lo = 0, hi = kv->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t v = zm_digit_at(kv, mid);
        if (upto ? v <= d : v < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t zm_count_below(zm_keys *kv, uint64_t d)
{
    return bound(kv, d, 0);
}

uint64_t zm_count_upto(zm_keys *kv, uint64_t d)
{
    return bound(kv, d, 1);
}
