/*
 * test_limits.c — the host API at the limits of a machine (issue 33), on one
 * backend, without the memory those limits name: arrays that are never
 * touched are PROT_NONE reservations, so a library that reads them crashes
 * the test instead of passing it.
 *
 *   test_limits BACKEND PART
 *     BACKEND cpu | opencl | level-zero
 *     PART    argsort-u32  (defect 4) an argsort of more than 2^32 keys with
 *                          u32 indices: INVALID_ARGUMENT naming the u64 index
 *                          type, before any array is read
 *             host-memory  (defect 8) zesort_check counts the caller's arrays
 *                          and the split's copy against the host's memory
 *             alloc-limit  (defect 2, level-zero; run with POCL_MEMORY_LIMIT=1)
 *                          a sort whose keys exceed the device's largest
 *                          allocation (maxMemAllocSize, no relaxed limits
 *                          offered) is split by it, and sorts
 */
#include <check.h>
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "test_data.h"
#include "zesort.h"
#include "zesort_ze.h"

static zesort_backend g_backend;
static zesort_context *g_ctx;

/* bytes of address space that nothing may touch (never NULL) */
static void *reserve(uint64_t bytes)
{
    void *p = mmap(NULL, (size_t)bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    ck_assert_msg(p != MAP_FAILED, "cannot reserve %llu bytes of address space",
                  (unsigned long long)bytes);
    return p;
}

static uint64_t host_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int contains(const char *msg, const char *part) { return msg && strstr(msg, part); }

/* ---- defect 4 ---- */

START_TEST(argsort_u32_beyond_2_32)
{
    const uint64_t n = (UINT64_C(1) << 32) + 1;
    void *keys = reserve(n * 4), *indices = reserve(n * 4), *keys_out = reserve(n * 4);
    zesort_options o;
    zesort_options_default(&o); /* u32 indices */
    zesort_status st = zesort_argsort(g_ctx, keys, indices, NULL, n, &o);
    ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT && contains(zesort_last_error(g_ctx), "u64"),
                  "2^32 + 1 keys, u32 indices: %s: %s", zesort_status_name(st),
                  zesort_last_error(g_ctx));
    st = zesort_argsort(g_ctx, keys, indices, keys_out, n, &o);
    ck_assert_msg(st == ZESORT_ERROR_INVALID_ARGUMENT && contains(zesort_last_error(g_ctx), "u64"),
                  "with keys_out: %s: %s", zesort_status_name(st), zesort_last_error(g_ctx));
    munmap(keys, n * 4), munmap(indices, n * 4), munmap(keys_out, n * 4);
}
END_TEST

/* ---- defect 8 ---- */

START_TEST(check_counts_host_arrays)
{
    const uint64_t host = host_memory();
    ck_assert_uint_gt(host, 0);
    zesort_options o;
    zesort_options_default(&o);
    /* the caller's keys alone exceed the host (the C fallback sorts them in
     * place by vqsort, in one part: nothing else to count) */
    uint64_t n = host / 4 + 1;
    zesort_status st = zesort_check(g_ctx, n, 0, &o, NULL);
    ck_assert_msg(st == ZESORT_ERROR_OUT_OF_HOST_MEMORY &&
                      contains(zesort_last_error(g_ctx), "host memory"),
                  "%llu u32 keys (%.1f GiB of %.1f): %s: %s", (unsigned long long)n,
                  (double)n * 4 / (1u << 30), (double)host / (1u << 30), zesort_status_name(st),
                  zesort_last_error(g_ctx));
    /* keys of half the host: fine in one part, too much with a split's copy */
    n = host / 8 + 1;
    zesort_split_info info;
    st = zesort_check_split(g_ctx, n, 0, &o, &info);
    ck_assert_msg((st == ZESORT_OK && info.parts == 1) || st == ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                  "%llu u32 keys: %s, %llu parts, %.1f GiB of host memory for the split: %s",
                  (unsigned long long)n, zesort_status_name(st), (unsigned long long)info.parts,
                  (double)info.host_bytes / (1u << 30), zesort_last_error(g_ctx));
    /* and what fits still does */
    ck_assert_int_eq(zesort_check(g_ctx, 1u << 20, 1, &o, NULL), ZESORT_OK);
}
END_TEST

/* ---- defect 2 ---- */

/* The device's maxMemAllocSize, and whether its driver offers relaxed
 * allocation limits. */
