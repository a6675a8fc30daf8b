/*
 * test_topk.c — zesort_topk and zesort_topk_segments (issue 38) on one
 * backend, against an oracle: the stable permutation by a qsort of
 * (ordered key bits, input position) (tests/common/sort_oracle.h), its
 * first k.
 *
 *   test_topk BACKEND PART
 *     BACKEND cpu | opencl | level-zero
 *     PART    matrix (every key type x distribution x size x k x order x bit
 *             range, keys / values / indices outputs) | large (~1M keys) |
 *             segments (every offsets pattern of the segmented tests, k
 *             below, at and above the segments' lengths) | errors
 *
 * Every case checks the inputs unchanged byte for byte and the outputs'
 * bytes past min(k, n) (a row's past its segment's length) untouched. On a
 * device backend every zesort_topk whose candidates' room (zs_topk_room) is
 * below n must have run the device's radix select (zs_test_selects), and
 * none other; the matrix sets the room's slack to 1 key there
 * (zs_test_topk_slack), so that its small sizes select too: several passes,
 * the cut among ties at the boundary, NaNs and +-0, every key type.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zesort.h>

#include "common/test_hooks.h"
#include "plan/plan_topk.h"
#include "segment_offsets.h"
#include "sort_oracle.h"

static const char *g_backend = "cpu";
static zesort_context *g_ctx;

enum { D_RANDOM, D_FEW, D_TOP2, D_EQUAL, D_SORTED, D_REVERSED, D_LOW, D_SPECIAL, D_COUNT };

/* n keys of type t by distribution d (seeded). D_SPECIAL: for floats NaNs
 * of both signs, +-0, +-inf and a few numbers; for integers extremes. */
static void make_keys(void *keys, uint64_t n, zesort_key_type t, int d, uint64_t seed)
{
    const unsigned kb = oracle_key_bytes(t);
    if (d <= D_TOP2) {
        oracle_make_keys(keys, n, t, d, seed);
        return;
    }
    uint64_t x = seed * 2654435761u + 11;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t k = 0;
        if (d == D_EQUAL)
            k = 0x1234567u;
        else if (d == D_SORTED)
            k = i;
        else if (d == D_REVERSED)
            k = n - i;
        else if (d == D_LOW)
            k = x % 256;
        else if (kb <= 2) { /* f16 / bf16: NaNs of both signs, +-0, +-inf, 1, -1 */
            static const uint16_t h[] = {0x7e00, 0xfe01, 0x8000, 0, 0x7c00, 0xfc00, 0x3c00, 0xbc00};
            static const uint16_t b[] = {0x7fc0, 0xffc1, 0x8000, 0, 0x7f80, 0xff80, 0x3f80, 0xbf80};
            k = t == ZESORT_KEY_F16    ? h[x % 8]
                : t == ZESORT_KEY_BF16 ? b[x % 8]
                                       : (x % 3 == 0 ? UINT64_C(1) << (8 * kb - 1) : x % 4);
        } else if (kb == 4) {
            static const uint32_t f[] = {0x7fc00000u, 0xffc00001u, 0x80000000u, 0, 0x7f800000u,
                                         0xff800000u, 0x3f800000u, 0xbf800000u, 0x7fc00002u};
            k = t == ZESORT_KEY_F32 ? f[x % 9] : (x % 3 == 0 ? 0x80000000u : x % 3 == 1 ? 0x7fffffffu : x % 4);
        } else {
            static const uint64_t f[] = {UINT64_C(0x7ff8000000000000), UINT64_C(0xfff8000000000001),
                                         UINT64_C(0x8000000000000000), 0,
                                         UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000),
                                         UINT64_C(0x3ff0000000000000), UINT64_C(0xbff0000000000000),
                                         UINT64_C(0x7ff8000000000002)};
            k = t == ZESORT_KEY_F64 ? f[x % 9] : (x % 3 == 0 ? UINT64_C(1) << 63 : x % 4);
        }
        memcpy((char *)keys + i * kb, &k, kb);
    }
}

