/*
 * test_cpu_sort.c — the C fallback (src/backends/cpu/backend_cpu.c) on its own: every key
 * type, keys and pairs, both orders, bit ranges, sizes around its digit and
 * thread blocks, distributions that make passes constant, 1, 2 and 7 threads
 * (7 > cores: blocks of odd sizes) and every digit width, against a stable
 * reference: qsort of (bits [lo, hi) of the key's rank, input index), the
 * rank computed arithmetically (signed: value - MIN; floats: IEEE totalOrder
 * by sign and magnitude), not with the library's bit flips. Values are the
 * input indices, so a scatter that breaks stability or mixes up blocks fails.
 * Every strategy runs: the top digit first then buckets in cache (where the
 * keys spread well enough), LSD passes over the whole input only, and for
 * keys-only sorts by all bits partitions then vqsorted ranges (cpu_vq_sort.c).
 *
 *   test_cpu_sort small    matrix up to 4099 keys, zs_cpu_sort_with forced to
 *                          1, 2, 7 threads (no minimum block)
 *          large           65537 .. 4M+ keys through zesort_sort on a cpu
 *                          context, ZESORT_THREADS = 1, 2, 7
 *          config          digit widths 1..11, fewer threads created than
 *                          wanted, partitions and vqsorted ranges over team sizes
 *                          1..9, ZESORT_THREADS parsing, hand-made float
 *                          order, out of host memory
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/cpu/backend_cpu.h"
#include "backends/cpu/cpu_hwy_vqsort.h"
#include "backends/cpu/cpu_threads.h"
#include "backends/cpu/cpu_vq_sort.h"
#include "common/test_hooks.h"
#include "test_data.h"
#include "zesort.h"

typedef struct ktype {
    const char *name;
    zesort_key_type api;
    unsigned bytes;
    unsigned kind; /* 0 unsigned, 1 signed, 2 float (the kernels' key_flags & 3) */
} ktype;

static const ktype types[] = {
    {"u32", ZESORT_KEY_U32, 4, 0}, {"i32", ZESORT_KEY_I32, 4, 1}, {"f32", ZESORT_KEY_F32, 4, 2},
    {"u64", ZESORT_KEY_U64, 8, 0}, {"i64", ZESORT_KEY_I64, 8, 1}, {"f64", ZESORT_KEY_F64, 8, 2},
    {"u8", ZESORT_KEY_U8, 1, 0},    {"i8", ZESORT_KEY_I8, 1, 1},    {"u16", ZESORT_KEY_U16, 2, 0},
    {"i16", ZESORT_KEY_I16, 2, 1},  {"f16", ZESORT_KEY_F16, 2, 2},  {"bf16", ZESORT_KEY_BF16, 2, 2},
};
#define NTYPES (sizeof types / sizeof types[0])

enum { D_UNIFORM, D_EQUAL, D_SORTED, D_REVERSED, D_FEW, D_HIGH, D_LOW, D_SPECIAL, D_COUNT };
static const char *const dist_names[D_COUNT] = {"uniform", "all-equal", "sorted",  "reversed",
                                                "few-unique", "high-bits", "low-bits", "special"};

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t wmask(unsigned w) { return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

static uint64_t get_key(const void *keys, unsigned bytes, uint64_t i)
{
    switch (bytes) {
    case 1: return ((const uint8_t *)keys)[i];
    case 2: return ((const uint16_t *)keys)[i];
    case 4: return ((const uint32_t *)keys)[i];
    default: return ((const uint64_t *)keys)[i];
    }
}

static void set_key(void *keys, unsigned bytes, uint64_t i, uint64_t v)
{
    switch (bytes) {
    case 1: ((uint8_t *)keys)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)keys)[i] = (uint16_t)v; break;
    case 4: ((uint32_t *)keys)[i] = (uint32_t)v; break;
    default: ((uint64_t *)keys)[i] = v; break;
    }
}

/* Special float values (and their integer patterns for the other kinds):
 * +-0, +-inf, quiet and signalling NaNs of both signs, denormals, +-1. */
