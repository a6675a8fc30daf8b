/*
 * test_types.c — every key type, key/value pairs, descending order and bit
 * ranges (docs/design.md 1.3, issue 4), on a real backend, against two oracles:
 * cmref_sort (the CM design over the ordered key, cm_reference) and a stable
 * merge sort written here from the order's definition alone.
 *
 *   test_types oracle                       the oracles checked against each other,
 *                                           hand-ordered lists and the C comparisons
 *   test_types BACKEND ALGO PART [host|device]
 *     BACKEND opencl | level-zero | cpu, ALGO cm2 | cm4 | onesweep | auto (the
 *     cpu backend ignores it; cmref_sort uses 2-bit digits for cm2, else 4)
 *     PART m32    every 32-bit type x order x keys/pairs x bit range x size
 *                 up to 4097 x distribution
 *          m64    the same for the 64-bit types
 *          large  65537 and ~1000003 keys for a few combinations per type
 *                 (ZESORT_TEST_QUICK=1: no 1000003)
 *          errors bad bit ranges: INVALID_ARGUMENT, data untouched
 *          huge   one u32 sort of 2^28 + 3 keys (meson suite 'slow')
 *          huge-pairs  the same with values, descending
 *
 * The expected output is unique (a stable sort defines it completely), so
 * both oracles and the backend must agree key for key and value for value;
 * values are the input indices, so stability is checked through them.
 *
 * ZESORT_TEST_SKIP_OPENCL=1 skips the opencl runs (exit 77). The runner does
 * not fork (one device context per run, see test_backends.c).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_reference.h"
#include "test_data.h"
#include "zesort.h"


static zesort_backend g_backend;
static zesort_algo g_algo;
static zesort_scan g_scan = ZESORT_SCAN_DEVICE;
static unsigned g_bits;
static zesort_context *g_ctx;
static int g_quick; /* ZESORT_TEST_QUICK=1: sanitizer runs, fewer large sizes */

static const char *const type_names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};

static unsigned type_width(zesort_key_type t) { return t >= ZESORT_KEY_U64 ? 64u : 32u; }
static int type_signed(zesort_key_type t) { return t == ZESORT_KEY_I32 || t == ZESORT_KEY_I64; }
static int type_float(zesort_key_type t) { return t == ZESORT_KEY_F32 || t == ZESORT_KEY_F64; }

static uint64_t width_mask(unsigned w) { return w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1; }

/* ---- the test's own order: written from docs/design.md 1.3, not from the kernels ---- */

/* Full-width comparison of two keys (bit patterns, zero-extended) by value:
 * integers with C's comparisons, floats by IEEE-754 totalOrder reasoned in
 * sign-magnitude: every negative below every positive; positives ascend with
 * their magnitude, negatives descend with it (so -NaN < -inf < -1 < -0.0 and
 * NaN payloads order by magnitude, mirrored for negative NaNs). */
static int cmp_value(zesort_key_type t, uint64_t a, uint64_t b)
{
    switch (t) {
    case ZESORT_KEY_I32: {
        int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
        return (x > y) - (x < y);
    }
    case ZESORT_KEY_I64: {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return (x > y) - (x < y);
    }
    case ZESORT_KEY_F32:
    case ZESORT_KEY_F64: {
        const unsigned w = type_width(t);
        const uint64_t sign = (uint64_t)1 << (w - 1);
        const int neg_a = (a & sign) != 0, neg_b = (b & sign) != 0;
        if (neg_a != neg_b)
            return neg_a ? -1 : 1;
        const uint64_t ma = a & (sign - 1), mb = b & (sign - 1);
        const int c = (ma > mb) - (ma < mb);
        return neg_a ? -c : c;
    }
    default:
        return (a > b) - (a < b);
    }
}

/* The rank of a key among all keys of its type, as an unsigned w-bit number:
 * what the bit range [lo, hi) selects from. Arithmetic, not bit flips:
 * signed: value - MIN; float: SIGN + magnitude for positives,
 * (SIGN - 1) - magnitude for negatives. */
static uint64_t rank_of(zesort_key_type t, uint64_t raw)
{
    const unsigned w = type_width(t);
    const uint64_t sign = (uint64_t)1 << (w - 1), all = width_mask(w);
    raw &= all;
    if (type_signed(t))
        return (raw + sign) & all;
    if (type_float(t)) {
        const uint64_t mag = raw & (sign - 1);
        return (raw & sign) ? (sign - 1) - mag : sign + mag;
    }
    return raw;
}

/* The key whose rank is r (the inverse of rank_of), for sorted inputs. */
static uint64_t key_of_rank(zesort_key_type t, uint64_t r)
{
    const unsigned w = type_width(t);
    const uint64_t sign = (uint64_t)1 << (w - 1), all = width_mask(w);
    r &= all;
    if (type_signed(t))
        return (r - sign) & all;
    if (type_float(t))
        return r >= sign ? r - sign : sign | ((sign - 1) - r);
    return r;
}

/* What one sort asks for. lo/hi as passed to the library (hi == 0 with
 * lo == 0: the whole key). */
typedef struct order_spec {
    zesort_key_type type;
    int descending;
    unsigned lo, hi;
} order_spec;

static unsigned spec_hi(const order_spec *o) { return o->hi ? o->hi : type_width(o->type); }
static int spec_full(const order_spec *o) { return o->lo == 0 && spec_hi(o) == type_width(o->type); }

