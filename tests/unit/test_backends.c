/*
 * test_backends.c — the CM sort on a real backend against cm_reference.
 *
 *   test_backends BACKEND ALGO SCAN [small|large|options]
 *     BACKEND opencl | cpu, ALGO cm2 | cm4, SCAN host | device
 *
 * opencl: every count table and prefix table of zs_debug_cm_pass is compared
 * bit for bit with cmref_count / cmref_prefix, its bucket output with
 * cmref_bucket, and full sorts with cmref_sort_u32 and qsort.
 * cpu: zs_debug_cm_pass must say UNSUPPORTED; full sorts as above.
 * "small" runs every size up to 65537 with every distribution, "large" the
 * sizes 1000003 and 2^22 (ZESORT_TEST_QUICK: 262147 and 2^20) with fewer
 * distributions (the suite's time budget),
 * "options" descending order, bit ranges and key/value pairs; without the
 * argument all run. One test() per combination lets meson run
 * them in parallel.
 *
 * ZESORT_TEST_SKIP_OPENCL=1 skips the opencl runs (exit 77); otherwise a
 * missing OpenCL device is a failure, not a skip.
 *
 * The runner does not fork (CK_NOFORK unless CK_FORK is set): a forked child
 * cannot use the parent's OpenCL context, and one context per test would
 * rebuild the kernels each time.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_reference.h"
#include "test_data.h"
#include "zesort.h"
#include "common/test_hooks.h"


static zesort_backend g_backend;
static zesort_algo g_algo;
static zesort_scan g_scan;
static unsigned g_bits;
static zesort_context *g_ctx;

/* The sizes of test_data.h up to 65537 ("small"), and the large ones. */
#define SMALL_SIZE_COUNT 9 /* td_sizes[0..8] = 0 .. 65537 */
/* ZESORT_TEST_QUICK (the sanitizer stage of scripts/test): 262147 and 2^20,
 * still past every small-size path, at a quarter of the time */
static uint64_t large_sizes[] = {1000003, UINT64_C(1) << 22};
static const td_dist large_dists[] = {TD_UNIFORM, TD_FEW_UNIQUE};

/* Shifts that put the digit at the bottom, the middle and the top of the key. */
static unsigned shift_at(int k)
{
    static const unsigned cm2[3] = {0, 14, 30}, cm4[3] = {0, 12, 28};
    return g_bits == 2 ? cm2[k] : cm4[k];
}

/* One context for the whole run (created in main). */
static zesort_context *ctx(void)
{
    ck_assert_ptr_nonnull(g_ctx);
    ck_assert_int_eq(zesort_context_backend(g_ctx), g_backend);
    return g_ctx;
}

static zesort_options sort_options(void)
{
    zesort_options o;
    zesort_options_default(&o);
    o.algo = g_algo;
    o.scan = g_scan;
    return o;
}

/* ---- one CM pass, table by table (opencl), or UNSUPPORTED (cpu) ---- */

/* Reports the first differing entry of a bin-major table as (bin, chunk). */
static void assert_table_eq(const char *what, const uint32_t *got, const uint32_t *want,
                            uint64_t chunks, uint64_t n, td_dist dist, unsigned shift)
{
    int64_t d = td_first_diff(got, want, (uint64_t)(1u << g_bits) * chunks);
    ck_assert_msg(d < 0,
                  "%s table differs: cm%u n=%llu %s shift=%u at bin %lld chunk %lld: got %u want %u",
                  what, g_bits, (unsigned long long)n, td_dist_name(dist), shift,
                  (long long)(d / (int64_t)chunks), (long long)(d % (int64_t)chunks),
                  d < 0 ? 0 : got[d], d < 0 ? 0 : want[d]);
}

static void check_cm_pass(uint64_t n, td_dist dist, unsigned shift)
{
    const uint64_t chunks = cmref_chunks(n);
    const uint64_t len = (uint64_t)(1u << g_bits) * chunks;
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, dist, shift + 11);
    uint32_t *count = td_alloc(len), *prefix = td_alloc(len), *out = td_alloc(n);
    uint32_t *ref_count = td_alloc(len), *ref_prefix = td_alloc(len), *ref_out = td_alloc(n);

    zesort_status st = zs_debug_cm_pass(ctx(), (int)g_bits, g_scan, keys, n, shift, count,
                                        prefix, out);
    ck_assert_msg(st == ZESORT_OK, "zs_debug_cm_pass cm%u n=%llu: %s: %s", g_bits,
                  (unsigned long long)n, zesort_status_name(st), zesort_last_error(ctx()));

    cmref_count(keys, n, g_bits, shift, ref_count);
    memcpy(ref_prefix, ref_count, len * sizeof *ref_prefix);
    cmref_prefix(ref_prefix, len);
    cmref_bucket(keys, ref_out, n, g_bits, shift, ref_prefix);

    assert_table_eq("count", count, ref_count, chunks, n, dist, shift);
    assert_table_eq("prefix", prefix, ref_prefix, chunks, n, dist, shift);
    int64_t d = td_first_diff(out, ref_out, n);
    ck_assert_msg(d < 0, "bucket output differs: cm%u n=%llu %s shift=%u at %lld", g_bits,
                  (unsigned long long)n, td_dist_name(dist), shift, (long long)d);
    td_free(keys), td_free(count), td_free(prefix), td_free(out);
    td_free(ref_count), td_free(ref_prefix), td_free(ref_out);
}

