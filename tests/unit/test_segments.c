/*
 * test_segments.c — zesort_sort_segments (issue 22) on one backend, against a
 * per-segment stable qsort oracle (tests/common/sort_oracle.h).
 *
 *   test_segments BACKEND ALGO [PART]
 *     BACKEND cpu | opencl | level-zero, ALGO cm2 | cm4 | onesweep,
 *     PART    matrix (every key type x order x bit range x values none / u32
 *             / u64 x offset pattern, sizes around chunk and tile edges) |
 *             large (2^20 + 3 keys: a giant segment among tiny ones, which
 *             the C fallback sorts on its whole team) | errors (bad offsets) |
 *             budget (a device too small for the segments at once) | long
 *             (the C fallback: segments longer than its radix passes take)
 *
 * Every case fills the keys and values outside [offsets[0], offsets[S])
 * with a pattern and checks it unchanged afterwards, and checks the report
 * (zesort_last_sort_report: one device, one part, the segments' keys).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zesort.h>

#include "segment_offsets.h"
#include "segment_oracle.h"
#include "common/test_hooks.h"

static const char *g_backend = "cpu";
static zesort_algo g_algo = ZESORT_ALGO_CM4;
static zesort_context *g_ctx;

/* The report of a segmented sort of `keys` keys on one device: one part,
 * every key on the device. */
static void check_report(const char *what, uint64_t keys)
{
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_msg(r.devices == 1 && r.parts == 1 && r.device_parts[0] == 1 &&
                      r.device_keys[0] == keys && r.device_ms[0] >= 0 &&
                      r.total_ms >= r.sort_ms && r.sort_ms >= 0,
                  "%s: report: %u devices, %llu parts, %llu keys on device 0 (of %llu)", what,
                  r.devices, (unsigned long long)r.parts, (unsigned long long)r.device_keys[0],
                  (unsigned long long)keys);
}

/* The pattern every byte outside the segments keeps. */
static unsigned char outside_byte(uint64_t i) { return (unsigned char)(i * 131 + 7); }

/* One case: n keys of type t (distribution dist), values of vb bytes (0:
 * none), segmented by pattern pat, or (off given, pat < 0) by the s
 * segments of off (room for n + 8 entries). */
static void run_offsets(uint64_t n, zesort_key_type t, int descending, unsigned lo, unsigned hi,
                        unsigned vb, int pat, int dist, const uint64_t *given, uint64_t given_s)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[200];
    snprintf(what, sizeof what, "%s %s n=%llu type=%d desc=%d bits=%u:%u vb=%u pattern=%d dist=%d",
             g_backend, zesort_algo_name(g_algo), (unsigned long long)n, (int)t, descending, lo,
             hi, vb, pat, dist);
    zesort_options o;
    zesort_options_default(&o); /* then every field this case sets: */
    o = (zesort_options){.key_type = t, .algo = g_algo, .scan = o.scan, .descending = descending,
                         .bit_lo = lo, .bit_hi = hi,
                         .value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32};
    const size_t cap = n ? n : 1;
    char *keys = malloc(cap * kb), *orig = malloc(cap * kb), *vals = malloc(cap * 8);
    uint64_t *off = malloc((n + 8) * sizeof *off);
    ck_assert(keys && orig && vals && off);
    oracle_make_keys(orig, n, t, dist, n + (uint64_t)pat * 3 + t);
    const uint64_t s = given ? given_s : make_offsets(pat, n, off, n + (uint64_t)t);
    if (given)
        memcpy(off, given, (size_t)(s + 1) * sizeof *off);
    const uint64_t first = off[0], end = off[s];
    for (uint64_t i = 0; i < n * kb; i++)
        if (i < first * kb || i >= end * kb)
            orig[i] = (char)outside_byte(i);
    memcpy(keys, orig, n * kb);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    zesort_status st = zesort_sort_segments(g_ctx, keys, vb ? vals : NULL, n, off, s, &o);
    ck_assert_msg(st == ZESORT_OK, "%s: %s: %s", what, zesort_status_name(st),
                  zesort_last_error(g_ctx));
    char why[200];
    const char *wrong = segments_verify(orig, keys, vb ? vals : NULL, off, s, n, kb, vb, &o, 0,
                                        why, sizeof why);
    ck_assert_msg(!wrong, "%s: %s", what, wrong);
    if (n > 0)
        check_report(what, end - first);
    free(keys), free(orig), free(vals), free(off);
}

