/*
 * keys.c — the CLI's view of key arrays of every supported type: random
 * generation for bench/demo and host-side verification of device results.
 * Verification uses the same order the library promises (docs/design.md §1.3):
 * signed keys by value, floats by IEEE-754 totalOrder.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

size_t cli_key_size(zesort_key_type type)
{
    return (type == ZESORT_KEY_U64 || type == ZESORT_KEY_I64 || type == ZESORT_KEY_F64) ? 8 : 4;
}

unsigned cli_key_bits(zesort_key_type type)
{
    return (unsigned)cli_key_size(type) * 8u;
}

/* splitmix64: tiny, fast, good enough for uniform benchmark keys. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void cli_random_keys(void *keys, uint64_t n, zesort_key_type type, uint64_t seed)
{
    uint64_t state = seed;
    if (cli_key_size(type) == 4) {
        uint32_t *k = keys;
        for (uint64_t i = 0; i < n; ++i)
            k[i] = (uint32_t)(splitmix64(&state) >> 32);
    } else {
        uint64_t *k = keys;
        for (uint64_t i = 0; i < n; ++i)
            k[i] = splitmix64(&state);
    }
}

/* Raw bit pattern of key i, memcpy'd so any alignment of the buffer is fine. */
static uint64_t raw_bits(const void *keys, uint64_t i, size_t size)
{
    const unsigned char *p = (const unsigned char *)keys + i * size;
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

uint64_t cli_key_order(const void *keys, uint64_t i, zesort_key_type type)
{
    size_t size = cli_key_size(type);
    uint64_t v = raw_bits(keys, i, size);
    uint64_t sign = size == 4 ? UINT64_C(0x80000000) : UINT64_C(0x8000000000000000);
    uint64_t all = size == 4 ? UINT64_C(0xFFFFFFFF) : UINT64_MAX;
    switch (type) {
    case ZESORT_KEY_I32:
    case ZESORT_KEY_I64:
        return v ^ sign;
    case ZESORT_KEY_F32:
    case ZESORT_KEY_F64:
        return (v & sign) ? (~v & all) : (v | sign);
    default:
        return v;
    }
}

uint64_t cli_first_unsorted(const void *keys, uint64_t n, zesort_key_type type, int descending)
{
    for (uint64_t i = 1; i < n; ++i) {
        uint64_t a = cli_key_order(keys, i - 1, type);
        uint64_t b = cli_key_order(keys, i, type);
        if (descending ? a < b : a > b)
            return i;
    }
    return n;
}

/* qsort comparators, one per mapping, so the hot loop has no type switch. */
#define CMP(name, T, MAP)                                                     \
    static int name(const void *pa, const void *pb)                           \
    {                                                                         \
        T a, b;                                                               \
        memcpy(&a, pa, sizeof a);                                             \
        memcpy(&b, pb, sizeof b);                                             \
        a = MAP(a);                                                           \
        b = MAP(b);                                                           \
        return (a > b) - (a < b);                                             \
    }
#define ID(x) (x)
#define FLIP32S(x) ((x) ^ UINT32_C(0x80000000))
#define FLIP64S(x) ((x) ^ UINT64_C(0x8000000000000000))
#define FLT32(x) (((x) & UINT32_C(0x80000000)) ? ~(x) : ((x) | UINT32_C(0x80000000)))
#define FLT64(x) (((x) & UINT64_C(0x8000000000000000)) ? ~(x) : ((x) | UINT64_C(0x8000000000000000)))
CMP(cmp_u32, uint32_t, ID)
CMP(cmp_i32, uint32_t, FLIP32S)
CMP(cmp_f32, uint32_t, FLT32)
CMP(cmp_u64, uint64_t, ID)
CMP(cmp_i64, uint64_t, FLIP64S)
CMP(cmp_f64, uint64_t, FLT64)

void cli_reference_sort(void *keys, uint64_t n, zesort_key_type type)
{
    int (*cmp)(const void *, const void *);
    switch (type) {
    case ZESORT_KEY_I32: cmp = cmp_i32; break;
    case ZESORT_KEY_F32: cmp = cmp_f32; break;
    case ZESORT_KEY_U64: cmp = cmp_u64; break;
    case ZESORT_KEY_I64: cmp = cmp_i64; break;
    case ZESORT_KEY_F64: cmp = cmp_f64; break;
    default: cmp = cmp_u32; break;
    }
    qsort(keys, (size_t)n, cli_key_size(type), cmp);
}

uint64_t cli_multiset_hash(const void *keys, uint64_t n, zesort_key_type type)
{
    /* Sum of a strong mix of each key: commutative, so the order does not
     * matter, and a lost or duplicated key changes it with high probability. */
    size_t size = cli_key_size(type);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t state = raw_bits(keys, i, size);
        sum += splitmix64(&state);
    }
    return sum;
}
