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
    switch (type) {
    case ZESORT_KEY_U64: case ZESORT_KEY_I64: case ZESORT_KEY_F64: return 8;
    case ZESORT_KEY_U8: case ZESORT_KEY_I8: return 1;
    case ZESORT_KEY_U16: case ZESORT_KEY_I16: case ZESORT_KEY_F16: case ZESORT_KEY_BF16: return 2;
    default: return 4;
    }
}

/* 0 unsigned, 1 signed, 2 float: how a key's bits map to its order. */
static int key_kind(zesort_key_type type)
{
    switch (type) {
    case ZESORT_KEY_I32: case ZESORT_KEY_I64: case ZESORT_KEY_I8: case ZESORT_KEY_I16: return 1;
    case ZESORT_KEY_F32: case ZESORT_KEY_F64: case ZESORT_KEY_F16: case ZESORT_KEY_BF16: return 2;
    default: return 0;
    }
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
    const size_t size = cli_key_size(type);
    if (size < 4) { /* the top bits of each draw, little-endian */
        unsigned char *k = keys;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t r = splitmix64(&state) >> (64 - 8 * size);
            memcpy(k + i * size, &r, size);
        }
    } else if (size == 4) {
        uint32_t *k = keys;
        for (uint64_t i = 0; i < n; ++i)
            k[i] = (uint32_t)(splitmix64(&state) >> 32);
    } else {
        uint64_t *k = keys;
        for (uint64_t i = 0; i < n; ++i)
            k[i] = splitmix64(&state);
    }
}

static const char *const input_kind_names[CLI_INPUT_KINDS] = {
    "random", "few", "equal", "sorted", "reversed", "top-bits"};

const char *cli_input_kind_name(cli_input_kind kind)
{
    return (unsigned)kind < CLI_INPUT_KINDS ? input_kind_names[kind] : "?";
}

int cli_parse_input_kind(const char *text, cli_input_kind *out)
{
    for (unsigned i = 0; i < CLI_INPUT_KINDS; ++i) {
        if (strcmp(text, input_kind_names[i]) == 0) {
            *out = (cli_input_kind)i;
            return 0;
        }
    }
    return -1;
}

/* Key g of n of a kind other than random, from the random bits k of a key of
 * `bits` bits. Sorted and reversed are steps of 3 (not 1) so that the keys
 * use more than the low digits; as bit patterns they are ascending in every
 * key type's order up to 2^(bits-1) (then signed and float keys wrap). */
static uint64_t shaped_key(cli_input_kind kind, uint64_t k, uint64_t g, uint64_t n, unsigned bits)
{
    switch (kind) {
    case CLI_INPUT_FEW: return k % 5;
    case CLI_INPUT_EQUAL: return 0x42;
    case CLI_INPUT_SORTED: return g * 3;
    case CLI_INPUT_REVERSED: return (n - g) * 3;
    default: /* top-bits: only the two highest bits of the key vary */
        return k >> (bits - 2) << (bits - 2);
    }
}

void cli_make_keys(void *keys, uint64_t first, uint64_t count, uint64_t n, zesort_key_type type,
                   cli_input_kind kind, uint64_t seed)
{
    cli_random_keys(keys, count, type, seed);
    if (kind == CLI_INPUT_RANDOM)
        return;
    const size_t size = cli_key_size(type);
    const unsigned bits = cli_key_bits(type);
    const uint64_t all = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    unsigned char *p = keys;
    for (uint64_t i = 0; i < count; ++i, p += size) {
        uint64_t k = 0; /* little-endian: the low `size` bytes are the key */
        memcpy(&k, p, size);
        k = shaped_key(kind, k, first + i, n, bits) & all;
        memcpy(p, &k, size);
    }
}

