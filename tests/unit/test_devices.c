/*
 * test_devices.c — device choice (issue 21, item 4): zesort_device_count,
 * zesort_device_name, zesort_create_on_device, zesort_context_device_index
 * on a backend with exactly two devices.
 *
 *   test_devices opencl        PoCL with POCL_DEVICES="pthread pthread"
 *   test_devices level-zero    the test driver with ZE_CL_DRIVER_DEVICES=2, or
 *                              ZE_CL_DRIVER_SUB_DEVICES=1 (a root device and its
 *                              sub-device)
 *
 * (meson sets the environment.) Both devices sort correctly and stably, each
 * context reports the device it was asked for, index 2 is refused with the
 * count in the message; AUTO, NULLs and the cpu backend's one device too.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_data.h"
#include "zesort.h"

static zesort_backend g_backend;

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

START_TEST(two_devices_listed)
{
    uint32_t count = 99;
    ck_assert_int_eq(zesort_device_count(g_backend, &count), ZESORT_OK);
    ck_assert_uint_eq(count, 2);
    char name[2][ZESORT_DEVICE_NAME_MAX];
    for (uint32_t i = 0; i < 2; i++) {
        ck_assert_int_eq(zesort_device_name(g_backend, i, name[i], sizeof name[i]), ZESORT_OK);
        ck_assert_msg(name[i][0] != '\0', "device %u has an empty name", i);
    }
    if (g_backend == ZESORT_BACKEND_LEVEL_ZERO) /* the driver names them #0, #1 */
        ck_assert_str_ne(name[0], name[1]);
    if (getenv("ZE_CL_DRIVER_SUB_DEVICES")) /* a root device, then its sub-device */
        ck_assert_msg(contains(name[1], "(sub-device 0)") && !contains(name[0], "sub-device"),
                      "devices: '%s', '%s'", name[0], name[1]);
    char small[8];
    ck_assert_int_eq(zesort_device_name(g_backend, 0, small, sizeof small), ZESORT_OK);
    ck_assert_uint_eq(strlen(small), sizeof small - 1); /* cut, terminated */
    ck_assert_int_eq(strncmp(small, name[0], sizeof small - 1), 0);
}
END_TEST

START_TEST(index_out_of_range_names_the_count)
{
    char name[ZESORT_DEVICE_NAME_MAX] = "x";
    ck_assert_int_eq(zesort_device_name(g_backend, 2, name, sizeof name), ZESORT_ERROR_NO_DEVICE);
    ck_assert_str_eq(name, "");
    const char *msg = zesort_last_error(NULL);
    ck_assert_msg(contains(msg, "device 2") && contains(msg, "there are 2"), "message: %s", msg);

    zesort_context *ctx = (zesort_context *)&ctx;
    ck_assert_int_eq(zesort_create_on_device(g_backend, 2, &ctx), ZESORT_ERROR_NO_DEVICE);
    ck_assert_ptr_null(ctx);
    msg = zesort_last_error(NULL);
    ck_assert_msg(contains(msg, zesort_backend_name(g_backend)) && contains(msg, "device 2") &&
                      contains(msg, "there are 2"),
                  "message: %s", msg);
    ck_assert_int_eq(zesort_create_on_device(g_backend, UINT32_MAX, &ctx),
                     ZESORT_ERROR_NO_DEVICE);
}
END_TEST

/* Sorts n keys with many duplicates and their indices as values; checks
 * order, stability and that the keys are the input's. */
static void sort_and_check(zesort_context *ctx)
{
    enum { N = 20000 };
    uint32_t *keys = malloc(N * sizeof *keys), *values = malloc(N * sizeof *values),
             *input = malloc(N * sizeof *input);
    ck_assert(keys && values && input);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (uint32_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input[i] = keys[i] = (uint32_t)x & 0x3FF; /* duplicates: stability shows */
        values[i] = i;
    }
    zesort_status st = zesort_sort(ctx, keys, values, N, NULL);
    ck_assert_msg(st == ZESORT_OK, "sort on %s: %s", zesort_context_device(ctx),
                  zesort_last_error(ctx));
    for (uint32_t i = 0; i < N; i++) {
        ck_assert_uint_eq(keys[i], input[values[i]]);
        if (i)
            ck_assert_msg(keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && values[i - 1] < values[i]),
                          "unsorted or unstable at %u", i);
    }
    free(keys);
    free(values);
    free(input);
}