typedef struct oracle_in {
    const order_spec *o;
    const uint64_t *raw; /* keys, zero-extended */
    uint64_t *sub;       /* per key: its bits [lo, hi) of the rank (ranges only) */
} oracle_in;

/* Order of keys i and j (< 0: i first); ties are left to the merge sort's
 * stability. */
static int cmp_keys(const oracle_in *in, uint64_t i, uint64_t j)
{
    int c;
    if (spec_full(in->o))
        c = cmp_value(in->o->type, in->raw[i], in->raw[j]);
    else
        c = (in->sub[i] > in->sub[j]) - (in->sub[i] < in->sub[j]);
    return in->o->descending ? -c : c;
}

/* Stable bottom-up merge sort of the indices 0..n-1. */
static uint32_t *oracle_permutation(const order_spec *o, const uint64_t *raw, uint64_t n)
{
    uint32_t *a = td_alloc(n), *b = td_alloc(n);
    uint64_t *sub = (uint64_t *)td_alloc(2 * n);
    const unsigned lo = o->lo, hi = spec_hi(o);
    for (uint64_t i = 0; i < n; i++) {
        a[i] = (uint32_t)i;
        sub[i] = (rank_of(o->type, raw[i]) >> lo) & width_mask(hi - lo);
    }
    oracle_in in = {o, raw, sub};
    for (uint64_t width = 1; width < n; width *= 2) {
        for (uint64_t left = 0; left < n; left += 2 * width) {
            uint64_t mid = left + width < n ? left + width : n;
            uint64_t right = left + 2 * width < n ? left + 2 * width : n;
            uint64_t i = left, j = mid, k = left;
            while (i < mid && j < right)
                b[k++] = cmp_keys(&in, a[j], a[i]) < 0 ? a[j++] : a[i++]; /* ties: left first */
            while (i < mid)
                b[k++] = a[i++];
            while (j < right)
                b[k++] = a[j++];
        }
        uint32_t *t = a;
        a = b;
        b = t;
    }
    td_free(b);
    td_free(sub);
    return a;
}

/* ---- keys ---- */

typedef enum dist {
    D_UNIFORM,    /* every bit random (floats: NaNs, infinities, denormals too) */
    D_ALL_EQUAL,  /* one value */
    D_SORTED,     /* ascending in the type's order, spread over all ranks */
    D_REVERSED,   /* descending in the type's order */
    D_FEW_UNIQUE, /* 7 distinct values: long runs of equal keys, stability */
    D_HIGH_BITS,  /* only the top 8 bits random */
    D_LOW_BITS,   /* only the low 8 bits random (floats: denormals) */
    D_EXTREMES,   /* the type's special values, mostly, and a few random ones */
    D_COUNT
} dist;

static const char *const dist_names[D_COUNT] = {"uniform",  "all-equal", "sorted",   "reversed",
                                                "few-unique", "high-bits", "low-bits", "extremes"};

static uint64_t next_random(uint64_t *state) /* splitmix64 */
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Special keys of each type. Floats: NaNs of both signs, quiet and
 * signalling, with small and large payloads; infinities; both zeros;
 * denormals; the extremes of the normal range. Integers: the limits. */
static size_t extremes_of(zesort_key_type t, uint64_t *out)
{
    size_t k = 0;
    switch (t) {
    case ZESORT_KEY_U32:
        out[k++] = 0, out[k++] = 1, out[k++] = UINT32_MAX, out[k++] = UINT32_MAX - 1,
        out[k++] = 0x80000000u, out[k++] = 0x7FFFFFFFu;
        break;
    case ZESORT_KEY_I32:
        out[k++] = (uint32_t)INT32_MIN, out[k++] = (uint32_t)INT32_MAX, out[k++] = 0,
        out[k++] = (uint32_t)-1, out[k++] = 1, out[k++] = (uint32_t)(INT32_MIN + 1),
        out[k++] = (uint32_t)(INT32_MAX - 1);
        break;
    case ZESORT_KEY_U64:
        out[k++] = 0, out[k++] = 1, out[k++] = UINT64_MAX, out[k++] = UINT64_MAX - 1,
        out[k++] = UINT64_C(1) << 63, out[k++] = (UINT64_C(1) << 63) - 1, out[k++] = UINT32_MAX,
        out[k++] = (uint64_t)UINT32_MAX + 1;
        break;
    case ZESORT_KEY_I64:
        out[k++] = (uint64_t)INT64_MIN, out[k++] = (uint64_t)INT64_MAX, out[k++] = 0,
        out[k++] = (uint64_t)-1, out[k++] = 1, out[k++] = (uint64_t)(INT64_MIN + 1),
        out[k++] = (uint64_t)INT32_MIN, out[k++] = (uint64_t)(int64_t)INT32_MAX + 1;
        break;
    case ZESORT_KEY_F32:
        out[k++] = 0x7FC00000u, out[k++] = 0xFFC00000u, /* quiet NaN, -quiet NaN */
        out[k++] = 0x7F800001u, out[k++] = 0xFF800001u, /* signalling, payload 1 */
        out[k++] = 0x7FFFFFFFu, out[k++] = 0xFFFFFFFFu, /* largest payloads */
        out[k++] = 0x7FC00123u, out[k++] = 0xFFA00000u,
        out[k++] = f32_bits(INFINITY), out[k++] = f32_bits(-INFINITY),
        out[k++] = f32_bits(0.0f), out[k++] = f32_bits(-0.0f),
        out[k++] = 0x00000001u, out[k++] = 0x80000001u, /* smallest denormals */
        out[k++] = 0x007FFFFFu, out[k++] = 0x807FFFFFu, /* largest denormals */
        out[k++] = f32_bits(FLT_MIN), out[k++] = f32_bits(-FLT_MIN),
        out[k++] = f32_bits(FLT_MAX), out[k++] = f32_bits(-FLT_MAX),
        out[k++] = f32_bits(1.0f), out[k++] = f32_bits(-1.0f);
        break;
    case ZESORT_KEY_F64:
        out[k++] = UINT64_C(0x7FF8000000000000), out[k++] = UINT64_C(0xFFF8000000000000),
        out[k++] = UINT64_C(0x7FF0000000000001), out[k++] = UINT64_C(0xFFF0000000000001),
        out[k++] = UINT64_C(0x7FFFFFFFFFFFFFFF), out[k++] = UINT64_MAX,
        out[k++] = UINT64_C(0x7FF8000000000123), out[k++] = UINT64_C(0xFFF4000000000000),
        out[k++] = f64_bits(INFINITY), out[k++] = f64_bits(-INFINITY),
        out[k++] = f64_bits(0.0), out[k++] = f64_bits(-0.0),
        out[k++] = 1, out[k++] = UINT64_C(0x8000000000000001),
        out[k++] = UINT64_C(0x000FFFFFFFFFFFFF), out[k++] = UINT64_C(0x800FFFFFFFFFFFFF),
        out[k++] = f64_bits(DBL_MIN), out[k++] = f64_bits(-DBL_MIN),
        out[k++] = f64_bits(DBL_MAX), out[k++] = f64_bits(-DBL_MAX),
        out[k++] = f64_bits(1.0), out[k++] = f64_bits(-1.0),
        out[k++] = f64_bits((double)FLT_MAX), out[k++] = f64_bits(-1e-310);
        break;
    default: /* the narrow types: test_narrow.c */
        out[k++] = 0;
        break;
    }
    return k;
}