/* Raw bit pattern of key i, memcpy'd so any alignment of the buffer is fine. */
static uint64_t raw_bits(const void *keys, uint64_t i, size_t size)
{
    const unsigned char *p = (const unsigned char *)keys + i * size;
    if (size < 4) {
        uint64_t v = 0; /* little-endian: the low bytes */
        memcpy(&v, p, size);
        return v;
    }
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
    uint64_t sign = UINT64_C(1) << (8 * size - 1);
    uint64_t all = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
    switch (key_kind(type)) {
    case 1:
        return v ^ sign;
    case 2:
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
#define FLIP8S(x) ((uint8_t)((x) ^ 0x80u))
#define FLIP16S(x) ((uint16_t)((x) ^ 0x8000u))
#define FLT16(x) ((uint16_t)(((x) & 0x8000u) ? ~(unsigned)(x) : ((x) | 0x8000u)))
CMP(cmp_u8, uint8_t, ID)
CMP(cmp_i8, uint8_t, FLIP8S)
CMP(cmp_u16, uint16_t, ID)
CMP(cmp_i16, uint16_t, FLIP16S)
CMP(cmp_f16, uint16_t, FLT16)

void cli_reference_sort(void *keys, uint64_t n, zesort_key_type type)
{
    int (*cmp)(const void *, const void *);
    switch (type) {
    case ZESORT_KEY_I32: cmp = cmp_i32; break;
    case ZESORT_KEY_F32: cmp = cmp_f32; break;
    case ZESORT_KEY_U64: cmp = cmp_u64; break;
    case ZESORT_KEY_I64: cmp = cmp_i64; break;
    case ZESORT_KEY_F64: cmp = cmp_f64; break;
    case ZESORT_KEY_U8: cmp = cmp_u8; break;
    case ZESORT_KEY_I8: cmp = cmp_i8; break;
    case ZESORT_KEY_U16: cmp = cmp_u16; break;
    case ZESORT_KEY_I16: cmp = cmp_i16; break;
    case ZESORT_KEY_F16: case ZESORT_KEY_BF16: cmp = cmp_f16; break; /* same order of 16 bits */
    default: cmp = cmp_u32; break;
    }
    qsort(keys, (size_t)n, cli_key_size(type), cmp);
}

uint64_t cli_key_field(const void *keys, uint64_t i, zesort_key_type type, unsigned lo,
                       unsigned hi)
{
    const unsigned bits = cli_key_bits(type);
    if (hi == 0 || hi > bits)
        hi = bits;
    const uint64_t v = cli_key_order(keys, i, type) >> lo;
    return hi - lo >= 64 ? v : v & ((UINT64_C(1) << (hi - lo)) - 1);
}

typedef struct field_order {
    zesort_key_type type;
    unsigned lo, hi;
    int descending;
} field_order;

/* Merges the sorted runs src[lo, mid) and src[mid, hi) of `size`-byte keys
 * into dst; on a tie the left run's key comes first, which keeps the merge
 * sort stable. */
static void merge_runs(const unsigned char *src, unsigned char *dst, size_t size, uint64_t lo,
                       uint64_t mid, uint64_t hi, const field_order *o)
{
    uint64_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        uint64_t a = cli_key_field(src, i, o->type, o->lo, o->hi);
        uint64_t b = cli_key_field(src, j, o->type, o->lo, o->hi);
        int right = o->descending ? b > a : b < a;
        memcpy(dst + k++ * size, src + (right ? j++ : i++) * size, size);
    }
    memcpy(dst + k * size, src + i * size, (size_t)(mid - i) * size);
    k += mid - i;
    memcpy(dst + k * size, src + j * size, (size_t)(hi - j) * size);
}

/* Full keys that compare equal are the same bits, so an unstable qsort (and
 * its reverse for descending) already is the stable result; a bit range
 * makes different keys equal, whose input order must be kept: a merge sort. */
int cli_reference_sort_stable(void *keys, uint64_t n, zesort_key_type type, unsigned lo,
                              unsigned hi, int descending)
{
    const size_t size = cli_key_size(type);
    unsigned char *k = keys;
    if (lo == 0 && (hi == 0 || hi >= cli_key_bits(type))) {
        cli_reference_sort(keys, n, type);
        for (uint64_t i = 0; descending && i < n / 2; ++i) {
            unsigned char t[8];
            memcpy(t, k + i * size, size);
            memcpy(k + i * size, k + (n - 1 - i) * size, size);
            memcpy(k + (n - 1 - i) * size, t, size);
        }
        return 0;
    }
    unsigned char *tmp = malloc(n ? (size_t)n * size : 1);
    if (!tmp)
        return -1;
    const field_order o = {type, lo, hi, descending};
    unsigned char *src = k, *dst = tmp;
    for (uint64_t w = 1; w < n; w *= 2) {
        for (uint64_t a = 0; a < n; a += 2 * w) {
            uint64_t mid = a + w < n ? a + w : n, end = a + 2 * w < n ? a + 2 * w : n;
            merge_runs(src, dst, size, a, mid, end, &o);
        }
        unsigned char *t = src;
        src = dst;
        dst = t;
    }
    if (src != k)
        memcpy(k, src, (size_t)n * size);
    free(tmp);
    return 0;
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
