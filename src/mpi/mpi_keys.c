/*
 * mpi_keys.c — the value a distributed sort compares keys by: the ordered
 * key of zesort.h (signed: sign bit flipped; floats: IEEE-754 totalOrder),
 * cut to the bit range and flipped for descending order. The local sorts
 * (zesort) order keys by exactly this value, so splitters found on it split
 * their output at the right places.
 */
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

/* First index whose digit is > d (upto) or >= d (below), by bisection. */
static uint64_t bound(const zm_order *o, const void *keys, uint64_t n, uint64_t d, int upto)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint64_t v = zm_digit(o, keys, mid);
        if (upto ? v <= d : v < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t zm_count_below(const zm_order *o, const void *keys, uint64_t n, uint64_t d)
{
    return bound(o, keys, n, d, 0);
}

uint64_t zm_count_upto(const zm_order *o, const void *keys, uint64_t n, uint64_t d)
{
    return bound(o, keys, n, d, 1);
}