/* raw[0..n): keys of type t with distribution d, zero-extended. */
static void fill_keys(zesort_key_type t, uint64_t *raw, uint64_t n, dist d, uint64_t seed)
{
    const unsigned w = type_width(t);
    const uint64_t all = width_mask(w);
    uint64_t state = seed * 1000003u + n * 31u + (uint64_t)d * 7u + (uint64_t)t;
    uint64_t few[7], special[32];
    for (int i = 0; i < 7; i++)
        few[i] = next_random(&state) & all;
    const uint64_t constant = next_random(&state) & all;
    const size_t specials = extremes_of(t, special);
    const uint64_t step = n ? all / n : 0;

    for (uint64_t i = 0; i < n; i++) {
        const uint64_t r = next_random(&state) & all;
        switch (d) {
        case D_UNIFORM: raw[i] = r; break;
        case D_ALL_EQUAL: raw[i] = constant; break;
        case D_SORTED: raw[i] = key_of_rank(t, i * step); break;
        case D_REVERSED: raw[i] = key_of_rank(t, (n - 1 - i) * step); break;
        case D_FEW_UNIQUE: raw[i] = few[r % 7]; break;
        case D_HIGH_BITS: raw[i] = r & (all << (w - 8)) & all; break;
        case D_LOW_BITS: raw[i] = r & 0xFF; break;
        case D_EXTREMES: raw[i] = (r % 5 == 0) ? r : special[(r >> 8) % specials]; break;
        default: raw[i] = 0; break;
        }
    }
}

/* The keys as the library takes them: n elements of the type's width. */
static void *pack_keys(zesort_key_type t, const uint64_t *raw, uint64_t n)
{
    if (type_width(t) == 64) {
        uint64_t *p = (uint64_t *)td_alloc(2 * n);
        if (n)
            memcpy(p, raw, n * 8);
        return p;
    }
    uint32_t *p = td_alloc(n);
    for (uint64_t i = 0; i < n; i++)
        p[i] = (uint32_t)raw[i];
    return p;
}

static uint64_t key_at(zesort_key_type t, const void *keys, uint64_t i)
{
    return type_width(t) == 64 ? ((const uint64_t *)keys)[i] : ((const uint32_t *)keys)[i];
}

/* ---- one checked sort ---- */

static zesort_context *ctx(void)
{
    ck_assert_ptr_nonnull(g_ctx);
    return g_ctx;
}

static void describe(char *buf, size_t len, const order_spec *o, int pairs, uint64_t n, dist d)
{
    snprintf(buf, len, "%s %s %s %s bits [%u,%u) n=%llu %s", zesort_algo_name(g_algo),
             type_names[o->type], o->descending ? "descending" : "ascending",
             pairs ? "pairs" : "keys", o->lo, spec_hi(o), (unsigned long long)n, dist_names[d]);
}

