/*
 * test_values.c — issue 21 items 1-3 on the host API of one backend: 8-byte
 * values, argsort and out-of-place sorts, against an oracle of its own (a
 * qsort of (ordered key bits, input position): stable by construction).
 *
 *   test_values BACKEND ALGO [PART]
 *     BACKEND cpu | opencl | level-zero, ALGO cm2 | cm4 | onesweep,
 *     PART    matrix (every key type x order x value type x bit range x
 *             size up to 4097, distributions with many ties) | large
 *             (65537 and 1000003 keys) | errors (bad inputs) | split (issue
 *             23: a device budget of 64 KiB, test hook, so that sorts of a
 *             few thousand keys are split on the host into parts)
 *
 * Every sort runs three ways: in place with values (u32 and u64 values that
 * carry the input position in their bits, so a value that moved wrong or
 * an unstable order shows), zesort_sort_copy (inputs compared byte for byte
 * afterwards), and zesort_argsort with u32 and u64 indices, with and without
 * keys_out. The oracle: tests/common/sort_oracle.h.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zesort.h>

#include "sort_oracle.h"
#include "common/test_hooks.h"

static const char *g_backend = "cpu";
static zesort_algo g_algo = ZESORT_ALGO_CM4;
static zesort_context *g_ctx;

static unsigned key_bytes(zesort_key_type t) { return oracle_key_bytes(t); }

/* The last key type: every backend sorts the narrow ones too (issue 37);
 * ZESORT_TEST_QUICK (the sanitizer stage) leaves them to the C fallback here
 * and to test_narrow on the devices. */
static int last_type(void)
{
    const int quick = getenv("ZESORT_TEST_QUICK") != NULL;
    return quick && strcmp(g_backend, "cpu") != 0 ? ZESORT_KEY_F64 : ZESORT_KEY_BF16;
}

/* The bit ranges of a w-bit key: all, one across digits, the top bit. */
static void ranges_of(unsigned w, unsigned r[3][2])
{
    const unsigned lo = w >= 32 ? 3 : 1, hi = w >= 32 ? 17 : w - 2;
    r[0][0] = 0, r[0][1] = 0, r[1][0] = lo, r[1][1] = hi, r[2][0] = w - 1, r[2][1] = w;
}

static void check_result(const void *keys, const uint64_t *perm, const void *keys_out,
                         const void *values_out, int indices, uint64_t n, unsigned kb,
                         unsigned vb, const char *what)
{
    const uint64_t bad = oracle_check(keys, perm, keys_out, values_out, indices, n, kb, vb);
    ck_assert_msg(bad == 0, "%s vb=%u: position %llu is wrong", what, vb,
                  (unsigned long long)bad - 1);
}

/* One key set, one option set: in place, out of place, argsort (both index
 * types, with and without the keys). */