static uint64_t special(const ktype *t, uint64_t r)
{
    static const uint32_t f32[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                   0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu,
                                   0x00000001u, 0x80000001u, 0x3F800000u, 0xBF800000u};
    static const uint64_t f64[] = {0, UINT64_C(0x8000000000000000), UINT64_C(0x7FF0000000000000),
                                   UINT64_C(0xFFF0000000000000), UINT64_C(0x7FF8000000000000),
                                   UINT64_C(0xFFF8000000000000), UINT64_C(0x7FF0000000000001),
                                   UINT64_MAX, 1, UINT64_C(0x8000000000000001),
                                   UINT64_C(0x3FF0000000000000), UINT64_C(0xBFF0000000000000)};
    /* binary16 and bfloat16: the same values */
    static const uint16_t f16[] = {0x0000u, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE00u,
                                   0x7C01u, 0xFFFFu, 0x0001u, 0x8001u, 0x3C00u, 0xBC00u};
    static const uint16_t bf16[] = {0x0000u, 0x8000u, 0x7F80u, 0xFF80u, 0x7FC0u, 0xFFC0u,
                                    0x7F81u, 0xFFFFu, 0x0001u, 0x8001u, 0x3F80u, 0xBF80u};
    if (r % 3 == 0) /* a random key between the specials */
        return r >> 7;
    if (t->api == ZESORT_KEY_BF16)
        return bf16[(r >> 8) % 12];
    if (t->bytes <= 2)
        return f16[(r >> 8) % 12];
    return t->bytes == 8 ? f64[(r >> 8) % 12] : f32[(r >> 8) % 12];
}

static void fill(void *keys, const ktype *t, uint64_t n, int d, uint64_t seed)
{
    const unsigned w = t->bytes * 8;
    uint64_t s = seed * 7919 + n * 31 + (uint64_t)d, few[7];
    for (int i = 0; i < 7; i++)
        few[i] = splitmix(&s);
    const uint64_t c = splitmix(&s), step = wmask(w) / (n ? n : 1);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t r = splitmix(&s);
        uint64_t v;
        switch (d) {
        case D_UNIFORM: v = r; break;
        case D_EQUAL: v = c; break;
        case D_SORTED: v = i * step; break;
        case D_REVERSED: v = (n - 1 - i) * step; break;
        case D_FEW: v = few[r % 7]; break;
        case D_HIGH: v = (r & wmask(w)) & ~wmask(w - 8); break;
        case D_LOW: v = r & 0xFF; break;
        default: v = special(t, r); break;
        }
        set_key(keys, t->bytes, i, v & wmask(w));
    }
}

/* The key's rank among all keys of its type, by arithmetic (see the top). */
static uint64_t rank_of(const ktype *t, uint64_t raw)
{
    const unsigned w = t->bytes * 8;
    const uint64_t sign = UINT64_C(1) << (w - 1), all = wmask(w);
    if (t->kind == 1)
        return (raw + sign) & all;
    if (t->kind == 2) {
        const uint64_t mag = raw & (sign - 1);
        return (raw & sign) ? (sign - 1) - mag : sign + mag;
    }
    return raw;
}

typedef struct rec {
    uint64_t sub; /* bits [lo, hi) of the rank, of its complement when descending */
    uint64_t index;
} rec;

static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->sub != y->sub)
        return x->sub < y->sub ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The expected permutation: perm[i] = input index of output position i. */
static uint64_t *reference(const void *keys, const ktype *t, uint64_t n, int desc, unsigned lo,
                           unsigned hi)
{
    rec *r = malloc((n ? n : 1) * sizeof *r);
    uint64_t *perm = malloc((n ? n : 1) * sizeof *perm);
    ck_assert(r && perm);
    const uint64_t m = wmask(hi - lo);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t sub = (rank_of(t, get_key(keys, t->bytes, i)) >> lo) & m;
        r[i] = (rec){desc ? m - sub : sub, i};
    }
    qsort(r, n, sizeof *r, cmp_rec);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = r[i].index;
    free(r);
    return perm;
}