/* got (keys, values) must equal want; `who` names the sorter. */
static void assert_same(const char *who, const char *what, zesort_key_type t, const void *got,
                        const uint32_t *got_values, const void *want, const uint32_t *want_values,
                        uint64_t n)
{
    const size_t kb = type_width(t) / 8;
    if (n && memcmp(got, want, n * kb) != 0) {
        uint64_t i = 0;
        while (key_at(t, got, i) == key_at(t, want, i))
            i++;
        ck_abort_msg("%s: %s: key %llu is 0x%llx, want 0x%llx", who, what, (unsigned long long)i,
                     (unsigned long long)key_at(t, got, i),
                     (unsigned long long)key_at(t, want, i));
    }
    if (got_values && n && memcmp(got_values, want_values, n * 4) != 0) {
        uint64_t i = 0;
        while (got_values[i] == want_values[i])
            i++;
        ck_abort_msg("%s: %s: value %llu is %u, want %u (key 0x%llx)%s", who, what,
                     (unsigned long long)i, got_values[i], want_values[i],
                     (unsigned long long)key_at(t, want, i),
                     i > 0 && key_at(t, want, i) == key_at(t, want, i - 1)
                         ? ": equal keys out of input order (not stable)" : "");
    }
}

/* Sorts n keys of distribution d as asked by o, with values when `pairs`,
 * on the backend and with cmref_sort, and compares both with the merge sort. */
static void check_sort(const order_spec *o, int pairs, uint64_t n, dist d, uint64_t seed)
{
    char what[160];
    describe(what, sizeof what, o, pairs, n, d);
    const zesort_key_type t = o->type;
    uint64_t *raw = (uint64_t *)td_alloc(2 * n);
    fill_keys(t, raw, n, d, seed);

    uint32_t *perm = oracle_permutation(o, raw, n);
    uint64_t *want_raw = (uint64_t *)td_alloc(2 * n);
    for (uint64_t i = 0; i < n; i++)
        want_raw[i] = raw[perm[i]];
    void *want = pack_keys(t, want_raw, n);

    /* cm_reference */
    void *ref = pack_keys(t, raw, n);
    uint32_t *ref_values = NULL;
    if (pairs) {
        ref_values = td_alloc(n);
        for (uint64_t i = 0; i < n; i++)
            ref_values[i] = (uint32_t)i;
    }
    ck_assert_msg(cmref_sort(ref, ref_values, n, (cmref_key_type)t, o->descending, o->lo, o->hi,
                             g_bits) == 0,
                  "cmref_sort failed: %s", what);
    assert_same("cmref_sort", what, t, ref, ref_values, want, perm, n);

    /* the backend */
    void *keys = pack_keys(t, raw, n);
    uint32_t *values = NULL;
    if (pairs) {
        values = td_alloc(n);
        for (uint64_t i = 0; i < n; i++)
            values[i] = (uint32_t)i;
    }
    zesort_options opt;
    zesort_options_default(&opt);
    opt.key_type = t;
    opt.algo = g_algo;
    opt.scan = g_scan;
    opt.descending = o->descending;
    opt.bit_lo = o->lo;
    opt.bit_hi = o->hi;
    zesort_status st = zesort_sort(ctx(), keys, values, n, &opt);
    ck_assert_msg(st == ZESORT_OK, "zesort_sort %s: %s: %s", what, zesort_status_name(st),
                  zesort_last_error(ctx()));
    assert_same(zesort_backend_name(g_backend), what, t, keys, values, want, perm, n);

    td_free(raw), td_free(perm), td_free(want_raw), td_free(want), td_free(ref);
    td_free(ref_values), td_free(keys), td_free(values);
}

/* ---- the matrix: type x order x keys/pairs x bit range, sizes x distributions ---- */

#define RANGE_COUNT 4
/* full (the defaults 0:0), a width that is no multiple of 2 or 4 bits, the
 * lowest bit alone, the top (sign) bit alone */
static void range_of(zesort_key_type t, int r, unsigned *lo, unsigned *hi)
{
    const unsigned w = type_width(t);
    static const unsigned r32[RANGE_COUNT][2] = {{0, 0}, {3, 17}, {0, 1}, {31, 32}};
    static const unsigned r64[RANGE_COUNT][2] = {{0, 0}, {5, 47}, {0, 1}, {63, 64}};
    *lo = (w == 64 ? r64 : r32)[r][0];
    *hi = (w == 64 ? r64 : r32)[r][1];
}

static const uint64_t matrix_sizes[] = {0, 1, 31, 32, 255, 256, 257, 4097};
#define MATRIX_SIZE_COUNT (sizeof matrix_sizes / sizeof matrix_sizes[0])

/* loop index -> (type among 3, descending, pairs, range) */
static void matrix_case(int first_type, int i)
{
    order_spec o = {.type = (zesort_key_type)(first_type + i % 3), .descending = (i / 3) % 2};
    const int pairs = (i / 6) % 2, range = i / 12;
    range_of(o.type, range, &o.lo, &o.hi);
    for (size_t s = 0; s < MATRIX_SIZE_COUNT; s++) {
        const uint64_t n = matrix_sizes[s];
        /* 0 and 1 key(s) look alike in every distribution */
        for (int d = 0; d < (n < 2 ? 1 : D_COUNT); d++)
            check_sort(&o, pairs, n, (dist)d, 17 + (uint64_t)i);
    }
}

START_TEST(matrix_32) { matrix_case(ZESORT_KEY_U32, _i); }
END_TEST

START_TEST(matrix_64) { matrix_case(ZESORT_KEY_U64, _i); }
END_TEST

/* 65537 keys: every type, two settings each, two distributions. */
START_TEST(large_65537)
{
    order_spec o = {.type = (zesort_key_type)(_i / 2), .descending = _i % 2};
    range_of(o.type, _i % 2 ? 1 : 0, &o.lo, &o.hi);
    check_sort(&o, _i % 2 == 0, 65537, D_UNIFORM, 5);
    check_sort(&o, 1, 65537, D_EXTREMES, 6);
}
END_TEST