START_TEST(each_device_sorts_and_reports_itself)
{
    uint32_t i = (uint32_t)_i;
    zesort_context *ctx = NULL;
    zesort_status st = zesort_create_on_device(g_backend, i, &ctx);
    ck_assert_msg(st == ZESORT_OK, "create on device %u: %s", i, zesort_last_error(NULL));
    ck_assert_int_eq(zesort_context_backend(ctx), g_backend);
    ck_assert_uint_eq(zesort_context_device_index(ctx), i);
    char name[ZESORT_DEVICE_NAME_MAX];
    ck_assert_int_eq(zesort_device_name(g_backend, i, name, sizeof name), ZESORT_OK);
    ck_assert_str_eq(zesort_context_device(ctx), name);
    sort_and_check(ctx);
    zesort_destroy(ctx);
}
END_TEST

/* Two contexts, one per device, used alternately. */
START_TEST(both_devices_at_once)
{
    zesort_context *a = NULL, *b = NULL;
    ck_assert_int_eq(zesort_create_on_device(g_backend, 0, &a), ZESORT_OK);
    ck_assert_int_eq(zesort_create_on_device(g_backend, 1, &b), ZESORT_OK);
    sort_and_check(b);
    sort_and_check(a);
    ck_assert_uint_eq(zesort_context_device_index(a), 0);
    ck_assert_uint_eq(zesort_context_device_index(b), 1);
    zesort_destroy(a);
    zesort_destroy(b);
}
END_TEST

START_TEST(default_context_is_device_0)
{
    zesort_context *ctx = NULL;
    ck_assert_int_eq(zesort_create(g_backend, &ctx), ZESORT_OK);
    ck_assert_uint_eq(zesort_context_device_index(ctx), 0);
    char name[ZESORT_DEVICE_NAME_MAX];
    ck_assert_int_eq(zesort_device_name(g_backend, 0, name, sizeof name), ZESORT_OK);
    ck_assert_str_eq(zesort_context_device(ctx), name);
    zesort_destroy(ctx);
}
END_TEST

START_TEST(bad_arguments)
{
    uint32_t count = 7;
    char name[64];
    zesort_context *ctx = NULL;
    ck_assert_int_eq(zesort_device_count(ZESORT_BACKEND_AUTO, &count), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(contains(zesort_last_error(NULL), "auto"), "%s", zesort_last_error(NULL));
    ck_assert_int_eq(zesort_device_name(ZESORT_BACKEND_AUTO, 0, name, sizeof name),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_create_on_device(ZESORT_BACKEND_AUTO, 0, &ctx),
                     ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_device_count((zesort_backend)9, &count), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_device_count(g_backend, NULL), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_device_name(g_backend, 0, NULL, 8), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_device_name(g_backend, 0, name, 0), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(zesort_create_on_device(g_backend, 0, NULL), ZESORT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(zesort_context_device_index(NULL), 0);
}
END_TEST

START_TEST(cpu_backend_has_one_device)
{
    uint32_t count = 0;
    ck_assert_int_eq(zesort_device_count(ZESORT_BACKEND_CPU, &count), ZESORT_OK);
    ck_assert_uint_eq(count, 1);
    zesort_context *ctx = NULL;
    ck_assert_int_eq(zesort_create_on_device(ZESORT_BACKEND_CPU, 0, &ctx), ZESORT_OK);
    ck_assert_str_eq(zesort_context_device(ctx), "host CPU (C fallback)");
    zesort_destroy(ctx);
    ck_assert_int_eq(zesort_create_on_device(ZESORT_BACKEND_CPU, 1, &ctx), ZESORT_ERROR_NO_DEVICE);
    ck_assert_msg(contains(zesort_last_error(NULL), "there is 1"), "%s", zesort_last_error(NULL));
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2 || zesort_parse_backend(argv[1], &g_backend) != 0 ||
        (g_backend != ZESORT_BACKEND_OPENCL && g_backend != ZESORT_BACKEND_LEVEL_ZERO)) {
        fprintf(stderr, "usage: test_devices opencl|level-zero\n");
        return 2;
    }
    uint32_t count = 0;
    if (zesort_device_count(g_backend, &count) == ZESORT_OK && count == 0) {
        printf("SKIP: no %s device\n", argv[1]);
        return TD_SKIP_EXIT;
    }
    Suite *s = suite_create("devices");
    TCase *tc = tcase_create("choice");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, two_devices_listed);
    tcase_add_test(tc, index_out_of_range_names_the_count);
    tcase_add_loop_test(tc, each_device_sorts_and_reports_itself, 0, 2);
    tcase_add_test(tc, both_devices_at_once);
    tcase_add_test(tc, default_context_is_device_0);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, cpu_backend_has_one_device);
    suite_add_tcase(s, tc);
    return td_run_suite(s);
}