/* loop index = ((size - 1) * DIST_COUNT + dist) * 3 + shift; sizes 1 .. 65537 */
START_TEST(cm_pass_tables_small)
{
    int shift_k = _i % 3, rest = _i / 3;
    check_cm_pass(td_sizes[1 + rest / TD_DIST_COUNT], (td_dist)(rest % TD_DIST_COUNT),
                  shift_at(shift_k));
}
END_TEST

/* One pass is cheap next to a sort: every distribution at 1000003 (loop 0..6),
 * then uniform and few-unique at 2^22 (loop 7, 8). */
START_TEST(cm_pass_tables_large)
{
    if (_i < TD_DIST_COUNT)
        check_cm_pass(large_sizes[0], (td_dist)_i, shift_at(_i % 3));
    else
        check_cm_pass(large_sizes[1], large_dists[_i - TD_DIST_COUNT], shift_at(_i % 3));
}
END_TEST

/* Only the outputs that were asked for are written; NULL ones are skipped. */
START_TEST(cm_pass_optional_outputs)
{
    uint32_t keys[300], out[300], ref_table[16 * 2], ref_out[300]; /* bins * 2 chunks */
    td_fill(keys, 300, TD_UNIFORM, 3);
    ck_assert_int_eq(zs_debug_cm_pass(ctx(), (int)g_bits, g_scan, keys, 300, 0, NULL, NULL, out),
                     ZESORT_OK);
    cmref_count(keys, 300, g_bits, 0, ref_table);
    cmref_prefix(ref_table, (1u << g_bits) * 2);
    cmref_bucket(keys, ref_out, 300, g_bits, 0, ref_table);
    ck_assert_mem_eq(out, ref_out, sizeof out);
}
END_TEST

START_TEST(cm_pass_unsupported_on_cpu)
{
    uint32_t keys[40], table[16 * 1], out[40];
    td_fill(keys, 40, TD_UNIFORM, 5);
    uint32_t copy[40];
    memcpy(copy, keys, sizeof keys);
    zesort_status st = zs_debug_cm_pass(ctx(), (int)g_bits, g_scan, keys, 40, 0, table, table, out);
    ck_assert_msg(st == ZESORT_ERROR_UNSUPPORTED, "cpu zs_debug_cm_pass returned %s",
                  zesort_status_name(st));
    ck_assert_str_ne(zesort_last_error(ctx()), "");
    ck_assert_mem_eq(keys, copy, sizeof keys);
}
END_TEST

/* ---- full sorts: equal to cmref_sort_u32 and to qsort ---- */

static void check_sort(uint64_t n, td_dist dist)
{
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, dist, 99);
    uint32_t *want_q = td_qsorted(keys, n);
    uint32_t *want_cm = td_copy(keys, n);
    ck_assert_int_eq(cmref_sort_u32(want_cm, n, g_bits), 0);

    zesort_options o = sort_options();
    zesort_status st = zesort_sort(ctx(), keys, NULL, n, &o);
    ck_assert_msg(st == ZESORT_OK, "zesort_sort %s n=%llu %s: %s: %s",
                  zesort_algo_name(g_algo), (unsigned long long)n, td_dist_name(dist),
                  zesort_status_name(st), zesort_last_error(ctx()));
    int64_t d = td_first_diff(keys, want_cm, n);
    ck_assert_msg(d < 0, "%s n=%llu %s differs from cmref_sort_u32 at %lld",
                  zesort_algo_name(g_algo), (unsigned long long)n, td_dist_name(dist),
                  (long long)d);
    d = td_first_diff(keys, want_q, n);
    ck_assert_msg(d < 0, "%s n=%llu %s differs from qsort at %lld", zesort_algo_name(g_algo),
                  (unsigned long long)n, td_dist_name(dist), (long long)d);
    td_free(keys), td_free(want_q), td_free(want_cm);
}