/* ~1000003 keys, one setting per type: pairs everywhere (values at large
 * offsets), descending for half, a bit range for some. */
START_TEST(large_million)
{
    static const struct { int descending; int range; dist d; } c[6] = {
        {1, 0, D_UNIFORM}, {0, 1, D_UNIFORM},  {0, 0, D_EXTREMES},
        {0, 0, D_UNIFORM}, {1, 0, D_FEW_UNIQUE}, {1, 1, D_EXTREMES}};
    order_spec o = {.type = (zesort_key_type)_i, .descending = c[_i].descending};
    range_of(o.type, c[_i].range, &o.lo, &o.hi);
    check_sort(&o, 1, 1000003, c[_i].d, 8);
}
END_TEST

/* descending is a boolean: any non-zero value means descending. */
START_TEST(descending_any_nonzero)
{
    const uint64_t n = 300;
    uint64_t raw[300];
    fill_keys(ZESORT_KEY_I32, raw, n, D_FEW_UNIQUE, 3);
    order_spec o = {.type = ZESORT_KEY_I32, .descending = 1};
    uint32_t *perm = oracle_permutation(&o, raw, n);
    int32_t keys[300], want[300];
    for (uint64_t i = 0; i < n; i++)
        keys[i] = (int32_t)(uint32_t)raw[i], want[i] = (int32_t)(uint32_t)raw[perm[i]];
    zesort_options opt;
    zesort_options_default(&opt);
    opt.key_type = ZESORT_KEY_I32;
    opt.algo = g_algo;
    opt.scan = g_scan;
    opt.descending = 7;
    ck_assert_int_eq(zesort_sort(ctx(), keys, NULL, n, &opt), ZESORT_OK);
    ck_assert_mem_eq(keys, want, sizeof keys);
    td_free(perm);
}
END_TEST

/* ---- errors: bad bit ranges change nothing ---- */

START_TEST(bad_bit_ranges)
{
    const zesort_key_type t = (zesort_key_type)_i;
    const unsigned w = type_width(t);
    const unsigned bad[][2] = {{12, 8}, {8, 8}, {0, w + 8}, {0, w + 1}, {w, w + 1},
                               {w - 1, w - 1}, {w + 8, 0}, {w, 0}};
    const uint64_t n = 100;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int pairs = 0; pairs < 2; pairs++) {
            uint64_t raw[100];
            fill_keys(t, raw, n, D_EXTREMES, k);
            void *keys = pack_keys(t, raw, n), *orig = pack_keys(t, raw, n);
            uint32_t values[100];
            for (uint32_t i = 0; i < n; i++)
                values[i] = 1000 + i;
            zesort_options opt;
            zesort_options_default(&opt);
            opt.key_type = t;
            opt.algo = g_algo;
            opt.bit_lo = bad[k][0];
            opt.bit_hi = bad[k][1];
            opt.descending = pairs;
            zesort_status st = zesort_sort(ctx(), keys, pairs ? values : NULL, n, &opt);
            ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT, "%s bits %u:%u: got %s",
                          type_names[t], bad[k][0], bad[k][1], zesort_status_name(st));
            ck_assert_msg(zesort_last_error(ctx())[0] != '\0', "no message");
            ck_assert_msg(memcmp(keys, orig, n * (w / 8)) == 0, "%s bits %u:%u: keys changed",
                          type_names[t], bad[k][0], bad[k][1]);
            for (uint32_t i = 0; i < n; i++)
                ck_assert_msg(values[i] == 1000 + i, "%s bits %u:%u: values changed",
                              type_names[t], bad[k][0], bad[k][1]);
            /* cm_reference refuses them too */
            ck_assert_int_eq(cmref_sort(keys, values, n, (cmref_key_type)t, 0, bad[k][0],
                                        bad[k][1], g_bits), -1);
            ck_assert_mem_eq(keys, orig, n * (w / 8));
            td_free(keys), td_free(orig);
        }
    }
}
END_TEST

/* Explicit full ranges equal the defaults; the range [lo, width) with the top
 * bits works for each width. */
START_TEST(explicit_full_range)
{
    const zesort_key_type t = (zesort_key_type)_i;
    order_spec o = {.type = t, .lo = 0, .hi = type_width(t)};
    check_sort(&o, 1, 3000, D_EXTREMES, 41);
    o.lo = 1;
    o.descending = 1;
    check_sort(&o, 1, 3000, D_UNIFORM, 42);
}
END_TEST

/* ---- huge: one sort above 2^28 keys (suite 'slow') ---- */

/* An independent u32 sort for the huge test: stable LSD radix with 8-bit
 * digits on (key, index), moving the indices only when `idx` is given. */