typedef struct tcase {
    uint64_t n, k;
    zesort_key_type t;
    int desc, dist;
    unsigned lo, hi, vb;
    int out; /* 0 keys only, 1 keys + values, 2 indices only, 3 keys + values + indices */
} tcase;

#define CANARY 0xC5

/* Whether bytes [b, e) of p still hold the canary. */
static int untouched(const char *p, uint64_t b, uint64_t e)
{
    for (uint64_t i = b; i < e; i++)
        if ((unsigned char)p[i] != CANARY)
            return 0;
    return 1;
}

/* Checks one top-k of c's keys (orig, values vals) against perm. */
static void check_topk(const tcase *c, const char *what, const void *orig, const uint64_t *perm,
                       const char *ko, const char *vo, const char *io, uint64_t cap)
{
    const unsigned kb = oracle_key_bytes(c->t);
    const uint64_t m = c->k < c->n ? c->k : c->n;
    uint64_t bad = oracle_check(orig, perm, ko, vo, 0, m, kb, c->vb);
    ck_assert_msg(!bad, "%s: keys/values wrong at %llu", what, (unsigned long long)bad - 1);
    bad = oracle_check(orig, perm, NULL, io, 1, m, kb, c->vb);
    ck_assert_msg(!bad, "%s: indices wrong at %llu", what, (unsigned long long)bad - 1);
    ck_assert_msg(!ko || untouched(ko, m * kb, cap * kb), "%s: keys_out written past k", what);
    ck_assert_msg(!vo || untouched(vo, m * c->vb, cap * c->vb), "%s: values_out written past k",
                  what);
    ck_assert_msg(!io || untouched(io, m * c->vb, cap * c->vb), "%s: indices_out written past k",
                  what);
}

/* One zesort_topk of keys `orig` (n of them) for every k of ks (count of them). */
static void run_ks(tcase c, const uint64_t *ks, unsigned nks)
{
    const unsigned kb = oracle_key_bytes(c.t);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = c.t, o.descending = c.desc, o.bit_lo = c.lo, o.bit_hi = c.hi;
    o.value_type = c.vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    /* odd n: onesweep sorts the candidates (the select runs on a device
     * where the room is short of n); even n: AUTO, the one launch of the
     * small sort up to its limit, no select */
    o.algo = c.n % 2 ? ZESORT_ALGO_ONESWEEP : ZESORT_ALGO_AUTO;
    zesort_context_info info = {.size = sizeof info};
    ck_assert_int_eq(zesort_context_query(g_ctx, &info), ZESORT_OK);
    const size_t n1 = c.n ? c.n : 1, cap = n1 + 4;
    char *keys = malloc(n1 * kb), *orig = malloc(n1 * kb), *vals = malloc(n1 * 8);
    char *vcopy = malloc(n1 * 8);
    char *ko = malloc(cap * kb), *vo = malloc(cap * 8), *io = malloc(cap * 8);
    ck_assert(keys && orig && vals && vcopy && ko && vo && io);
    make_keys(orig, c.n, c.t, c.dist, c.n * 31 + (uint64_t)c.t * 7 + (uint64_t)c.dist);
    memcpy(keys, orig, c.n * kb);
    for (uint64_t i = 0; i < c.n; i++) {
        const uint64_t v = oracle_value(i, c.vb);
        memcpy(vals + i * c.vb, &v, c.vb);
    }
    memcpy(vcopy, vals, c.n * c.vb);
    uint64_t *perm = oracle_permutation(orig, c.n, &o);
    ck_assert(perm);
    for (unsigned ki = 0; ki < nks; ki++) {
        c.k = ks[ki];
        char what[200];
        snprintf(what, sizeof what, "%s n=%llu k=%llu type=%d desc=%d dist=%d bits=%u:%u vb=%u out=%d",
                 g_backend, (unsigned long long)c.n, (unsigned long long)c.k, (int)c.t, c.desc,
                 c.dist, c.lo, c.hi, c.vb, c.out);
        memset(ko, CANARY, cap * kb), memset(vo, CANARY, cap * 8), memset(io, CANARY, cap * 8);
        const int wk = c.out != 2, wv = c.out == 1 || c.out == 3, wi = c.out >= 2;
        const unsigned long selects = zs_test_selects();
        zesort_status st = zesort_topk(g_ctx, keys, wv ? vals : NULL, wk ? ko : NULL,
                                       wv ? vo : NULL, wi ? io : NULL, c.n, c.k, &o);
        ck_assert_msg(st == ZESORT_OK, "%s: %s: %s", what, zesort_status_name(st),
                      zesort_last_error(g_ctx));
        const uint64_t small_max = kb == 8 || wv || wi ? info.small_max_wide : info.small_max;
        const int small = o.algo == ZESORT_ALGO_AUTO && c.n <= small_max;
        const int select = strcmp(g_backend, "cpu") != 0 && c.n > 0 && c.k > 0 &&
                           zs_topk_room(c.n, c.k) < c.n && !small;
        ck_assert_msg(zs_test_selects() - selects == (unsigned long)select,
                      "%s: the device select %s", what, select ? "did not run" : "ran");
        zesort_context_info after = {.size = sizeof after};
        ck_assert_int_eq(zesort_context_query(g_ctx, &after), ZESORT_OK);
        ck_assert_msg(!small || !info.small_max || c.n == 0 || c.k == 0 ||
                          after.last_launches == 1,
                      "%s: %llu launches, the small top-k makes one", what,
                      (unsigned long long)after.last_launches);
        ck_assert_msg(memcmp(keys, orig, c.n * kb) == 0, "%s: keys written", what);
        ck_assert_msg(memcmp(vals, vcopy, c.n * c.vb) == 0, "%s: values_in written", what);
        check_topk(&c, what, orig, perm, wk ? ko : NULL, wv ? vo : NULL, wi ? io : NULL, cap);
    }
    free(perm), free(keys), free(orig), free(vals), free(vcopy), free(ko), free(vo), free(io);
}