static void run_case(uint64_t n, zesort_key_type t, int descending, unsigned lo, unsigned hi,
                     unsigned vb, int pat, int dist)
{
    run_offsets(n, t, descending, lo, hi, vb, pat, dist, NULL, 0);
}

/* ZESORT_TEST_QUICK=1 (the sanitizer run of scripts/test) runs a third of
 * the largest size's cases: every key type, order and pattern still
 * appears there, in fewer combinations (the full matrix under ASan took
 * 40-50 s per backend). */
static int skip_when_quick(uint64_t n, int t, int desc, int pat)
{
    const char *quick = getenv("ZESORT_TEST_QUICK");
    return quick && strcmp(quick, "1") == 0 && n > 1000 && (t + desc + pat) % 3 != 0;
}

/* The last key type: every backend sorts the narrow ones too (issue 37). */
static int last_type(void) { return ZESORT_KEY_BF16; }

START_TEST(matrix)
{
    static const uint64_t sizes[] = {0, 1, 2, 1000, 70001};
    int k = 0;
    for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int t = ZESORT_KEY_U32; t <= last_type(); t++)
            for (int desc = 0; desc < 2; desc++)
                for (int pat = 0; pat < PAT_COUNT; pat++, k++) {
                    if (skip_when_quick(sizes[si], t, desc, pat))
                        continue;
                    const unsigned bits = oracle_key_bytes((zesort_key_type)t) * 8;
                    const unsigned vb = (unsigned)(k % 3) * 4; /* none, u32, u64 in turn */
                    const int narrow = k % 4 == 1;             /* a bit range, often */
                    const unsigned lo = bits >= 16 ? 3 : 1, hi = bits >= 16 ? bits - 5 : bits - 2;
                    run_case(sizes[si], (zesort_key_type)t, desc, narrow ? lo : 0,
                             narrow ? hi : bits, vb, pat, k % 3);
                }
}
END_TEST

START_TEST(large)
{
    run_case((UINT64_C(1) << 20) + 3, ZESORT_KEY_U32, 0, 0, 32, 4, PAT_GIANT, 0);
    run_case((UINT64_C(1) << 20) + 3, ZESORT_KEY_F64, 1, 0, 64, 8, PAT_ONE, 1);
    run_case((UINT64_C(1) << 20) + 3, ZESORT_KEY_I32, 0, 0, 32, 0, PAT_RANDOM, 0);
}
END_TEST

/* Issue 35, item 2: segments of every size by one device-side plan that
 * classifies them on the device. Lengths just below, at and above each
 * class threshold (PAT_CLASSES), power-law lengths from 1 to n/8
 * (PAT_RAGGED), one segment of every key; keys and pairs, 32- and 64-bit
 * keys, descending, bit ranges (an odd number of 8-bit passes). On a device
 * a segment above the threshold takes the onesweep passes whatever the
 * algorithm asked for (the test runs with cm4): zesort_last_algo says
 * ONESWEEP (before issue 35 such a segment was a sort of its own, which
 * ran cm4). ZESORT_TEST_QUICK: the smaller size only. */