static void run_case(uint64_t n, zesort_key_type t, int descending, unsigned lo, unsigned hi,
                     int dist)
{
    const unsigned kb = key_bytes(t);
    char what[160];
    snprintf(what, sizeof what, "%s %s n=%llu type=%d desc=%d bits=%u:%u dist=%d", g_backend,
             zesort_algo_name(g_algo), (unsigned long long)n, (int)t, descending, lo, hi, dist);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    o.algo = g_algo;
    o.descending = descending;
    o.bit_lo = lo;
    o.bit_hi = hi;
    const size_t cap = n ? n : 1;
    void *keys = malloc(cap * kb), *keys_copy = malloc(cap * kb), *work = malloc(cap * kb);
    uint64_t *vals_in = malloc(cap * 8), *vals_copy = malloc(cap * 8), *vals = malloc(cap * 8);
    ck_assert(keys && keys_copy && work && vals_in && vals_copy && vals);
    oracle_make_keys(keys, n, t, dist, n + (uint64_t)t * 7 + (uint64_t)lo);
    memcpy(keys_copy, keys, n * kb);
    uint64_t *perm = oracle_permutation(keys, n, &o);
    ck_assert(perm);

    for (unsigned vb = 4; vb <= 8; vb += 4) {
        o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = oracle_value(i, vb);
            memcpy((char *)vals_in + i * vb, &v, vb);
        }
        memcpy(vals_copy, vals_in, n * vb);
        /* in place */
        memcpy(work, keys, n * kb);
        memcpy(vals, vals_in, n * vb);
        zesort_status st = zesort_sort(g_ctx, work, vals, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s vb=%u: %s", what, vb, zesort_last_error(g_ctx));
        check_result(keys, perm, work, vals, 0, n, kb, vb, what);
        /* out of place: the inputs stay as they were, byte for byte */
        memset(work, 0xCD, n * kb);
        memset(vals, 0xCD, n * vb);
        st = zesort_sort_copy(g_ctx, keys, vals_in, work, vals, n, &o);
        ck_assert_msg(st == ZESORT_OK, "%s copy vb=%u: %s", what, vb, zesort_last_error(g_ctx));
        check_result(keys, perm, work, vals, 0, n, kb, vb, what);
        ck_assert_msg(memcmp(keys, keys_copy, n * kb) == 0 && memcmp(vals_in, vals_copy, n * vb) == 0,
                      "%s copy vb=%u: an input changed", what, vb);
        /* argsort, with and without the sorted keys */
        for (int with_keys = 0; with_keys < 2; with_keys++) {
            memset(work, 0xCD, n * kb);
            memset(vals, 0xCD, n * vb);
            st = zesort_argsort(g_ctx, keys, vals, with_keys ? work : NULL, n, &o);
            ck_assert_msg(st == ZESORT_OK, "%s argsort vb=%u: %s", what, vb,
                          zesort_last_error(g_ctx));
            check_result(keys, perm, with_keys ? work : NULL, vals, 1, n, kb, vb, what);
            ck_assert_msg(memcmp(keys, keys_copy, n * kb) == 0, "%s argsort: keys changed", what);
        }
    }
    free(perm);
    free(keys), free(keys_copy), free(work), free(vals_in), free(vals_copy), free(vals);
}

