/*
 * test_onesweep.c — the chained scan of onesweep (kernels/onesweep.cl) where
 * it can go wrong: many more tiles than the device runs at once, and the
 * look-back fallback (a tile recounting a predecessor that published nothing).
 *
 *   test_onesweep FLAVOR      FLAVOR: serial | portable | sg (set as ZESORT_FLAVOR;
 *                             sg needs Intel sub-groups: PoCL 6, tests/debian13)
 *
 * Cases, on the OpenCL backend (PoCL runs 2 work-groups at once here):
 *   many_tiles     64 tiles + 5 keys, and 96 tiles + 1 key, in several
 *                  distributions: tile ids come from the atomic counter in
 *                  start order, so every tile's predecessors have started and
 *                  the sort must finish and match qsort.
 *   forced_recount the kernels built with -DOS_FORCE_RECOUNT=1: every status
 *                  word reads as unpublished, so each tile recounts all its
 *                  predecessors. The output (pairs: keys and values) must be
 *                  the stable order, identical to the normal build's.
 *
 * ZESORT_TEST_SKIP_OPENCL=1 skips (exit 77). No fork: one context per run.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "test_data.h"
#include "common/test_hooks.h"
#include "zesort.h"

static const char *g_flavor;
static int g_serial; /* serial flavor: tiles of ZS_OS_SERIAL_TILE keys */
static zesort_context *g_ctx;

static uint64_t tile_keys(void) { return zs_os_tile(0, 0, g_serial); }

static void open_context(void)
{
    ck_assert_int_eq(zesort_create(ZESORT_BACKEND_OPENCL, &g_ctx), ZESORT_OK);
    ck_assert_str_eq(zesort_context_flavor(g_ctx), g_flavor);
}

static void close_context(void)
{
    zesort_destroy(g_ctx);
    g_ctx = NULL;
    td_free_all();
}

static void sort_and_check(uint64_t n, td_dist d, uint64_t seed)
{
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, d, seed);
    uint32_t *want = td_qsorted(keys, n);
    zesort_options o;
    zesort_options_default(&o);
    o.algo = ZESORT_ALGO_ONESWEEP;
    ck_assert_msg(zesort_sort(g_ctx, keys, NULL, n, &o) == ZESORT_OK, "%s",
                  zesort_last_error(g_ctx));
    int64_t diff = td_first_diff(keys, want, n);
    ck_assert_msg(diff < 0, "n=%llu %s: first difference at %lld", (unsigned long long)n,
                  td_dist_name(d), (long long)diff);
    td_free(keys);
    td_free(want);
}

START_TEST(many_tiles)
{
    open_context();
    const td_dist dists[] = {TD_UNIFORM, TD_FEW_UNIQUE, TD_REVERSED, TD_HIGH_BITS};
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; ++i)
        sort_and_check(64 * tile_keys() + 5, dists[i], 11 + i);
    sort_and_check(96 * tile_keys() + 1, TD_UNIFORM, 7);
    close_context();
}
END_TEST

/* Stable pairs sort of n keys; values are the input indices. */
static void sort_pairs(uint64_t n, const uint32_t *in, uint32_t **keys_out, uint32_t **values_out)
{
    uint32_t *keys = td_copy(in, n), *values = td_alloc(n);
    for (uint64_t i = 0; i < n; ++i)
        values[i] = (uint32_t)i;
    zesort_options o;
    zesort_options_default(&o);
    o.algo = ZESORT_ALGO_ONESWEEP;
    ck_assert_msg(zesort_sort(g_ctx, keys, values, n, &o) == ZESORT_OK, "%s",
                  zesort_last_error(g_ctx));
    *keys_out = keys;
    *values_out = values;
}

START_TEST(forced_recount)
{
    /* few enough tiles that recounting every predecessor stays quick */
    const uint64_t n = 40 * tile_keys() + 17;
    uint32_t *in = td_alloc(n);
    td_fill(in, n, TD_FEW_UNIQUE, 5); /* equal keys: stability shows in the values */

    open_context();
    uint32_t *normal_keys, *normal_values;
    sort_pairs(n, in, &normal_keys, &normal_values);
    zesort_destroy(g_ctx);

    zs_opencl_test_defines("-DOS_FORCE_RECOUNT=1");
    open_context();
    uint32_t *forced_keys, *forced_values;
    sort_pairs(n, in, &forced_keys, &forced_values);
    zs_opencl_test_defines(NULL);

    uint32_t *want = td_qsorted(in, n);
    ck_assert_int_lt(td_first_diff(normal_keys, want, n), 0);
    ck_assert_int_lt(td_first_diff(forced_keys, want, n), 0);
    for (uint64_t i = 1; i < n; ++i)
        if (forced_keys[i] == forced_keys[i - 1])
            ck_assert_msg(forced_values[i] > forced_values[i - 1], "unstable at %llu",
                          (unsigned long long)i);
    ck_assert_int_lt(td_first_diff(forced_values, normal_values, n), 0);
    close_context();
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "serial") != 0 && strcmp(argv[1], "portable") != 0 &&
                      strcmp(argv[1], "sg") != 0)) {
        fprintf(stderr, "usage: test_onesweep serial|portable|sg\n");
        return 2;
    }
    if (td_skip_opencl())
        return TD_SKIP_EXIT;
    g_flavor = argv[1];
    g_serial = strcmp(argv[1], "serial") == 0;
    setenv("ZESORT_FLAVOR", argv[1], 1);

    Suite *s = suite_create("onesweep");
    TCase *tc = tcase_create("look-back");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, many_tiles);
    tcase_add_test(tc, forced_recount);
    suite_add_tcase(s, tc);
    return td_run_suite(s);
}