START_TEST(classes)
{
    const uint64_t sizes[] = {420000, (UINT64_C(1) << 20) + 3};
    static const int pats[] = {PAT_CLASSES, PAT_RAGGED, PAT_ONE};
    const int quick = getenv("ZESORT_TEST_QUICK") != NULL, device = strcmp(g_backend, "cpu");
    int k = 0;
    for (unsigned si = 0; si < (quick ? 1u : 2u); si++)
        for (unsigned pi = 0; pi < 3; pi++)
            for (int form = 0; form < 2; form++, k++) {
                /* narrow keys: one onesweep pass, so the copy home runs */
                static const zesort_key_type types[] = {ZESORT_KEY_F32, ZESORT_KEY_I64,
                                                        ZESORT_KEY_U8, ZESORT_KEY_F16};
                const zesort_key_type t = types[k % 4];
                const unsigned bits = oracle_key_bytes(t) * 8, cut = bits < 16 ? 2 : 4;
                run_case(sizes[si], t, form, form ? cut : 0, form ? bits - cut : bits,
                         (unsigned)(k % 3) * 4, pats[pi], k % 3);
                if (device && pats[pi] != PAT_RAGGED) /* ragged: the longest may be short */
                    ck_assert_msg(zesort_last_algo(g_ctx) == ZESORT_ALGO_ONESWEEP,
                                  "pattern %d: last algo %s, not onesweep", pats[pi],
                                  zesort_algo_name(zesort_last_algo(g_ctx)));
            }
}
END_TEST

/* Issue 33, defect 1: the first run of short segments holds only an empty
 * segment (then a long one, then a short one), on a device that takes the
 * segments' keys in several runs: a run with no keys is skipped (it was
 * planned for 0 keys and failed on a buffer never made: on Level Zero the
 * device was lost, and every later sort on the context failed), and a
 * plain sort on the same context still works afterwards. */
static void empty_first_run(void)
{
    const uint64_t n = 70001, off[] = {0, 0, n - 10, n};
    run_offsets(n, ZESORT_KEY_U32, 0, 0, 32, 4, -1, 0, off, 3);
    run_offsets(n, ZESORT_KEY_U32, 0, 0, 32, 0, -1, 1, off, 3);
    uint32_t keys[1000];
    for (uint32_t i = 0; i < 1000; i++)
        keys[i] = (i * 2654435761u) ^ 0x5bd1e995u;
    const zesort_status st = zesort_sort(g_ctx, keys, NULL, 1000, NULL);
    ck_assert_msg(st == ZESORT_OK, "a plain sort after it: %s: %s", zesort_status_name(st),
                  zesort_last_error(g_ctx));
    for (int i = 1; i < 1000; i++)
        ck_assert_msg(keys[i - 1] <= keys[i], "a plain sort after it: unsorted at %d", i);
}

/* A device too small for all the segments' keys at once (the test hook's
 * budget: a few thousand keys): the short segments go in runs that fit,
 * one launch each, the longer ones one by one. */
START_TEST(budget)
{
    zs_test_device_budget(64u << 10);
    run_case(70001, ZESORT_KEY_U32, 0, 0, 32, 4, PAT_RANDOM, 0);
    run_case(70001, ZESORT_KEY_F64, 1, 0, 64, 8, PAT_EDGES, 1);
    run_case(70001, ZESORT_KEY_I32, 0, 3, 27, 0, PAT_GIANT, 2);
    run_case(70001, ZESORT_KEY_U64, 1, 0, 64, 4, PAT_INNER, 0);
    empty_first_run();
    zs_test_device_budget(0);
}
END_TEST

/* Issue 33, defect 3: on the C fallback, segments longer than its radix
 * passes take at once (2^32 - 1 keys; a test hook lowers the limit to 5000
 * keys here), with values or a bit range, are sorted as zesort_sort sorts
 * so many keys: split into parts (they were refused, INVALID_ARGUMENT with
 * a message saying "out of host memory"). */
START_TEST(long_segments)
{
    zs_test_cpu_radix_max(5000);
    run_case(70001, ZESORT_KEY_U32, 0, 0, 32, 4, PAT_GIANT, 0);
    run_case(70001, ZESORT_KEY_F64, 1, 0, 64, 8, PAT_ONE, 1);
    run_case(70001, ZESORT_KEY_I32, 0, 3, 27, 0, PAT_EDGES, 2);
    run_case(70001, ZESORT_KEY_U64, 1, 0, 64, 4, PAT_RANDOM, 0);
    run_case(600001, ZESORT_KEY_U32, 0, 0, 32, 4, PAT_GIANT, 1); /* the team's segment too */
    run_case(70001, ZESORT_KEY_I16, 1, 0, 16, 8, PAT_GIANT, 1);  /* narrow keys split too */
    run_case(70001, ZESORT_KEY_U8, 0, 0, 8, 0, PAT_ONE, 0);
    run_case(600001, ZESORT_KEY_F16, 0, 2, 15, 4, PAT_GIANT, 2);
    zs_test_cpu_radix_max(0);
}
END_TEST