/* Checks keys (and values = input indices) against the reference. */
static void check_sorted(const char *what, const void *in, const void *out, const uint32_t *vals,
                         const ktype *t, uint64_t n, int desc, unsigned lo, unsigned hi)
{
    uint64_t *perm = reference(in, t, n, desc, lo, hi);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t want = get_key(in, t->bytes, perm[i]), got = get_key(out, t->bytes, i);
        if (want != got || (vals && vals[i] != perm[i])) {
            uint64_t p = perm[i];
            free(perm);
            ck_abort_msg("%s: position %llu of %llu: key 0x%llx value %lld, expected key 0x%llx "
                         "value %llu", what, (unsigned long long)i, (unsigned long long)n,
                         (unsigned long long)got, vals ? (long long)vals[i] : -1LL,
                         (unsigned long long)want, (unsigned long long)p);
        }
    }
    free(perm);
}

/* The bit ranges tried for a w-bit key: everything, one byte, a range
 * across digit boundaries, the top bits, one bit. */
static unsigned ranges(unsigned w, unsigned lo[6], unsigned hi[6])
{
    if (w <= 16) { /* everything, the low half, across the middle, the top bits, one bit */
        const unsigned nl[] = {0, 0, 3, w - 5, w - 1}, nh[] = {w, w / 2, w - 3, w, w};
        for (unsigned i = 0; i < 5; i++)
            lo[i] = nl[i], hi[i] = nh[i];
        return 5;
    }
    const unsigned l[] = {0, 0, 3, w - 12, w - 1, 20}, h[] = {w, 8, 17, w, w, w - 3};
    const unsigned count = w == 64 ? 6 : 5;
    for (unsigned i = 0; i < count; i++)
        lo[i] = l[i], hi[i] = h[i];
    return count;
}

/* One sort with zs_cpu_sort_with and its check. */
static void one(const ktype *t, uint64_t n, int d, int desc, int pairs, unsigned lo, unsigned hi,
                const zs_cpu_config *cfg, uint64_t seed)
{
    uint32_t *in = td_alloc(n * 2), *out = td_alloc(n * 2), *vals = pairs ? td_alloc(n) : NULL;
    fill(in, t, n, d, seed);
    memcpy(out, in, n * t->bytes);
    for (uint64_t i = 0; pairs && i < n; i++)
        vals[i] = (uint32_t)i;
    const uint32_t flags = t->kind | (desc ? 4u : 0u);
    zesort_status st = zs_cpu_sort_with(out, vals, n, t->bytes, 4, flags, lo, hi, cfg);
    char what[192];
    snprintf(what, sizeof what,
             "%s %s n=%llu %s %s bits [%u,%u) threads %u create %u digit %u msd from %llu vqsort %d",
             t->name, dist_names[d], (unsigned long long)n, desc ? "desc" : "asc",
             pairs ? "pairs" : "keys", lo, hi, cfg->threads, cfg->create_limit, cfg->digit_bits,
             (unsigned long long)cfg->msd_min_keys, cfg->vqsort);
    ck_assert_msg(st == ZESORT_OK, "%s: status %d", what, (int)st);
    check_sorted(what, in, out, vals, t, n, desc, lo, hi);
    td_free(in), td_free(out), td_free(vals);
}

static unsigned g_threads = 1; /* small: the thread count of this run */