/* Every k the issue names for n keys. */
static unsigned ks_for(uint64_t n, uint64_t *ks)
{
    const uint64_t base[] = {0, 1, 2, 31, 32, 33, 1000, n / 2, n ? n - 1 : 0, n, n + 1};
    memcpy(ks, base, sizeof base);
    return sizeof base / sizeof *base;
}

static int device_backend(void) { return strcmp(g_backend, "cpu") != 0; }
/* ZESORT_TEST_QUICK (the sanitizer stage of scripts/test): fewer and smaller cases */
static int quick(void) { return getenv("ZESORT_TEST_QUICK") != NULL; }

START_TEST(matrix)
{
    static const uint64_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1009, 4099};
    /* a device sorts every key per call: fewer combinations there (PoCL);
     * a room of k + 1 keys: the select runs wherever k + 1 < n */
    const unsigned nsizes = device_backend() ? 7 : 10;
    if (device_backend())
        zs_test_topk_slack(1);
    unsigned i = 0;
    for (unsigned si = 0; si < nsizes; si++)
        for (int t = ZESORT_KEY_U32; t <= ZESORT_KEY_BF16; t++) /* the narrow types too */
            for (int d = 0; d < D_COUNT; d++)
                for (int desc = 0; desc < 2; desc++, i++) {
                    if (device_backend() && (i % 5) != 0)
                        continue;
                    const unsigned bits = oracle_key_bytes((zesort_key_type)t) * 8;
                    const int narrow = i % 4 == 1;
                    const unsigned lo = bits >= 32 ? 3 : 1, hi = bits >= 32 ? bits - 5 : bits - 2;
                    tcase c = {sizes[si], 0, (zesort_key_type)t, desc, d, narrow ? lo : 0,
                               narrow ? hi : bits, (i % 2) ? 8 : 4, (int)(i % 4)};
                    uint64_t ks[16];
                    run_ks(c, ks, ks_for(c.n, ks));
                }
    zs_test_topk_slack(0);
}
END_TEST

