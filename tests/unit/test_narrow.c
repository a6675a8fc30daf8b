/*
 * test_narrow.c — the narrow key types (u8 i8 u16 i16 f16 bf16) through the
 * host API, against a stable qsort whose comparator is each type's own order
 * written from its values (integers as C integers, binary16 and bfloat16
 * decoded to double, NaNs by sign and payload, -0 before +0), never from the
 * library's bit flips.
 *
 *   test_narrow BACKEND PART [ALGO]
 *     BACKEND cpu | auto (auto on the Level Zero test driver: the device
 *             AUTO picked sorts them) | level-zero | opencl: on a device the
 *             kernels read and write the keys at their width (issue 37);
 *             ZESORT_FLAVOR picks the kernels' flavor
 *     ALGO    cm2 | cm4 | onesweep | auto (the default)
 *     PART    patterns   every one of the 65536 f16 and bf16 bit patterns,
 *                        shuffled, once and five times, and every u16 / i16
 *                        and u8 / i8 value likewise: ascending and descending, keys only,
 *                        u32 and u64 values, argsort, out of place, two segments; hand
 *                        checks of where NaNs, infinities and zeros land
 *             sizes      every narrow type, sizes 0 .. 1000003 (31, 32, 33,
 *                        255 .. 257, primes), keys only and pairs, both
 *                        orders, bit ranges
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zesort.h>

static zesort_context *g_ctx;
static const char *g_backend;
static zesort_algo g_algo = ZESORT_ALGO_AUTO;

typedef struct ntype {
    const char *name;
    zesort_key_type t;
    unsigned bytes;
} ntype;

static const ntype types[] = {{"u8", ZESORT_KEY_U8, 1},   {"i8", ZESORT_KEY_I8, 1},
                              {"u16", ZESORT_KEY_U16, 2}, {"i16", ZESORT_KEY_I16, 2},
                              {"f16", ZESORT_KEY_F16, 2}, {"bf16", ZESORT_KEY_BF16, 2}};
#define NTYPES (sizeof types / sizeof types[0])

/* ---- the types' own orders ---- */

/* A binary16 (exp_bits 5, man_bits 10) or bfloat16 (8, 7) pattern's value;
 * NaNs are classified by the caller. Exact in a double. */
static double half_value(uint16_t h, unsigned exp_bits, unsigned man_bits)
{
    const unsigned e = (h >> man_bits) & ((1u << exp_bits) - 1u), m = h & ((1u << man_bits) - 1u);
    const int bias = (1 << (exp_bits - 1)) - 1;
    double v = e == 0 ? ldexp((double)m, 1 - bias - (int)man_bits)
                      : e == (1u << exp_bits) - 1u ? INFINITY
                                                   : ldexp((double)(m | (1u << man_bits)),
                                                           (int)e - bias - (int)man_bits);
    return (h & 0x8000u) ? -v : v;
}

static int half_nan(uint16_t h, unsigned exp_bits, unsigned man_bits)
{
    const unsigned e = (h >> man_bits) & ((1u << exp_bits) - 1u);
    return e == (1u << exp_bits) - 1u && (h & ((1u << man_bits) - 1u)) != 0;
}

/* totalOrder: -NaN (bigger payload first) < -inf < ... < -0 < +0 < ... < +inf
 * < +NaN (bigger payload last). */
static int cmp_half(uint16_t a, uint16_t b, unsigned exp_bits, unsigned man_bits)
{
    const int na = half_nan(a, exp_bits, man_bits), nb = half_nan(b, exp_bits, man_bits);
    const int sa = (a & 0x8000u) != 0, sb = (b & 0x8000u) != 0;
    if (na || nb) {
        /* a NaN's side: -NaN below everything, +NaN above */
        const int ra = na ? (sa ? -1 : 1) : 0, rb = nb ? (sb ? -1 : 1) : 0;
        if (ra != rb)
            return ra < rb ? -1 : 1;
        const unsigned pa = a & 0x7FFFu, pb = b & 0x7FFFu; /* both NaNs of one sign */
        const int c = (pa > pb) - (pa < pb);
        return sa ? -c : c;
    }
    const double x = half_value(a, exp_bits, man_bits), y = half_value(b, exp_bits, man_bits);
    if (x != y)
        return x < y ? -1 : 1;
    return sb - sa; /* -0 before +0; equal values are equal bits otherwise */
}