START_TEST(sort_small) { check_sort(td_sizes[_i / TD_DIST_COUNT], (td_dist)(_i % TD_DIST_COUNT)); }
END_TEST

START_TEST(sort_large) { check_sort(large_sizes[_i / 2], large_dists[_i % 2]); }
END_TEST

/* Sorting twice on one context (buffers reused, smaller then larger n) stays right. */
START_TEST(sort_reuses_context)
{
    static const uint64_t ns[] = {70000, 300, 70001, 1};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        check_sort(ns[k], TD_UNIFORM);
}
END_TEST

/* zesort_sort_timed: same result, a sane device time. */
START_TEST(sort_timed)
{
    const uint64_t n = 5000;
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, TD_UNIFORM, 4);
    uint32_t *want = td_qsorted(keys, n);
    zesort_options o = sort_options();
    double ms = -1.0;
    zesort_status st = zesort_sort_timed(ctx(), keys, NULL, n, &o, &ms);
    ck_assert_msg(st == ZESORT_OK, "zesort_sort_timed: %s: %s", zesort_status_name(st),
                  zesort_last_error(ctx()));
    ck_assert_msg(ms >= 0.0 && ms < 60000.0, "device time %f ms", ms);
    ck_assert_mem_eq(keys, want, n * sizeof *keys);
    td_free(keys), td_free(want);
}
END_TEST

/* ---- options: descending, bit ranges, values ---- */

/* Stable order of keys by bits [lo, hi): (subkey, original index) pairs. */
typedef struct keyed { uint32_t sub; uint32_t index; } keyed;
static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->sub != y->sub)
        return (x->sub > y->sub) - (x->sub < y->sub);
    return (x->index > y->index) - (x->index < y->index);
}

static uint32_t *stable_by_bits(const uint32_t *keys, uint32_t n, unsigned lo, unsigned hi)
{
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    ck_assert_ptr_nonnull(k);
    uint32_t mask = hi - lo >= 32 ? 0xFFFFFFFFu : ((1u << (hi - lo)) - 1u);
    for (uint32_t i = 0; i < n; i++)
        k[i] = (keyed){(keys[i] >> lo) & mask, i};
    qsort(k, n, sizeof *k, cmp_keyed);
    uint32_t *out = td_alloc(n);
    for (uint32_t i = 0; i < n; i++)
        out[i] = keys[k[i].index];
    free(k);
    return out;
}

/* Sorting by a bit range keeps keys with equal bits in input order; the
 * number of digits is odd for some ranges (the result must still end in keys)
 * and the range need not be a multiple of the digit width. */
START_TEST(sort_bit_ranges)
{
    static const unsigned ranges[][2] = {{0, 32}, {3, 17}, {0, 1}, {30, 32}, {8, 16}, {5, 6},
                                         {0, 31}, {1, 32}};
    const uint32_t n = 3000;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        uint32_t *keys = td_alloc(n);
        td_fill(keys, n, r % 2 ? TD_FEW_UNIQUE : TD_UNIFORM, 21 + r);
        uint32_t *want = stable_by_bits(keys, n, ranges[r][0], ranges[r][1]);
        zesort_options o = sort_options();
        o.bit_lo = ranges[r][0];
        o.bit_hi = ranges[r][1];
        zesort_status st = zesort_sort(ctx(), keys, NULL, n, &o);
        ck_assert_msg(st == ZESORT_OK, "bits [%u,%u): %s: %s", o.bit_lo, o.bit_hi,
                      zesort_status_name(st), zesort_last_error(ctx()));
        int64_t d = td_first_diff(keys, want, n);
        ck_assert_msg(d < 0, "%s bits [%u,%u) not the stable order: first diff at %lld",
                      zesort_algo_name(g_algo), o.bit_lo, o.bit_hi, (long long)d);
        td_free(keys), td_free(want);
    }
}
END_TEST

START_TEST(sort_descending)
{
    static const uint64_t ns[] = {1, 257, 4097};
    for (size_t k = 0; k < 3; k++) {
        uint64_t n = ns[k];
        uint32_t *keys = td_alloc(n);
        td_fill(keys, n, TD_FEW_UNIQUE, 5);
        uint32_t *asc = td_qsorted(keys, n);
        zesort_options o = sort_options();
        o.descending = 1;
        zesort_status st = zesort_sort(ctx(), keys, NULL, n, &o);
        ck_assert_msg(st == ZESORT_OK, "descending: %s: %s", zesort_status_name(st),
                      zesort_last_error(ctx()));
        for (uint64_t i = 0; i < n; i++)
            ck_assert_msg(keys[i] == asc[n - 1 - i], "descending n=%llu wrong at %llu",
                          (unsigned long long)n, (unsigned long long)i);
        td_free(keys), td_free(asc);
    }
}
END_TEST