static uint64_t max_alloc(int *relaxed)
{
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ck_assert_int_eq(zesort_ze_context_handles(g_ctx, &driver, NULL, &device), ZESORT_OK);
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ck_assert_int_eq(zeDeviceGetProperties(device, &p), ZE_RESULT_SUCCESS);
    uint32_t count = 0;
    ck_assert_int_eq(zeDriverGetExtensionProperties(driver, &count, NULL), ZE_RESULT_SUCCESS);
    ze_driver_extension_properties_t *e = calloc(count ? count : 1, sizeof *e);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(zeDriverGetExtensionProperties(driver, &count, e), ZE_RESULT_SUCCESS);
    *relaxed = 0;
    for (uint32_t i = 0; i < count; i++)
        *relaxed |= strcmp(e[i].name, ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME) == 0;
    free(e);
    return p.maxMemAllocSize;
}

START_TEST(split_by_largest_allocation)
{
    int relaxed;
    const uint64_t largest = max_alloc(&relaxed);
    if (relaxed || largest > (UINT64_C(1) << 30)) {
        printf("SKIP: relaxed allocation limits, or maxMemAllocSize %llu above 1 GiB "
               "(POCL_MEMORY_LIMIT=1 makes it 256 MiB)\n", (unsigned long long)largest);
        return;
    }
    const uint64_t n = largest / 4 + 1000; /* u32 keys: one more buffer of keys than fits */
    zesort_options o;
    zesort_options_default(&o);
    zesort_split_info info;
    zesort_status st = zesort_check_split(g_ctx, n, 0, &o, &info);
    ck_assert_msg(st == ZESORT_OK && info.parts >= 2 && info.part_keys * 4 <= largest,
                  "%llu keys, largest allocation %llu bytes: %s, %llu parts of %llu keys: %s",
                  (unsigned long long)n, (unsigned long long)largest, zesort_status_name(st),
                  (unsigned long long)info.parts, (unsigned long long)info.part_keys,
                  zesort_last_error(g_ctx));
    uint32_t *keys = td_alloc(n);
    td_fill(keys, n, TD_UNIFORM, n);
    const double t0 = now_s();
    st = zesort_sort(g_ctx, keys, NULL, n, &o);
    printf("sorted %llu keys in %.1f s\n", (unsigned long long)n, now_s() - t0);
    ck_assert_msg(st == ZESORT_OK, "sort of %llu keys: %s: %s", (unsigned long long)n,
                  zesort_status_name(st), zesort_last_error(g_ctx));
    uint64_t i = 1; /* (one assertion: Check's marks one a call, a write each) */
    while (i < n && keys[i - 1] <= keys[i])
        i++;
    ck_assert_msg(i >= n, "unsorted at %llu", (unsigned long long)i);
    zesort_sort_report r;
    ck_assert_int_eq(zesort_last_sort_report(g_ctx, &r), ZESORT_OK);
    ck_assert_uint_ge(r.parts, 2);
    td_free(keys);
}
END_TEST

int main(int argc, char **argv)
{
    const struct {
        const char *name;
        const TTest *test;
    } parts[] = {{"argsort-u32", argsort_u32_beyond_2_32},
                 {"host-memory", check_counts_host_arrays},
                 {"alloc-limit", split_by_largest_allocation}};
    int which = -1;
    for (int i = 0; argc == 3 && i < 3; i++)
        if (strcmp(argv[2], parts[i].name) == 0)
            which = i;
    if (which < 0 || zesort_parse_backend(argv[1], &g_backend) != 0 ||
        g_backend == ZESORT_BACKEND_AUTO ||
        (which == 2 && g_backend != ZESORT_BACKEND_LEVEL_ZERO)) {
        fprintf(stderr, "usage: test_limits cpu|opencl|level-zero argsort-u32|host-memory\n"
                        "       test_limits level-zero alloc-limit\n");
        return 2;
    }
    if (g_backend == ZESORT_BACKEND_OPENCL && td_skip_opencl())
        return TD_SKIP_EXIT;
    zesort_status st = zesort_create(g_backend, &g_ctx);
    if (st != ZESORT_OK) {
        fprintf(stderr, "zesort_create(%s): %s: %s\n", argv[1], zesort_status_name(st),
                zesort_last_error(NULL));
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create(parts[which].name);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, parts[which].test);
    suite_add_tcase(s, tc);
    const int rc = td_run_suite(s);
    zesort_destroy(g_ctx);
    return rc;
}