static uint64_t load(const void *keys, unsigned bytes, uint64_t i)
{
    return bytes == 1 ? ((const uint8_t *)keys)[i] : ((const uint16_t *)keys)[i];
}

static int cmp_type(zesort_key_type t, uint64_t a, uint64_t b)
{
    switch (t) {
    case ZESORT_KEY_I8: return ((int8_t)a > (int8_t)b) - ((int8_t)a < (int8_t)b);
    case ZESORT_KEY_I16: return ((int16_t)a > (int16_t)b) - ((int16_t)a < (int16_t)b);
    case ZESORT_KEY_F16: return cmp_half((uint16_t)a, (uint16_t)b, 5, 10);
    case ZESORT_KEY_BF16: return cmp_half((uint16_t)a, (uint16_t)b, 8, 7);
    default: return (a > b) - (a < b);
    }
}

/* With a bit range the order is the ordered key's bits [lo, hi): the
 * rank of the key among all keys of its type, counted here by a table made
 * from cmp_type (sorting all 2^w patterns once per type). */
static uint32_t g_rank[NTYPES][65536];

static int g_rank_type;
static int cmp_pattern(const void *a, const void *b)
{
    return cmp_type(types[g_rank_type].t, *(const uint32_t *)a, *(const uint32_t *)b);
}

static void make_ranks(void)
{
    static uint32_t order[65536];
    for (size_t ti = 0; ti < NTYPES; ti++) {
        const uint32_t count = 1u << (8 * types[ti].bytes);
        for (uint32_t p = 0; p < count; p++)
            order[p] = p;
        g_rank_type = (int)ti;
        qsort(order, count, sizeof *order, cmp_pattern);
        for (uint32_t r = 0; r < count; r++)
            g_rank[ti][order[r]] = r;
    }
}

typedef struct spec {
    size_t ti;
    int descending;
    unsigned lo, hi; /* hi 0: the whole key */
} spec;

typedef struct entry {
    uint64_t key, pos;
} entry;

static const spec *g_spec;

static int cmp_entry(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    const spec *s = g_spec;
    int c;
    if (s->hi == 0) {
        c = cmp_type(types[s->ti].t, a->key, b->key);
    } else {
        const uint32_t m = (1u << (s->hi - s->lo)) - 1u;
        const uint32_t x = (g_rank[s->ti][a->key] >> s->lo) & m;
        const uint32_t y = (g_rank[s->ti][b->key] >> s->lo) & m;
        c = (x > y) - (x < y);
    }
    if (s->descending)
        c = -c;
    return c ? c : (a->pos > b->pos) - (a->pos < b->pos); /* stable */
}

/* The stable permutation of keys[0, n) under s. */
static uint64_t *permutation(const void *keys, uint64_t n, const spec *s)
{
    entry *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *perm = malloc((n ? n : 1) * sizeof *perm);
    ck_assert(e && perm);
    for (uint64_t i = 0; i < n; i++)
        e[i] = (entry){load(keys, types[s->ti].bytes, i), i};
    g_spec = s;
    qsort(e, n, sizeof *e, cmp_entry);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = e[i].pos;
    free(e);
    return perm;
}

/* ---- one checked call of each kind ---- */

static uint64_t value_of(uint64_t i, unsigned vb)
{
    return vb == 8 ? (i * UINT64_C(0x100000001)) ^ UINT64_C(0xA5A5000000000000)
                   : (uint32_t)(i ^ 0x5A5A0000u);
}

static void check_out(const char *what, const void *keys, const uint64_t *perm, const void *kout,
                      const void *vout, int indices, uint64_t n, unsigned kb, unsigned vb)
{
    for (uint64_t i = 0; i < n; i++) {
        if (kout && load(kout, kb, i) != load(keys, kb, perm[i]))
            ck_abort_msg("%s: key %llu is 0x%llx, want 0x%llx (input %llu)", what,
                         (unsigned long long)i, (unsigned long long)load(kout, kb, i),
                         (unsigned long long)load(keys, kb, perm[i]),
                         (unsigned long long)perm[i]);
        if (vout) {
            uint64_t got = 0, want = indices ? perm[i] : value_of(perm[i], vb);
            memcpy(&got, (const char *)vout + i * vb, vb);
            /* ck_abort only on a mismatch: every ck_assert writes its place to
             * Check's pipe, a system call a value (most of a large case's time) */
            if (got != want)
                ck_abort_msg("%s vb=%u: value %llu is %llu, want %llu", what, vb,
                             (unsigned long long)i, (unsigned long long)got,
                             (unsigned long long)want);
        }
    }
}