static void radix_u32(uint32_t *keys, uint32_t *idx, uint64_t n, int descending)
{
    uint32_t *tk = malloc(n * sizeof *tk), *ti = idx ? malloc(n * sizeof *ti) : NULL;
    ck_assert_msg(tk && (!idx || ti), "test out of host memory");
    for (unsigned shift = 0; shift < 32; shift += 8) {
        uint64_t offset[256] = {0};
        for (uint64_t i = 0; i < n; i++)
            offset[((descending ? ~keys[i] : keys[i]) >> shift) & 255]++;
        uint64_t run = 0;
        for (int b = 0; b < 256; b++) {
            uint64_t c = offset[b];
            offset[b] = run;
            run += c;
        }
        for (uint64_t i = 0; i < n; i++) {
            uint64_t slot = offset[((descending ? ~keys[i] : keys[i]) >> shift) & 255]++;
            tk[slot] = keys[i];
            if (idx)
                ti[slot] = idx[i];
        }
        memcpy(keys, tk, n * sizeof *tk);
        if (idx)
            memcpy(idx, ti, n * sizeof *ti);
    }
    free(tk), free(ti);
}

static void huge_sort(int pairs)
{
    const uint64_t n = (UINT64_C(1) << 28) + 3;
    uint32_t *keys = malloc(n * sizeof *keys), *want = malloc(n * sizeof *want);
    uint32_t *values = pairs ? malloc(n * sizeof *values) : NULL;
    uint32_t *want_values = pairs ? malloc(n * sizeof *values) : NULL;
    ck_assert_msg(keys && want && (!pairs || (values && want_values)), "test out of host memory");
    uint64_t state = 12345;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = next_random(&state);
        /* pairs: few distinct high halves, so equal keys are common (stability) */
        keys[i] = pairs ? (uint32_t)(r & 0x000F00FF) : (uint32_t)r;
        if (pairs)
            values[i] = want_values[i] = (uint32_t)i;
    }
    memcpy(want, keys, n * sizeof *keys);
    radix_u32(want, want_values, n, pairs);

    zesort_options opt;
    zesort_options_default(&opt);
    opt.algo = g_algo;
    opt.scan = g_scan;
    opt.descending = pairs;
    double ms = 0;
    zesort_status st = zesort_sort_timed(ctx(), keys, values, n, &opt, &ms);
    ck_assert_msg(st == ZESORT_OK, "zesort_sort of %llu keys: %s: %s", (unsigned long long)n,
                  zesort_status_name(st), zesort_last_error(ctx()));
    printf("huge%s: %llu keys sorted in %.0f ms device time\n", pairs ? "-pairs" : "",
           (unsigned long long)n, ms);
    for (uint64_t i = 0; i < n; i++) {
        if (keys[i] != want[i])
            ck_abort_msg("huge: key %llu is %u, want %u", (unsigned long long)i, keys[i], want[i]);
        if (pairs && values[i] != want_values[i])
            ck_abort_msg("huge: value %llu is %u, want %u", (unsigned long long)i, values[i],
                         want_values[i]);
    }
    free(keys), free(want), free(values), free(want_values);
}

START_TEST(huge_keys) { huge_sort(0); }
END_TEST

START_TEST(huge_pairs) { huge_sort(1); }
END_TEST

/* ---- the oracles themselves ---- */

/* A hand-ordered ascending list per float type: rank_of, cmp_value and
 * cmref_ordered_key must all agree with it. */
static void check_ordered_list(zesort_key_type t, const uint64_t *list, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        ck_assert_msg(cmp_value(t, list[i], list[i + 1]) < 0, "%s cmp_value at %zu",
                      type_names[t], i);
        ck_assert_msg(rank_of(t, list[i]) < rank_of(t, list[i + 1]), "%s rank_of at %zu",
                      type_names[t], i);
        ck_assert_msg(cmref_ordered_key(list[i], (cmref_key_type)t, 0) <
                          cmref_ordered_key(list[i + 1], (cmref_key_type)t, 0),
                      "%s cmref_ordered_key at %zu", type_names[t], i);
        ck_assert_msg(cmref_ordered_key(list[i], (cmref_key_type)t, 1) >
                          cmref_ordered_key(list[i + 1], (cmref_key_type)t, 1),
                      "%s cmref_ordered_key descending at %zu", type_names[t], i);
    }
}

START_TEST(oracle_float_total_order)
{
    const uint64_t f32[] = {
        0xFFFFFFFFu, 0xFFC00001u, 0xFFC00000u, 0xFF800001u, /* -NaNs, larger payload first */
        f32_bits(-INFINITY), f32_bits(-FLT_MAX), f32_bits(-1.0f), f32_bits(-FLT_MIN),
        0x807FFFFFu, 0x80000001u, f32_bits(-0.0f), f32_bits(0.0f), 0x00000001u, 0x007FFFFFu,
        f32_bits(FLT_MIN), f32_bits(1.0f), f32_bits(FLT_MAX), f32_bits(INFINITY),
        0x7F800001u, 0x7FC00000u, 0x7FC00001u, 0x7FFFFFFFu}; /* NaNs, smaller payload first */
    const uint64_t f64[] = {
        UINT64_MAX, UINT64_C(0xFFF8000000000000), UINT64_C(0xFFF0000000000001),
        f64_bits(-INFINITY), f64_bits(-DBL_MAX), f64_bits(-1.0), f64_bits(-DBL_MIN),
        UINT64_C(0x800FFFFFFFFFFFFF), UINT64_C(0x8000000000000001), f64_bits(-0.0),
        f64_bits(0.0), 1, UINT64_C(0x000FFFFFFFFFFFFF), f64_bits(DBL_MIN), f64_bits(1.0),
        f64_bits(DBL_MAX), f64_bits(INFINITY), UINT64_C(0x7FF0000000000001),
        UINT64_C(0x7FF8000000000000), UINT64_C(0x7FFFFFFFFFFFFFFF)};
    check_ordered_list(ZESORT_KEY_F32, f32, sizeof f32 / sizeof f32[0]);
    check_ordered_list(ZESORT_KEY_F64, f64, sizeof f64 / sizeof f64[0]);
    const uint64_t i32[] = {(uint32_t)INT32_MIN, (uint32_t)-5, (uint32_t)-1, 0, 1,
                            (uint32_t)INT32_MAX};
    const uint64_t i64[] = {(uint64_t)INT64_MIN, (uint64_t)INT32_MIN, (uint64_t)-1, 0, 1,
                            (uint64_t)INT64_MAX};
    const uint64_t u64[] = {0, 1, UINT32_MAX, UINT64_C(1) << 63, UINT64_MAX};
    check_ordered_list(ZESORT_KEY_I32, i32, 6);
    check_ordered_list(ZESORT_KEY_I64, i64, 6);
    check_ordered_list(ZESORT_KEY_U64, u64, 5);
}
END_TEST