START_TEST(large)
{
    const uint64_t n = quick() ? 200003 : 1000003;
    uint64_t ks[16];
    const unsigned nk = ks_for(n, ks);
    run_ks((tcase){n, 0, ZESORT_KEY_U32, 0, D_RANDOM, 0, 32, 4, 3}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_F32, 1, D_SPECIAL, 0, 32, 8, 1}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_U64, 0, D_EQUAL, 0, 64, 4, 2}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_I64, 1, D_FEW, 8, 40, 8, 3}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_F64, 0, D_RANDOM, 0, 64, 8, 0}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_F16, 1, D_SPECIAL, 0, 16, 4, 3}, ks, nk); /* narrow keys */
    run_ks((tcase){n, 0, ZESORT_KEY_U8, 0, D_RANDOM, 0, 8, 8, 1}, ks, nk);
    /* the smallest keys all in the first (last) thread's chunk */
    run_ks((tcase){n, 0, ZESORT_KEY_U32, 0, D_SORTED, 0, 32, 4, 3}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_I64, 0, D_REVERSED, 0, 64, 4, 2}, ks, nk);
    run_ks((tcase){n, 0, ZESORT_KEY_U32, 1, D_LOW, 0, 32, 4, 3}, ks, nk);
    /* ties across the boundary, cut by input position: 5 values, their
     * buckets wider than any room, keys, values and indices */
    run_ks((tcase){n, 0, ZESORT_KEY_I32, 0, D_FEW, 0, 32, 8, 3}, ks, nk);
}
END_TEST

/* One zesort_topk_segments: every row against the segment's oracle. */
static void run_segments(uint64_t n, zesort_key_type t, int desc, int dist, int pat, uint64_t k,
                         unsigned vb)
{
    const unsigned kb = oracle_key_bytes(t);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const size_t n1 = n ? n : 1;
    char *keys = malloc(n1 * kb), *vals = malloc(n1 * 8);
    uint64_t *off = malloc((n + 8) * sizeof *off);
    ck_assert(keys && vals && off);
    make_keys(keys, n, t, dist, n + (uint64_t)pat);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    const uint64_t s = make_offsets(pat, n, off, n + (uint64_t)t);
    const size_t cap = (size_t)(s * k > 0 ? s * k : 1);
    char *ko = malloc(cap * kb), *vo = malloc(cap * vb), *io = malloc(cap * vb);
    ck_assert(ko && vo && io);
    memset(ko, CANARY, cap * kb), memset(vo, CANARY, cap * vb), memset(io, CANARY, cap * vb);
    char what[200];
    snprintf(what, sizeof what, "%s segments n=%llu pat=%d k=%llu type=%d desc=%d dist=%d vb=%u",
             g_backend, (unsigned long long)n, pat, (unsigned long long)k, (int)t, desc, dist, vb);
    zesort_status st = zesort_topk_segments(g_ctx, keys, vals, ko, vo, io, n, off, s, k, &o);
    ck_assert_msg(st == ZESORT_OK, "%s: %s: %s", what, zesort_status_name(st),
                  zesort_last_error(g_ctx));
    for (uint64_t i = 0; i < s; i++) {
        const uint64_t b = off[i], len = off[i + 1] - b, m = k < len ? k : len;
        uint64_t *perm = oracle_permutation(keys + b * kb, len, &o);
        ck_assert(perm);
        /* values carry the array's position; indices the segment's */
        for (uint64_t j = 0; j < m; j++) {
            uint64_t gotv = 0, goti = 0;
            memcpy(&gotv, vo + (i * k + j) * vb, vb);
            memcpy(&goti, io + (i * k + j) * vb, vb);
            ck_assert_msg(memcmp(ko + (i * k + j) * kb, keys + (b + perm[j]) * kb, kb) == 0 &&
                              gotv == oracle_value(b + perm[j], vb) && goti == perm[j],
                          "%s: segment %llu wrong at %llu", what, (unsigned long long)i,
                          (unsigned long long)j);
        }
        for (uint64_t j = m; j < k; j++)
            ck_assert_msg((unsigned char)ko[(i * k + j) * kb] == CANARY &&
                              (unsigned char)io[(i * k + j) * vb] == CANARY,
                          "%s: segment %llu's row written past its length", what,
                          (unsigned long long)i);
        free(perm);
    }
    free(keys), free(vals), free(off), free(ko), free(vo), free(io);
}