START_TEST(small_matrix)
{
    static const uint64_t sizes[] = {0, 1, 2, 3, 31, 255, 256, 257, 1009, 2048, 4099};
    zs_cpu_config cfg;
    zs_cpu_config_default(&cfg);
    cfg.threads = g_threads;
    cfg.min_keys_per_thread = 0; /* every thread gets a block, even of 0 or 1 key */
    const ktype *t = &types[_i];
    unsigned lo[6], hi[6];
    const unsigned nr = ranges(t->bytes * 8, lo, hi);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int d = 0; d < D_COUNT; d++)
            for (unsigned r = 0; r < nr; r++)
                for (int desc = 0; desc < 2; desc++)
                    for (int pairs = 0; pairs < 2; pairs++) {
                        /* the full matrix on every range would be slow; the
                         * larger sizes take the full range and one other */
                        if (sizes[s] > 300 && r > 1 && (r + (unsigned)d) % 3 != 0)
                            continue;
                        /* both strategies: top digit first (buckets in
                         * cache) where the data allows, and LSD only */
                        cfg.vqsort = 0;
                        for (int msd = 0; msd < 2; msd++) {
                            cfg.msd_min_keys = msd ? 0 : UINT64_MAX;
                            one(t, sizes[s], d, desc, pairs, lo[r], hi[r], &cfg, s + 1);
                        }
                        /* keys only, all bits: partitions then vqsorted ranges
                         * (7 threads: groups of 4 and 3 split again) */
                        if (!pairs && r == 0) {
                            cfg.vqsort = 1;
                            one(t, sizes[s], d, desc, pairs, lo[r], hi[r], &cfg, s + 1);
                        }
                    }
}
END_TEST

/* Through the public API on a cpu context, ZESORT_THREADS as set. */
static void api_one(zesort_context *ctx, const ktype *t, uint64_t n, int d, int desc, int pairs,
                    unsigned lo, unsigned hi)
{
    uint32_t *in = td_alloc(n * 2), *out = td_alloc(n * 2), *vals = pairs ? td_alloc(n) : NULL;
    fill(in, t, n, d, 99);
    memcpy(out, in, n * t->bytes);
    for (uint64_t i = 0; pairs && i < n; i++)
        vals[i] = (uint32_t)i;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t->api;
    o.descending = desc;
    o.bit_lo = lo;
    o.bit_hi = hi;
    char what[160];
    snprintf(what, sizeof what, "api %s %s n=%llu %s %s bits [%u,%u) ZESORT_THREADS=%s", t->name,
             dist_names[d], (unsigned long long)n, desc ? "desc" : "asc", pairs ? "pairs" : "keys",
             lo, hi, getenv("ZESORT_THREADS"));
    zesort_status st = zesort_sort(ctx, out, vals, n, &o);
    ck_assert_msg(st == ZESORT_OK, "%s: %s", what, zesort_last_error(ctx));
    check_sorted(what, in, out, vals, t, n, desc, lo, hi);
    td_free(in), td_free(out), td_free(vals);
}

START_TEST(large_api)
{
    static const char *const threads[] = {"1", "2", "7"};
    zesort_context *ctx = NULL;
    ck_assert(zesort_create(ZESORT_BACKEND_CPU, &ctx) == ZESORT_OK);
    const int quick = getenv("ZESORT_TEST_QUICK") != NULL;
    for (int th = 0; th < 3; th++) {
        setenv("ZESORT_THREADS", threads[th], 1);
        for (size_t ti = 0; ti < NTYPES; ti++) {
            const ktype *t = &types[ti];
            const unsigned w = t->bytes * 8;
            api_one(ctx, t, 65537, D_UNIFORM, ti % 2, 1, 0, w);
            api_one(ctx, t, 100003, D_FEW, 1, 1, 0, w);
            api_one(ctx, t, 262147, t->kind == 2 ? D_SPECIAL : D_HIGH, 0, 1, 0, w);
            /* quick: one sort of a million keys a type and thread count
             * (7 threads take 917504 keys), not three */
            if (!quick) {
                api_one(ctx, t, 1 << 20, D_UNIFORM, 0, 1, 0, w);
                api_one(ctx, t, 1000003, D_LOW, 1, 0, 0, w);
            }
            api_one(ctx, t, 1000003, D_UNIFORM, 0, 1, w > 16 ? 5 : 1, w > 16 ? w - 9 : w - 1);
        }
        /* one multi-million sort per thread count */
        api_one(ctx, &types[th], quick ? 2000003 : 4194319, D_UNIFORM, th == 1, 1, 0,
                types[th].bytes * 8);
        /* keys only, all bits, each strategy forced (the default measures) */
        for (int vq = 0; vq < 2; vq++) {
            zs_test_cpu_vqsort(vq);
            for (size_t ti = 0; ti < NTYPES; ti++) {
                const unsigned w = types[ti].bytes * 8;
                api_one(ctx, &types[ti], quick ? 300007 : 1000003,
                        types[ti].kind == 2 ? D_SPECIAL : D_UNIFORM, (int)ti % 2, 0, 0, w);
                api_one(ctx, &types[ti], 300007, D_FEW, 1 - (int)ti % 2, 0, 0, w);
            }
            zs_test_cpu_vqsort(-1);
        }
    }
    unsetenv("ZESORT_THREADS");
    zesort_destroy(ctx);
}
END_TEST