/* cmp_value agrees with C's float comparisons wherever those define an order
 * (no NaN; -0.0 == +0.0 for C, -0.0 first for totalOrder); rank_of and
 * key_of_rank are inverse; cmref_ordered_key equals rank_of (ascending) and
 * its complement (descending), for random and special keys of every type. */
START_TEST(oracle_agrees_with_c_and_cmref)
{
    uint64_t state = 77, special[32];
    for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_F64; t++) {
        const zesort_key_type kt = (zesort_key_type)t;
        const uint64_t all = width_mask(type_width(kt));
        const size_t specials = extremes_of(kt, special);
        for (int k = 0; k < (g_quick ? 20000 : 200000); k++) {
            uint64_t r = next_random(&state);
            uint64_t a = k % 3 ? r & all : special[r % specials];
            uint64_t b = k % 2 ? next_random(&state) & all : special[(r >> 20) % specials];
            ck_assert_uint_eq(key_of_rank(kt, rank_of(kt, a)), a);
            ck_assert_uint_eq(cmref_ordered_key(a, (cmref_key_type)kt, 0), rank_of(kt, a));
            ck_assert_uint_eq(cmref_ordered_key(a, (cmref_key_type)kt, 1), ~rank_of(kt, a) & all);
            const int c = cmp_value(kt, a, b);
            ck_assert_int_eq(c, (rank_of(kt, a) > rank_of(kt, b)) - (rank_of(kt, a) < rank_of(kt, b)));
            if (kt == ZESORT_KEY_F32) {
                float x, y;
                uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
                memcpy(&x, &a32, 4), memcpy(&y, &b32, 4);
                if (!isnan(x) && !isnan(y) && x != y)
                    ck_assert_int_eq(c, x < y ? -1 : 1);
                if (x == y)
                    ck_assert(c == 0 || (x == 0.0f && c == (signbit(x) ? -1 : 1)));
            } else if (kt == ZESORT_KEY_F64) {
                double x, y;
                memcpy(&x, &a, 8), memcpy(&y, &b, 8);
                if (!isnan(x) && !isnan(y) && x != y)
                    ck_assert_int_eq(c, x < y ? -1 : 1);
                if (x == y)
                    ck_assert(c == 0 || (x == 0.0 && c == (signbit(x) ? -1 : 1)));
            }
        }
    }
}
END_TEST

/* cmref_sort with both digit widths equals the merge sort on the whole
 * matrix at a few sizes (no backend involved). */
START_TEST(oracle_cmref_matrix)
{
    static const uint64_t ns[] = {33, 700};
    for (unsigned bits = 2; bits <= 4; bits += 2) {
        g_bits = bits;
        for (int i = 0; i < 6 * 2 * 2 * RANGE_COUNT; i++) {
            order_spec o = {.type = (zesort_key_type)(i % 6), .descending = (i / 6) % 2};
            range_of(o.type, i / 24, &o.lo, &o.hi);
            const int pairs = (i / 12) % 2;
            for (size_t s = 0; s < 2; s++)
                for (int d = 0; d < D_COUNT; d++) {
                    uint64_t n = ns[s], raw[700];
                    fill_keys(o.type, raw, n, (dist)d, 3);
                    uint32_t *perm = oracle_permutation(&o, raw, n);
                    uint64_t want[700];
                    uint32_t values[700];
                    for (uint64_t j = 0; j < n; j++)
                        want[j] = raw[perm[j]], values[j] = (uint32_t)j;
                    void *keys = pack_keys(o.type, raw, n), *wantp = pack_keys(o.type, want, n);
                    ck_assert_int_eq(cmref_sort(keys, pairs ? values : NULL, n,
                                                (cmref_key_type)o.type, o.descending, o.lo, o.hi,
                                                bits), 0);
                    char what[160];
                    describe(what, sizeof what, &o, pairs, n, (dist)d);
                    assert_same("cmref_sort", what, o.type, keys, pairs ? values : NULL, wantp,
                                perm, n);
                    td_free(keys), td_free(wantp), td_free(perm);
                }
        }
    }
}
END_TEST

/* The narrow last digit: [3,17) with 4-bit digits is 4+4+4+2 bits; keys that
 * differ only in bit 17 or above (outside the range) keep their input order,
 * keys that differ in bit 16 do not. Hand-made, checked on cmref and the backend. */