/* Key/value pairs: values follow their keys, equal keys keep input order
 * (values = input index, so they must ascend within a run of equal keys).
 * A version without pairs must say UNSUPPORTED and touch nothing. */
START_TEST(sort_pairs_stable)
{
    const uint64_t n = 4097;
    uint32_t *keys = td_alloc(n), *values = td_alloc(n);
    td_fill(keys, n, TD_FEW_UNIQUE, 6);
    for (uint32_t i = 0; i < n; i++)
        values[i] = i;
    uint32_t *orig = td_copy(keys, n), *want = td_qsorted(keys, n);
    zesort_options o = sort_options();
    zesort_status st = zesort_sort(ctx(), keys, values, n, &o);
    if (st == ZESORT_ERROR_UNSUPPORTED) {
        ck_assert_mem_eq(keys, orig, n * sizeof *keys);
        for (uint32_t i = 0; i < n; i++)
            ck_assert_uint_eq(values[i], i);
    } else {
        ck_assert_msg(st == ZESORT_OK, "pairs: %s: %s", zesort_status_name(st),
                      zesort_last_error(ctx()));
        ck_assert_mem_eq(keys, want, n * sizeof *keys);
        for (uint64_t i = 0; i < n; i++) {
            ck_assert_msg(values[i] < n && orig[values[i]] == keys[i], "value %llu not its key's",
                          (unsigned long long)i);
            if (i > 0 && keys[i] == keys[i - 1])
                ck_assert_msg(values[i] > values[i - 1], "pairs not stable at %llu",
                              (unsigned long long)i);
        }
    }
    td_free(keys), td_free(values), td_free(orig), td_free(want);
}
END_TEST

static Suite *backend_suite(int small, int large, int options)
{
    Suite *s = suite_create("backend");
    TCase *tc = tcase_create("cm");
    tcase_set_timeout(tc, 0);
    tcase_add_checked_fixture(tc, NULL, td_free_all);
    if (small) {
        if (g_backend == ZESORT_BACKEND_CPU) {
            tcase_add_test(tc, cm_pass_unsupported_on_cpu);
        } else {
            tcase_add_loop_test(tc, cm_pass_tables_small, 0,
                                (SMALL_SIZE_COUNT - 1) * TD_DIST_COUNT * 3);
            tcase_add_test(tc, cm_pass_optional_outputs);
        }
        tcase_add_loop_test(tc, sort_small, 0, SMALL_SIZE_COUNT * TD_DIST_COUNT);
        tcase_add_test(tc, sort_reuses_context);
        tcase_add_test(tc, sort_timed);
    }
    if (options) {
        tcase_add_test(tc, sort_bit_ranges);
        tcase_add_test(tc, sort_descending);
        tcase_add_test(tc, sort_pairs_stable);
    }
    if (large) {
        if (g_backend != ZESORT_BACKEND_CPU)
            tcase_add_loop_test(tc, cm_pass_tables_large, 0, TD_DIST_COUNT + 2);
        tcase_add_loop_test(tc, sort_large, 0, 4);
    }
    suite_add_tcase(s, tc);
    return s;
}

static int usage(void)
{
    fprintf(stderr, "usage: test_backends opencl|level-zero|cpu cm2|cm4 host|device [small|large|options]\n");
    return 2;
}

int main(int argc, char **argv)
{
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
    if (strcmp(argv[2], "cm2") == 0)
        g_algo = ZESORT_ALGO_CM2, g_bits = 2;
    else if (strcmp(argv[2], "cm4") == 0)
        g_algo = ZESORT_ALGO_CM4, g_bits = 4;
    else
        return usage();
    if (strcmp(argv[3], "host") == 0)
        g_scan = ZESORT_SCAN_HOST;
    else if (strcmp(argv[3], "device") == 0)
        g_scan = ZESORT_SCAN_DEVICE;
    else
        return usage();
    if (getenv("ZESORT_TEST_QUICK"))
        large_sizes[0] = 262147, large_sizes[1] = UINT64_C(1) << 20;
    int small = 1, large = 1, options = 1;
    if (argc == 5) {
        small = strcmp(argv[4], "small") == 0;
        large = strcmp(argv[4], "large") == 0;
        options = strcmp(argv[4], "options") == 0;
        if (!small && !large && !options)
            return usage();
    }

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

    int rc = td_run_suite(backend_suite(small, large, options));
    zesort_destroy(g_ctx);
    return rc;
}