START_TEST(segments)
{
    static const uint64_t sizes[] = {0, 1, 257, 5000};
    static const uint64_t ks[] = {0, 1, 3, 32, 300, 5000};
    unsigned i = 0;
    for (unsigned si = 0; si < 4; si++)
        for (int pat = 0; pat < PAT_COUNT; pat++)
            for (unsigned ki = 0; ki < 6; ki++, i++) {
                if ((device_backend() || quick()) && i % 3)
                    continue;
                const zesort_key_type t = (zesort_key_type)(i % 6);
                run_segments(sizes[si], t, (int)(i % 2), (int)(i % D_COUNT), pat, ks[ki],
                             (i % 3) ? 4 : 8);
            }
}
END_TEST

START_TEST(errors)
{
    uint32_t keys[8] = {5, 3, 1}, out[8], vals[8], vo[8];
    uint64_t off[3] = {0, 2, 1};
    zesort_options o;
    zesort_options_default(&o);
    ck_assert_int_eq(zesort_topk(NULL, keys, NULL, out, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_topk(g_ctx, NULL, NULL, out, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_topk(g_ctx, keys, NULL, NULL, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT); /* no output */
    ck_assert_int_eq(zesort_topk(g_ctx, keys, vals, out, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT); /* values_in without values_out */
    ck_assert_int_eq(zesort_topk(g_ctx, keys, NULL, keys + 1, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT); /* overlap */
    ck_assert_int_eq(zesort_topk(g_ctx, keys, vals, out, vo, (char *)vo + 1, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT); /* misaligned indices */
    o.bit_lo = 12, o.bit_hi = 8;
    ck_assert_int_eq(zesort_topk(g_ctx, keys, NULL, out, NULL, NULL, 3, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    zesort_options_default(&o);
    ck_assert_int_eq(zesort_topk_segments(g_ctx, keys, NULL, out, NULL, NULL, 3, off, 2, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT); /* decreasing offsets */
    ck_assert_int_eq(zesort_topk_segments(g_ctx, keys, NULL, out, NULL, NULL, 3, NULL, 2, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_topk_segments(g_ctx, keys, NULL, out, NULL, NULL, 3, off, 1,
                                          UINT64_MAX / 4, &o),
                     ZESORT_ERROR_TOO_LARGE);
    /* k = 0 and n = 0 write nothing and need no output */
    ck_assert_int_eq(zesort_topk(g_ctx, keys, NULL, NULL, NULL, NULL, 3, 0, &o), ZESORT_OK);
    ck_assert_int_eq(zesort_topk(g_ctx, NULL, NULL, NULL, NULL, NULL, 0, 5, &o), ZESORT_OK);
}
END_TEST

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        const TTest *test;
    } parts[] = {{"matrix", NULL}, {"large", NULL}, {"segments", NULL}, {"errors", NULL}};
    const TTest *tests[] = {matrix, large, segments, errors};
    g_backend = argc > 1 ? argv[1] : "cpu";
    const char *part = argc > 2 ? argv[2] : "matrix";
    const zesort_backend b = strcmp(g_backend, "opencl") == 0       ? ZESORT_BACKEND_OPENCL
                             : strcmp(g_backend, "level-zero") == 0 ? ZESORT_BACKEND_LEVEL_ZERO
                                                                    : ZESORT_BACKEND_CPU;
    if (zesort_create(b, &g_ctx) != ZESORT_OK) {
        fprintf(stderr, "no %s context: %s\n", g_backend, zesort_last_error(NULL));
        return 77; /* skip */
    }
    TCase *tc = tcase_create("topk");
    tcase_set_timeout(tc, 600);
    for (unsigned i = 0; i < 4; i++)
        if (strcmp(part, parts[i].name) == 0)
            tcase_add_test(tc, tests[i]);
    Suite *suite = suite_create("topk");
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    const int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    zesort_destroy(g_ctx);
    return failed != 0;
}