START_TEST(digit_widths)
{
    /* every width: pass counts odd and even (the final copy), narrow last digits */
    for (unsigned bits = 1; bits <= ZS_CPU_MAX_DIGIT_BITS; bits++)
        for (size_t ti = 0; ti < NTYPES; ti++) {
            zs_cpu_config cfg;
            zs_cpu_config_default(&cfg);
            cfg.threads = 3;
            cfg.min_keys_per_thread = 0;
            cfg.digit_bits = bits;
            cfg.small_keys = 0; /* 5003 keys, yet every width */
            cfg.msd_min_keys = bits % 3 != 0 ? 0 : UINT64_MAX;
            const unsigned w = types[ti].bytes * 8;
            one(&types[ti], 5003, D_UNIFORM, bits % 2, 1, 0, w, &cfg, bits);
            one(&types[ti], 5003, D_FEW, 0, 1, 2, w - 5, &cfg, bits);
        }
}
END_TEST

START_TEST(vqsort_partitions)
{
    /* team sizes 1..7 and 9: split rounds 0 to 4, groups split unevenly;
     * sizes below the team size (empty blocks) and across it */
    static const unsigned teams[] = {1, 2, 3, 4, 5, 7, 9};
    static const uint64_t sizes[] = {0, 1, 2, 3, 8, 31, 257, 4099, 65537};
    if (!zs_vq_target()) {
        printf("vqsort_partitions: no vqsort here (no Highway, or no AVX2): radix only\n");
        ck_assert_int_eq(zs_cpu_vq_faster(4), 0);
        return;
    }
    for (size_t ti = 0; ti < NTYPES; ti++)
        for (size_t k = 0; k < sizeof teams / sizeof teams[0]; k++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                zs_cpu_config cfg;
                zs_cpu_config_default(&cfg);
                cfg.threads = teams[k];
                cfg.min_keys_per_thread = 0;
                cfg.vqsort = 1;
                const int d = (int)((s + k) % D_COUNT);
                const unsigned w = types[ti].bytes * 8;
                one(&types[ti], sizes[s], d, (int)(s + ti) % 2, 0, 0, w, &cfg, s + k);
                one(&types[ti], sizes[s], D_SPECIAL, (int)(s + ti + 1) % 2, 0, 0, w, &cfg, s);
            }
    /* the measurement: 0 or 1, the same every time */
    for (unsigned kb = 4; kb <= 8; kb += 4) {
        const int first = zs_cpu_vq_faster(kb);
        ck_assert(first == 0 || first == 1);
        ck_assert_int_eq(zs_cpu_vq_faster(kb), first);
        printf("vqsort (%s) measured %s than the radix passes for %u-byte keys\n", zs_vq_target(),
               first ? "faster" : "slower", kb);
    }
}
END_TEST

START_TEST(fewer_threads_created)
{
    /* thread creation "fails" after create_limit threads: a smaller team */
    for (unsigned limit = 0; limit < 4; limit++) {
        zs_cpu_config cfg;
        zs_cpu_config_default(&cfg);
        cfg.threads = 6;
        cfg.create_limit = limit;
        cfg.min_keys_per_thread = 0;
        cfg.msd_min_keys = limit % 2 ? 0 : UINT64_MAX; /* both strategies */
        one(&types[0], 30011, D_UNIFORM, 0, 1, 0, 32, &cfg, limit);
        one(&types[5], 30011, D_SPECIAL, 1, 1, 0, 64, &cfg, limit);
    }
    zs_team *team = zs_team_start(5, 2);
    ck_assert_uint_eq(zs_team_size(team), 3);
    zs_team_stop(team);
    ck_assert_ptr_null(zs_team_start(5, 0));
    ck_assert_ptr_null(zs_team_start(1, 8));
}
END_TEST