/* keys[0, n) under s: in place keys only, in place with u32 and u64 values,
 * out of place, argsort with u32 and u64 indices (with_all: every kind;
 * else in place keys only and with u32 values). */
static void run_all(const void *keys, uint64_t n, const spec *s, int with_all)
{
    const ntype *ty = &types[s->ti];
    const unsigned kb = ty->bytes;
    char what[128];
    snprintf(what, sizeof what, "%s %s n=%llu %s bits %u:%u", g_backend, ty->name,
             (unsigned long long)n, s->descending ? "desc" : "asc", s->lo, s->hi);
    zesort_options o;
    zesort_options_default(&o);
    o.algo = g_algo;
    o.key_type = ty->t;
    o.descending = s->descending;
    o.bit_lo = s->lo;
    o.bit_hi = s->hi;
    uint64_t *perm = permutation(keys, n, s);
    const size_t cap = n ? n : 1;
    void *work = malloc(cap * kb), *vin = malloc(cap * 8), *vals = malloc(cap * 8);
    ck_assert(work && vin && vals);
    memcpy(work, keys, n * kb);
    zesort_status st = zesort_sort(g_ctx, work, NULL, n, &o);
    ck_assert_msg(st == ZESORT_OK, "%s: %s", what, zesort_last_error(g_ctx));
    check_out(what, keys, perm, work, NULL, 0, n, kb, 4);
    for (unsigned vb = 4; vb <= (with_all ? 8u : 4u); vb += 4) {
        o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t v = value_of(i, vb);
            memcpy((char *)vin + i * vb, &v, vb);
        }
        memcpy(work, keys, n * kb);
        memcpy(vals, vin, n * vb);
        st = zesort_sort(g_ctx, work, vals, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s pairs: %s", what, zesort_last_error(g_ctx));
        check_out(what, keys, perm, work, vals, 0, n, kb, vb);
        if (!with_all)
            continue;
        st = zesort_sort_copy(g_ctx, keys, vin, work, vals, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s copy: %s", what, zesort_last_error(g_ctx));
        check_out(what, keys, perm, work, vals, 0, n, kb, vb);
        st = zesort_argsort(g_ctx, keys, vals, work, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s argsort: %s", what, zesort_last_error(g_ctx));
        check_out(what, keys, perm, work, vals, 1, n, kb, vb);
        /* segmented: two segments, each sorted on its own */
        const uint64_t off[3] = {0, n / 3, n};
        memcpy(work, keys, n * kb);
        memcpy(vals, vin, n * vb);
        st = zesort_sort_segments(g_ctx, work, vals, n, off, 2, &o);
        ck_assert_msg(st == ZESORT_OK, "%s segments: %s", what, zesort_last_error(g_ctx));
        for (int g = 0; g < 2; g++) {
            const char *sk = (const char *)keys + off[g] * kb;
            uint64_t *sp = permutation(sk, off[g + 1] - off[g], s);
            for (uint64_t i = 0; i < off[g + 1] - off[g]; i++)
                sp[i] += off[g]; /* positions in the whole array: values and keys */
            check_out(what, keys, sp, (const char *)work + off[g] * kb,
                      (const char *)vals + off[g] * vb, 0, off[g + 1] - off[g], kb, vb);
            free(sp);
        }
    }
    free(perm), free(work), free(vin), free(vals);
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Every pattern of the type `copies` times, shuffled. */
static void *all_patterns(unsigned kb, unsigned copies, uint64_t *n, uint64_t seed)
{
    const uint64_t count = (UINT64_C(1) << (8 * kb)) * copies;
    void *k = malloc(count * kb);
    ck_assert(k);
    for (uint64_t i = 0; i < count; i++) {
        const uint16_t p = (uint16_t)(i & ((1u << (8 * kb)) - 1u));
        memcpy((char *)k + i * kb, &p, kb);
    }
    for (uint64_t i = count - 1; i > 0; i--) { /* Fisher-Yates */
        const uint64_t j = rnd(&seed) % (i + 1);
        uint16_t a = 0, b = 0;
        memcpy(&a, (char *)k + i * kb, kb), memcpy(&b, (char *)k + j * kb, kb);
        memcpy((char *)k + i * kb, &b, kb), memcpy((char *)k + j * kb, &a, kb);
    }
    *n = count;
    return k;
}

/* Where the specials land in an ascending sort of every binary16 pattern:
 * 1023 negative NaNs (0xFFFF first), -inf, the negative numbers, -0, +0,
 * the positive numbers, +inf, 1023 positive NaNs (0x7FFF last). */
static void hand_checks_f16(void)
{
    uint64_t n;
    uint16_t *k = all_patterns(2, 1, &n, 3);
    zesort_options o;
    zesort_options_default(&o);
    o.algo = g_algo;
    o.key_type = ZESORT_KEY_F16;
    ck_assert_int_eq(zesort_sort(g_ctx, k, NULL, n, &o), ZESORT_OK);
    ck_assert_uint_eq(k[0], 0xFFFFu);
    ck_assert_uint_eq(k[1022], 0xFC01u);
    ck_assert_uint_eq(k[1023], 0xFC00u); /* -inf */
    ck_assert_uint_eq(k[1024], 0xFBFFu); /* -65504 */
    ck_assert_uint_eq(k[32767], 0x8000u); /* -0 */
    ck_assert_uint_eq(k[32768], 0x0000u); /* +0 */
    ck_assert_uint_eq(k[32769], 0x0001u); /* the smallest subnormal */
    ck_assert_uint_eq(k[64512], 0x7C00u); /* +inf */
    ck_assert_uint_eq(k[65535], 0x7FFFu);
    o.descending = 1;
    ck_assert_int_eq(zesort_sort(g_ctx, k, NULL, n, &o), ZESORT_OK);
    ck_assert_uint_eq(k[0], 0x7FFFu);
    ck_assert_uint_eq(k[32767], 0x0000u);
    ck_assert_uint_eq(k[32768], 0x8000u);
    ck_assert_uint_eq(k[65535], 0xFFFFu);
    o.key_type = ZESORT_KEY_BF16; /* bfloat16: 127 NaN payloads a sign */
    o.descending = 0;
    ck_assert_int_eq(zesort_sort(g_ctx, k, NULL, n, &o), ZESORT_OK);
    ck_assert_uint_eq(k[0], 0xFFFFu);
    ck_assert_uint_eq(k[127], 0xFF80u); /* -inf */
    ck_assert_uint_eq(k[32767], 0x8000u);
    ck_assert_uint_eq(k[32768], 0x0000u);
    ck_assert_uint_eq(k[65535 - 127], 0x7F80u); /* +inf */
    free(k);
}

/* ZESORT_TEST_QUICK (the sanitizer stage of scripts/test): ascending only in
 * the patterns, no million-key size */
static int quick(void) { return getenv("ZESORT_TEST_QUICK") != NULL; }

START_TEST(patterns)
{
    make_ranks();
    hand_checks_f16();
    for (size_t ti = 0; ti < NTYPES; ti++) {
        uint64_t n;
        /* 16-bit: each pattern once (the radix passes) and, many ties, five
         * times (327680 keys: keys only, the counting sort, cpu_counting.h);
         * 8-bit: 257 times */
        for (unsigned copies = 1; copies <= 5; copies += 4) {
            void *k = all_patterns(types[ti].bytes, types[ti].bytes == 1 ? 257 : copies, &n,
                                   ti + copies);
            for (int desc = 0; desc < (quick() ? 1 : 2); desc++) {
                const spec s = {ti, desc, 0, 0};
                run_all(k, n, &s, 1);
                const spec r = {ti, desc, 2, 8 * types[ti].bytes - 1}; /* ties: stability */
                run_all(k, n, &r, copies == 1);
            }
            free(k);
        }
    }
}
END_TEST

/* ---- sizes and distributions ---- */

enum { D_UNIFORM, D_EQUAL, D_SORTED, D_REVERSED, D_FEW, D_HIGH, D_LOW, D_SPECIAL, D_COUNT };

static void fill(void *keys, const ntype *ty, uint64_t n, int d, uint64_t seed)
{
    static const uint16_t f16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01,
                                   0xFFFF, 0x0001, 0x8001, 0x03FF, 0x83FF};
    static const uint16_t bf16[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81,
                                    0xFFFF, 0x0001, 0x8001, 0x007F, 0x807F};
    const unsigned w = 8 * ty->bytes;
    const uint64_t all = (UINT64_C(1) << w) - 1u, few0 = rnd(&seed), c = rnd(&seed);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t r = rnd(&seed);
        uint64_t v;
        switch (d) {
        case D_UNIFORM: v = r; break;
        case D_EQUAL: v = c; break;
        case D_SORTED: v = i * all / (n ? n : 1); break;
        case D_REVERSED: v = (n - i) * all / (n ? n : 1); break;
        case D_FEW: v = few0 + (r % 7) * 37; break;
        case D_HIGH: v = r & (all - (all >> 2)); break;
        case D_LOW: v = r & 3; break;
        default:
            v = r % 3 == 0                    ? r
                : ty->t == ZESORT_KEY_BF16 ? bf16[(r >> 8) % 12] : f16[(r >> 8) % 12];
        }
        const uint16_t x = (uint16_t)(v & all);
        memcpy((char *)keys + i * ty->bytes, &x, ty->bytes);
    }
}

START_TEST(sizes)
{
    static const uint64_t sz[] = {0,    1,    2,     31,     32,     33,     255,
                                  256,  257,  2053,  4097,   65537,  262147, 1000003};
    make_ranks();
    const ntype *ty = &types[_i];
    const unsigned w = 8 * ty->bytes;
    for (size_t s = 0; s < sizeof sz / sizeof *sz - (quick() ? 1 : 0); s++) {
        void *k = malloc(sz[s] ? sz[s] * ty->bytes : 1);
        ck_assert(k);
        for (int d = 0; d < (sz[s] < 2 ? 1 : D_COUNT); d++) {
            fill(k, ty, sz[s], d, s * 16 + (uint64_t)d);
            const int big = sz[s] > 70000;
            const spec full = {(size_t)_i, d % 2, 0, 0};
            run_all(k, sz[s], &full, !big);
            if (big && d % 3 != 0) /* bit ranges: every distribution below 70000 keys */
                continue;
            const spec range = {(size_t)_i, 1 - d % 2, 1, w - 2};
            run_all(k, sz[s], &range, !big);
            const spec top = {(size_t)_i, d % 2, w - 1, w};
            run_all(k, sz[s], &top, 0);
        }
        free(k);
    }
}
END_TEST

int main(int argc, char **argv)
{
    zesort_backend backend;
    if (argc < 3 || zesort_parse_backend(argv[1], &backend) != 0 ||
        (argc > 3 && zesort_parse_algo(argv[3], &g_algo) != 0)) {
        fprintf(stderr, "usage: test_narrow cpu|auto|level-zero|opencl patterns|sizes "
                        "[cm2|cm4|onesweep|auto]\n");
        return 2;
    }
    g_backend = argv[1];
    if (zesort_create(backend, &g_ctx) != ZESORT_OK) {
        fprintf(stderr, "zesort_create(%s): %s\n", argv[1], zesort_last_error(NULL));
        return 1;
    }
    /* auto under the Level Zero test driver: a device was picked */
    const char *want = getenv("ZESORT_TEST_WANT_BACKEND");
    if (want && strcmp(zesort_backend_name(zesort_context_backend(g_ctx)), want) != 0) {
        fprintf(stderr, "auto picked %s, not %s\n",
                zesort_backend_name(zesort_context_backend(g_ctx)), want);
        return 1;
    }
    Suite *s = suite_create("narrow");
    TCase *tc = tcase_create(argv[2]);
    tcase_set_timeout(tc, 900);
    if (strcmp(argv[2], "sizes") == 0)
        tcase_add_loop_test(tc, sizes, 0, (int)NTYPES);
    else
        tcase_add_test(tc, patterns);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    zesort_destroy(g_ctx);
    return failed ? 1 : 0;
}