/* A bad call: INVALID_ARGUMENT, a message, keys and values unchanged. */
static void expect_refused(const uint64_t *off, uint64_t s, uint64_t n, const char *what)
{
    uint32_t keys[8] = {9, 8, 7, 6, 5, 4, 3, 2}, vals[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint32_t k0[8] = {9, 8, 7, 6, 5, 4, 3, 2}, v0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    zesort_status st = zesort_sort_segments(g_ctx, keys, vals, n, off, s, NULL);
    ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s", what, zesort_status_name(st));
    ck_assert_msg(strstr(zesort_last_error(g_ctx), "zesort_sort_segments") != NULL,
                  "%s: message '%s'", what, zesort_last_error(g_ctx));
    ck_assert_msg(memcmp(keys, k0, sizeof keys) == 0 && memcmp(vals, v0, sizeof vals) == 0,
                  "%s: arrays changed", what);
}

START_TEST(errors)
{
    const uint64_t decreasing[] = {0, 5, 3, 8}, beyond[] = {0, 4, 9}, late[] = {9};
    expect_refused(decreasing, 3, 8, "decreasing offsets");
    expect_refused(beyond, 2, 8, "offsets beyond n");
    expect_refused(late, 0, 8, "offsets[0] beyond n");
    expect_refused(NULL, 2, 8, "offsets NULL");
    /* what is fine: no segment at all, and nothing to sort */
    const uint64_t none[] = {3};
    uint32_t keys[4] = {4, 3, 2, 1};
    ck_assert_int_eq(zesort_sort_segments(g_ctx, keys, NULL, 4, none, 0, NULL), ZESORT_OK);
    ck_assert_int_eq(zesort_sort_segments(g_ctx, NULL, NULL, 0, (const uint64_t[]){0}, 0, NULL),
                     ZESORT_OK);
    ck_assert(keys[0] == 4 && keys[3] == 1);
    /* the sort's own checks still apply: a bad bit range */
    zesort_options o;
    zesort_options_default(&o);
    o.bit_lo = 20, o.bit_hi = 10;
    const uint64_t whole[] = {0, 4};
    ck_assert_int_eq(zesort_sort_segments(g_ctx, keys, NULL, 4, whole, 1, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert(keys[0] == 4 && keys[3] == 1);
}
END_TEST

/* The parts by name; the first is the default. */
static const struct {
    const char *name;
} g_parts[] = {{"matrix"}, {"large"}, {"errors"}, {"budget"}, {"long"}, {"classes"}};

int main(int argc, char **argv)
{
    const TTest *tests[] = {matrix, large, errors, budget, long_segments, classes};
    const char *part = argc > 3 ? argv[3] : g_parts[0].name;
    int which = -1;
    for (int i = 0; i < 6; i++)
        if (strcmp(part, g_parts[i].name) == 0)
            which = i;
    zesort_backend backend;
    if (argc < 3 || which < 0 || zesort_parse_backend(argv[1], &backend) != 0 ||
        zesort_parse_algo(argv[2], &g_algo) != 0) {
        fprintf(stderr, "usage: test_segments cpu|opencl|level-zero cm2|cm4|onesweep "
                        "[matrix|large|errors|budget|long|classes]\n");
        return 2;
    }
    g_backend = argv[1];
    if (zesort_create(backend, &g_ctx) != ZESORT_OK) {
        fprintf(stderr, "test_segments: no %s context: %s\n", g_backend, zesort_last_error(NULL));
        return 1;
    }
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, tests[which]);
    Suite *suite = suite_create("segments");
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    const int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    zesort_destroy(g_ctx);
    return failed != 0;
}