START_TEST(narrow_last_digit)
{
    uint32_t keys[6] = {0x00030000u, 0x00010008u, 0x00020000u, 0x00000008u, 0x00010000u, 0};
    /* bits [3,17) of each: 0x2000, 0x2001, 0x0000, 0x0001, 0x2000, 0 */
    const uint32_t want[6] = {0x00020000u, 0, 0x00000008u, 0x00030000u, 0x00010000u,
                              0x00010008u};
    uint32_t ref[6];
    memcpy(ref, keys, sizeof keys);
    ck_assert_int_eq(cmref_sort(ref, NULL, 6, CMREF_U32, 0, 3, 17, g_bits), 0);
    ck_assert_mem_eq(ref, want, sizeof want);
    if (!g_ctx)
        return;
    zesort_options opt;
    zesort_options_default(&opt);
    opt.algo = g_algo;
    opt.scan = g_scan;
    opt.bit_lo = 3;
    opt.bit_hi = 17;
    ck_assert_int_eq(zesort_sort(ctx(), keys, NULL, 6, &opt), ZESORT_OK);
    ck_assert_mem_eq(keys, want, sizeof want);
}
END_TEST

/* ---- runner ---- */

static int known_part(const char *part)
{
    static const char *const parts[] = {"oracle", "m32",  "m64",       "large",
                                        "errors", "huge", "huge-pairs"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (strcmp(part, parts[i]) == 0)
            return 1;
    return 0;
}

/* part: one of known_part's */
static Suite *types_suite(const char *part)
{
    Suite *s = suite_create("types");
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 0);
    tcase_add_checked_fixture(tc, NULL, td_free_all);
    if (strcmp(part, "oracle") == 0) {
        g_bits = 4;
        tcase_add_test(tc, oracle_float_total_order);
        tcase_add_test(tc, oracle_agrees_with_c_and_cmref);
        tcase_add_test(tc, oracle_cmref_matrix);
        tcase_add_test(tc, narrow_last_digit);
    } else if (strcmp(part, "m32") == 0 || strcmp(part, "m64") == 0) {
        const int cases = 3 * 2 * 2 * RANGE_COUNT;
        if (part[1] == '3')
            tcase_add_loop_test(tc, matrix_32, 0, cases);
        else
            tcase_add_loop_test(tc, matrix_64, 0, cases);
    } else if (strcmp(part, "large") == 0) {
        tcase_add_loop_test(tc, large_65537, 0, 12);
        if (!g_quick)
            tcase_add_loop_test(tc, large_million, 0, 6);
    } else if (strcmp(part, "errors") == 0) {
        tcase_add_loop_test(tc, bad_bit_ranges, 0, 6);
        tcase_add_loop_test(tc, explicit_full_range, 0, 6);
        tcase_add_test(tc, descending_any_nonzero);
        tcase_add_test(tc, narrow_last_digit);
    } else if (strcmp(part, "huge") == 0) {
        tcase_add_test(tc, huge_keys);
    } else {
        tcase_add_test(tc, huge_pairs);
    }
    suite_add_tcase(s, tc);
    return s;
}

static int usage(void)
{
    fprintf(stderr, "usage: test_types oracle\n"
                    "       test_types opencl|level-zero|cpu cm2|cm4|onesweep|auto "
                    "m32|m64|large|errors|huge|huge-pairs [host|device]\n");
    return 2;
}

static int run(Suite *s)
{
    int rc = td_run_suite(s);
    zesort_destroy(g_ctx);
    return rc;
}

int main(int argc, char **argv)
{
    const char *quick = getenv("ZESORT_TEST_QUICK");
    g_quick = quick && strcmp(quick, "1") == 0;
    if (argc == 2 && strcmp(argv[1], "oracle") == 0)
        return run(types_suite("oracle"));
    if (argc < 4 || argc > 5)
        return usage();
    if (strcmp(argv[1], "opencl") == 0)
        g_backend = ZESORT_BACKEND_OPENCL;
    else if (strcmp(argv[1], "level-zero") == 0)
        g_backend = ZESORT_BACKEND_LEVEL_ZERO;
    else if (strcmp(argv[1], "cpu") == 0)
        g_backend = ZESORT_BACKEND_CPU;
    else
        return usage();
    /* any algorithm of the library; cmref_sort models cm2 or cm4, and every
     * stable sort gives the same output, so other algorithms use 4-bit digits */
    if (zesort_parse_algo(argv[2], &g_algo) != 0)
        return usage();
    g_bits = g_algo == ZESORT_ALGO_CM2 ? 2 : 4;
    if (argc == 5 && strcmp(argv[4], "host") == 0)
        g_scan = ZESORT_SCAN_HOST;
    else if (argc == 5 && strcmp(argv[4], "device") != 0)
        return usage();
    if (!known_part(argv[3]) || strcmp(argv[3], "oracle") == 0)
        return usage();

    if (g_backend == ZESORT_BACKEND_OPENCL && td_skip_opencl())
        return TD_SKIP_EXIT;
    /* No device is one loud failure, not one per test. */
    zesort_status st = zesort_create(g_backend, &g_ctx);
    if (st != ZESORT_OK) {
        fprintf(stderr, "FAIL: zesort_create(%s): %s: %s\n", argv[1], zesort_status_name(st),
                zesort_last_error(NULL));
        return EXIT_FAILURE;
    }
    printf("device: %s\n", zesort_context_device(g_ctx));
    return run(types_suite(argv[3]));
}