START_TEST(threads_env)
{
    static const struct {
        const char *value;
        unsigned want; /* 0: the default */
    } cases[] = {{"1", 1}, {"2", 2}, {"7", 7}, {"256", 256}, {"0", 0}, {"-3", 0}, {"257", 0},
                 {"abc", 0}, {"3x", 0}, {"", 0}, {" 4", 0}, {"99999999999999999999", 0}};
    unsetenv("ZESORT_THREADS");
    const unsigned def = zs_cpu_thread_count();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ck_assert_uint_eq(def, cores < 1 ? 1u : (unsigned)cores);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("ZESORT_THREADS", cases[i].value, 1);
        const unsigned got = zs_cpu_thread_count();
        ck_assert_msg(got == (cases[i].want ? cases[i].want : def),
                      "ZESORT_THREADS='%s' gave %u threads", cases[i].value, got);
    }
    unsetenv("ZESORT_THREADS");
}
END_TEST

START_TEST(float_order_by_hand)
{
    /* README: [+0.0, -1.0, NaN, -0.0, -inf] sorts to [-inf, -1.0, -0.0, +0.0, NaN] */
    float k[5] = {0.0f, -1.0f, NAN, -0.0f, -INFINITY};
    uint32_t v[5] = {0, 1, 2, 3, 4};
    zs_cpu_config cfg;
    zs_cpu_config_default(&cfg);
    cfg.threads = 2;
    cfg.min_keys_per_thread = 0;
    ck_assert(zs_cpu_sort_with(k, v, 5, 4, 4, 2, 0, 32, &cfg) == ZESORT_OK);
    static const uint32_t want_v[5] = {4, 1, 3, 0, 2};
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(v[i], want_v[i]);
    ck_assert(isinf(k[0]) && k[0] < 0 && k[1] == -1.0f && signbit(k[2]) && k[2] == 0.0f &&
              !signbit(k[3]) && isnan(k[4]));
    /* descending: the reverse */
    ck_assert(zs_cpu_sort_with(k, v, 5, 4, 4, 2 | 4, 0, 32, &cfg) == ZESORT_OK);
    static const uint32_t want_d[5] = {2, 0, 3, 1, 4};
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(v[i], want_d[i]);
    /* more keys than UINT32_MAX: refused, untouched */
    ck_assert(zs_cpu_sort_with(k, v, UINT64_C(1) << 32, 4, 4, 0, 0, 32, &cfg) ==
              ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(v[0], 2);
}
END_TEST

START_TEST(out_of_memory)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("out_of_memory: skipped under AddressSanitizer (address-space limit)\n");
    return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    printf("out_of_memory: skipped under AddressSanitizer (address-space limit)\n");
    return;
#endif
#endif
    /* a child process with its address space capped just above what it
     * holds: the sort cannot have its temporary copy */
    const uint64_t n = UINT64_C(8) << 20;
    uint32_t *k = td_alloc(n), *v = td_alloc(n);
    for (uint64_t i = 0; i < n; i++)
        k[i] = (uint32_t)(n - i), v[i] = (uint32_t)i;
    fflush(stdout);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        FILE *f = fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (!f || fscanf(f, "%lu", &pages) != 1)
            _exit(3);
        fclose(f);
        struct rlimit rl = {.rlim_cur = pages * (unsigned long)sysconf(_SC_PAGESIZE) + (16u << 20)};
        rl.rlim_max = rl.rlim_cur;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(4);
        zs_cpu_config cfg;
        zs_cpu_config_default(&cfg);
        cfg.threads = 2;
        zesort_status st = zs_cpu_sort_with(k, v, n, 4, 4, 0, 0, 32, &cfg);
        if (st != ZESORT_ERROR_OUT_OF_HOST_MEMORY)
            _exit(5);
        for (uint64_t i = 0; i < n; i++)
            if (k[i] != (uint32_t)(n - i) || v[i] != (uint32_t)i)
                _exit(6);
        /* keys only by vqsort's partitions: no temporary copy, sorted in place */
        cfg.vqsort = 1;
        if (zs_vq_target()) {
            if (zs_cpu_sort_with(k, NULL, n, 4, 0, 0, 0, 32, &cfg) != ZESORT_OK)
                _exit(7);
            for (uint64_t i = 0; i < n; i++)
                if (k[i] != (uint32_t)(i + 1))
                    _exit(8);
        }
        _exit(0);
    }
    int status = 0;
    ck_assert(waitpid(pid, &status, 0) == pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child: status %d (5: not OUT_OF_HOST_MEMORY, 6: arrays changed, 7/8: the "
                  "in-place vqsort path failed / missorted)", status);
    td_free(k), td_free(v);
}
END_TEST