START_TEST(matrix)
{
    static const uint64_t sizes[] = {0, 1, 31, 32, 255, 256, 257, 1021, 4097, 65537};
    for (int t = ZESORT_KEY_U32; t <= last_type(); t++) {
        unsigned ranges[3][2];
        ranges_of(8 * key_bytes((zesort_key_type)t), ranges);
        for (int desc = 0; desc < 2; desc++)
            for (size_t r = 0; r < 3; r++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    if (sizes[s] < 65536 || t > ZESORT_KEY_F64) /* 65537: every u16 value */
                        run_case(sizes[s], (zesort_key_type)t, desc, ranges[r][0], ranges[r][1],
                                 (int)(s % 3));
    }
}
END_TEST

START_TEST(large)
{
    run_case(65537, ZESORT_KEY_U32, 0, 0, 0, 1);
    run_case(65537, ZESORT_KEY_F64, 1, 0, 0, 0);
    run_case(1000003, ZESORT_KEY_U64, 0, 0, 0, 0);
    run_case(1000003, ZESORT_KEY_I32, 1, 0, 0, 1);
}
END_TEST

/* Sorts bigger than the device budget: split on the host into parts, every
 * key type, order, value type, bit range, the three distributions (random,
 * five values, only the top bits: buckets bigger than a part split again,
 * and keys equal in the range kept in input order); zesort_check_split
 * says so beforehand. */
START_TEST(split)
{
    zs_test_device_budget(64u << 10);
    zesort_options o;
    zesort_options_default(&o);
    o.algo = g_algo;
    zesort_split_info info;
    ck_assert_int_eq(zesort_check_split(g_ctx, 50021, 1, &o, &info), ZESORT_OK);
    ck_assert_msg(info.parts > 1 && info.part_keys < 50021 && info.host_bytes == 50021u * 8,
                  "parts %llu of %llu keys, host %llu bytes", (unsigned long long)info.parts,
                  (unsigned long long)info.part_keys, (unsigned long long)info.host_bytes);
    o.key_type = ZESORT_KEY_U8; /* narrow keys split too */
    ck_assert_int_eq(zesort_check_split(g_ctx, 20011, 1, &o, &info), ZESORT_OK);
    ck_assert_msg(info.parts > 1 && info.host_bytes == 20011u * 5, "u8: parts %llu",
                  (unsigned long long)info.parts);
    o.key_type = ZESORT_KEY_U32;
    ck_assert_int_eq(zesort_check_split(g_ctx, 100, 1, &o, &info), ZESORT_OK);
    ck_assert_uint_eq(info.parts, 1);
    ck_assert_uint_eq(info.host_bytes, 0);
    static const uint64_t sizes[] = {3001, 20011};
    for (int t = ZESORT_KEY_U32; t <= last_type(); t++) {
        unsigned ranges[3][2];
        ranges_of(8 * key_bytes((zesort_key_type)t), ranges);
        for (int desc = 0; desc < 2; desc++)
            for (size_t r = 0; r < 3; r++)
                for (size_t s = 0; s < 2; s++)
                    run_case(sizes[s], (zesort_key_type)t, desc, ranges[r][0], ranges[r][1],
                             (int)((s + r + (size_t)t) % 3));
    }
    zs_test_device_budget(0);
}
END_TEST

/* Bad inputs: a clear error, nothing written to the caller's inputs. */
START_TEST(errors)
{
    uint32_t keys[64], vals[64], out[64];
    for (int i = 0; i < 64; i++)
        keys[i] = (uint32_t)(64 - i), vals[i] = (uint32_t)i;
    uint32_t keys_copy[64];
    memcpy(keys_copy, keys, sizeof keys);
    zesort_options o;
    zesort_options_default(&o);
    o.value_type = (zesort_value_type)7;
    ck_assert_int_eq(zesort_sort(g_ctx, keys, vals, 64, &o), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(zesort_last_error(g_ctx), "value type 7"));
    zesort_options_default(&o);
    o.value_type = ZESORT_VALUE_U64;
    /* u64 values at a 4-byte boundary */
    uint64_t v64[65];
    ck_assert_int_eq(zesort_sort(g_ctx, keys, (char *)v64 + 4, 64, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    /* u64 values over the keys: keys and values overlap (8 bytes each) */
    ck_assert_int_eq(zesort_sort(g_ctx, keys, (char *)keys + 0, 16, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    /* out of place: output over the input */
    zesort_options_default(&o);
    ck_assert_int_eq(zesort_sort_copy(g_ctx, keys, NULL, keys + 8, NULL, 32, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(zesort_last_error(g_ctx), "overlap"));
    ck_assert_int_eq(zesort_sort_copy(g_ctx, keys, vals, out, NULL, 32, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    /* argsort: indices over the keys, NULL indices */
    ck_assert_int_eq(zesort_argsort(g_ctx, keys, keys + 4, NULL, 32, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(zesort_last_error(g_ctx), "indices"));
    ck_assert_int_eq(zesort_argsort(g_ctx, keys, NULL, NULL, 32, &o),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_argsort(g_ctx, keys, NULL, NULL, 0, &o), ZESORT_OK);
    ck_assert_int_eq(memcmp(keys, keys_copy, sizeof keys), 0);
    /* zesort_check counts 8-byte values: u64 values need more than u32 ones */
    uint64_t b32 = 0, b64 = 0;
    ck_assert_int_eq(zesort_check(g_ctx, 100000, 1, &o, &b32), ZESORT_OK);
    o.value_type = ZESORT_VALUE_U64;
    ck_assert_int_eq(zesort_check(g_ctx, 100000, 1, &o, &b64), ZESORT_OK);
    if (zesort_context_backend(g_ctx) != ZESORT_BACKEND_CPU)
        ck_assert_uint_eq(b64 - b32, 2 * 4 * 100000u); /* values and their ping-pong partner */
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_values cpu|opencl|level-zero cm2|cm4|onesweep "
                        "[matrix|large|errors|split]\n");
        return 2;
    }
    g_backend = argv[1];
    zesort_backend backend;
    if (zesort_parse_backend(argv[1], &backend) != 0 || zesort_parse_algo(argv[2], &g_algo) != 0)
        return 2;
    const char *part = argc > 3 ? argv[3] : "matrix";
    if (zesort_create(backend, &g_ctx) != ZESORT_OK) {
        fprintf(stderr, "zesort_create(%s): %s\n", argv[1], zesort_last_error(NULL));
        return 1;
    }
    Suite *s = suite_create("values");
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, strcmp(part, "large") == 0    ? large
                       : strcmp(part, "errors") == 0 ? errors
                       : strcmp(part, "split") == 0  ? split
                                                     : matrix);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    zesort_destroy(g_ctx);
    return failed ? 1 : 0;
}