/* Issue 23: 2^32 + 2^20 u32 keys (16 GiB) through the API on the C
 * fallback: beyond the radix passes' 32-bit counts, keys only by all bits
 * sort in place by the partitions and vqsort (64-bit counts, no copy), so
 * the sort fits a 24 GiB host. Checked sorted and, by a sum and a xor of
 * the keys, a permutation of the input. */
START_TEST(beyond_2_32)
{
    const uint64_t n = (UINT64_C(1) << 32) + (UINT64_C(1) << 20);
    if (!zs_vq_target()) {
        printf("beyond_2_32: no vqsort here: the fallback cannot sort %llu keys in place\n",
               (unsigned long long)n);
        return;
    }
    uint32_t *k = malloc(n * sizeof *k);
    ck_assert_msg(k != NULL, "no 16 GiB for the keys");
    uint64_t s = 0x9E3779B97F4A7C15u, sum = 0, x = 0;
    for (uint64_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        k[i] = (uint32_t)(s >> 32);
        sum += k[i], x ^= k[i];
    }
    zesort_context *ctx = NULL;
    ck_assert(zesort_create(ZESORT_BACKEND_CPU, &ctx) == ZESORT_OK);
    zesort_split_info info;
    ck_assert_int_eq(zesort_check_split(ctx, n, 0, NULL, &info), ZESORT_OK);
    ck_assert_uint_eq(info.parts, 1); /* in one go, in place */
    zesort_status st = zesort_sort(ctx, k, NULL, n, NULL);
    ck_assert_msg(st == ZESORT_OK, "%s", zesort_last_error(ctx));
    for (uint64_t i = 0; i < n; i++) {
        if (i && k[i - 1] > k[i])
            ck_abort_msg("keys %llu and %llu out of order", (unsigned long long)i - 1,
                         (unsigned long long)i);
        sum -= k[i], x ^= k[i];
    }
    ck_assert_msg(sum == 0 && x == 0, "the sorted keys are not the input's");
    zesort_destroy(ctx);
    free(k);
}
END_TEST

static int usage(void)
{
    fprintf(stderr, "usage: test_cpu_sort small THREADS | large | config\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    Suite *s = suite_create("cpu_sort");
    TCase *tc = tcase_create(argv[1]);
    tcase_set_timeout(tc, 1200);
    if (strcmp(argv[1], "small") == 0 && argc == 3) {
        g_threads = (unsigned)atoi(argv[2]);
        if (g_threads < 1)
            return usage();
        tcase_add_loop_test(tc, small_matrix, 0, (int)NTYPES);
    } else if (strcmp(argv[1], "large") == 0) {
        tcase_add_test(tc, large_api);
    } else if (strcmp(argv[1], "beyond-2-32") == 0) {
        tcase_set_timeout(tc, 3600);
        tcase_add_test(tc, beyond_2_32);
    } else if (strcmp(argv[1], "config") == 0) {
        tcase_add_test(tc, digit_widths);
        tcase_add_test(tc, fewer_threads_created);
        tcase_add_test(tc, vqsort_partitions);
        tcase_add_test(tc, threads_env);
        tcase_add_test(tc, float_order_by_hand);
        tcase_add_test(tc, out_of_memory);
    } else {
        return usage();
    }
    suite_add_tcase(s, tc);
    return td_run_suite(s);
}
