/*
 * test_plain_gpu.c — the OpenCL backend on "any OpenCL GPU" (issue 36, item
 * 3): PoCL made to look like a plain OpenCL 1.2 GPU of another vendor by the
 * test hook ZESORT_TEST_OPENCL_PLAIN_GPU=1 (common/test_hooks.h: GPU, no Intel
 * sub-groups, no OpenCL C 3.0, no native binaries; at most 1024 work-items
 * and 48 KiB of local memory per launch, as NVIDIA's driver). The device must
 * then run the portable flavor, built from the embedded source as OpenCL C 1.2.
 *
 *   test_plain_gpu sorts cm2|cm4|onesweep
 *       every kind of host sort with that algorithm on the default device
 *       (which must be the OpenCL "GPU": AUTO takes it): 32- and 64-bit keys,
 *       sizes 0, 1, 33, 257, primes and 100003, device and host scans,
 *       descending, bit ranges, pairs (4- and 8-byte values; 1.6 MB of
 *       results once), argsort, copy, segmented. Oracle: cm_reference's typed stable sort (its permutation
 *       gives the keys, values and indices). ZESORT_TEST_SORT_LOG (set here)
 *       must say that every sort that ran was "opencl portable".
 *   test_plain_gpu sorts ALGO nv
 *       the same on an NVIDIA GPU (hook value "nv"): the sg (nv) flavor, its
 *       warp operations emulated with Intel sub-groups (PoCL 6: Debian 13).
 *   test_plain_gpu limits
 *       every kernel of every program, built the way the backend builds it
 *       under the hook: CL_KERNEL_LOCAL_MEM_SIZE <= 48 KiB and its required
 *       work-group size <= 1024; the hook refuses a launch over either limit,
 *       and is off without the variable.
 *
 * The hook is set here (setenv before any context), and Level Zero drivers
 * hidden (ZE_ENABLE_ALT_DRIVERS naming none), so that AUTO meets this GPU
 * first. ZESORT_TEST_SKIP_OPENCL=1 skips (exit 77). No fork: one process,
 * contexts opened per test.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/opencl/opencl_common.h"
#include "cm_reference.h"
#include "common/test_hooks.h"
#include "test_data.h"
#include "zesort.h"

static zesort_algo g_algo;
static char g_log[64];          /* ZESORT_TEST_SORT_LOG */
static unsigned g_log_lines;    /* sorts seen in it so far */
static zesort_context *g_ctx;

/* The GPU the hook plays: "1" a plain one (the portable flavor), or with a
 * third argument "nv" an NVIDIA one (sg (nv), its warp operations emulated
 * with Intel sub-groups: PoCL 6 only, the Debian 13 stage). */
static const char *g_hook = "1";
static const char *g_flavor_name = "portable";
static zs_flavor g_flavor = ZS_FLAVOR_PORTABLE;

/* ---- the sort log: every sort that ran was the portable flavor's ---- */

/* Checks every line of the log and returns how many there are. */
static unsigned log_lines(void)
{
    FILE *f = fopen(g_log, "r");
    if (!f)
        return 0;
    char line[128], want[64];
    snprintf(want, sizeof want, "opencl %s\n", g_flavor_name);
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        ck_assert_msg(strcmp(line, want) == 0, "sort %u ran as '%.*s', not 'opencl %s'", n + 1,
                      (int)strcspn(line, "\n"), line, g_flavor_name);
        n++;
    }
    fclose(f);
    return n;
}

/* After a sort of n keys: it ran on the device (n >= 2 reach the device),
 * in the portable flavor. */
static void expect_portable_ran(uint64_t n, const char *what)
{
    const unsigned now = log_lines();
    if (n >= 2)
        ck_assert_msg(now > g_log_lines, "%s, n=%llu: no sort noted in the log", what,
                      (unsigned long long)n);
    g_log_lines = now;
}

/* ---- data and oracle ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static size_t key_bytes(zesort_key_type t) { return t >= ZESORT_KEY_U64 ? 8 : 4; }

/* n keys of type t: random bits, every fourth key a repeat of an earlier
 * one (equal keys show stability); 64-bit keys differ above bit 32 too. */
static void *make_keys(zesort_key_type t, uint64_t n, uint64_t seed)
{
    unsigned char *k = (unsigned char *)td_alloc((n * key_bytes(t) + 3) / 4 + 1);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = rng_next(&s);
        if (i > 3 && i % 4 == 0)
            memcpy(&v, k + (v % i) * key_bytes(t), key_bytes(t));
        memcpy(k + i * key_bytes(t), &v, key_bytes(t));
    }
    return k;
}

/* The stable order of `keys` as cm_reference sorts it: perm[i] is the input
 * index of the i-th key of the output. */
static uint32_t *oracle_perm(const void *keys, uint64_t n, const zesort_options *o)
{
    uint32_t *perm = td_alloc(n);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    unsigned char *copy = (unsigned char *)td_alloc((n * key_bytes(o->key_type) + 3) / 4 + 1);
    memcpy(copy, keys, n * key_bytes(o->key_type));
    ck_assert_int_eq(cmref_sort(copy, perm, n, (cmref_key_type)o->key_type, o->descending,
                                o->bit_lo, o->bit_hi, 4), 0);
    td_free(copy);
    return perm;
}

/* out[i] == in[perm[i]] for elements of `size` bytes. */
static void expect_permuted(const void *out, const void *in, const uint32_t *perm, uint64_t n,
                            size_t size, const char *what)
{
    for (uint64_t i = 0; i < n; i++)
        ck_assert_msg(memcmp((const char *)out + i * size, (const char *)in + perm[i] * size,
                             size) == 0,
                      "%s: n=%llu: first difference at %llu", what, (unsigned long long)n,
                      (unsigned long long)i);
}

/* ---- the sorts ---- */

static void open_context(void)
{
    /* AUTO: the "GPU" is taken before the C fallback, as NVIDIA's would be */
    ck_assert_msg(zesort_create(ZESORT_BACKEND_AUTO, &g_ctx) == ZESORT_OK, "%s",
                  zesort_last_error(NULL));
    ck_assert_int_eq(zesort_context_backend(g_ctx), ZESORT_BACKEND_OPENCL);
    ck_assert_str_eq(zesort_context_flavor(g_ctx), g_flavor_name);
    g_log_lines = log_lines();
}

static void close_context(void)
{
    zesort_destroy(g_ctx);
    g_ctx = NULL;
    td_free_all();
}

static zesort_options options(zesort_key_type t, int descending, unsigned lo, unsigned hi)
{
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t;
    o.algo = g_algo;
    o.descending = descending;
    o.bit_lo = lo;
    o.bit_hi = hi;
    return o;
}

/* In place: keys only, or with values of o->value_type (value i = i, and
 * i << 32 | i for 8-byte values). */
static void sort_case(uint64_t n, const zesort_options *o, int pairs, uint64_t seed)
{
    void *keys = make_keys(o->key_type, n, seed);
    void *in = td_alloc((n * key_bytes(o->key_type) + 3) / 4 + 1);
    memcpy(in, keys, n * key_bytes(o->key_type));
    const size_t vsize = o->value_type == ZESORT_VALUE_U64 ? 8 : 4;
    unsigned char *vals = pairs ? (unsigned char *)td_alloc(n * 2 + 1) : NULL;
    unsigned char *vals_in = pairs ? (unsigned char *)td_alloc(n * 2 + 1) : NULL;
    for (uint64_t i = 0; pairs && i < n; i++) {
        const uint64_t v = i << 32 | i;
        memcpy(vals + i * vsize, &v, vsize);
    }
    if (pairs)
        memcpy(vals_in, vals, n * vsize);
    ck_assert_msg(zesort_sort(g_ctx, keys, vals, n, o) == ZESORT_OK, "%s",
                  zesort_last_error(g_ctx));
    uint32_t *perm = oracle_perm(in, n, o);
    expect_permuted(keys, in, perm, n, key_bytes(o->key_type), "keys");
    if (pairs)
        expect_permuted(vals, vals_in, perm, n, vsize, "values");
    expect_portable_ran(n, "zesort_sort");
    td_free_all();
}

START_TEST(keys_32)
{
    open_context();
    const uint64_t sizes[] = {0, 1, 33, 257, 4099, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        zesort_options o = options(ZESORT_KEY_U32, 0, 0, 0);
        sort_case(sizes[i], &o, 0, i);
        o.scan = ZESORT_SCAN_HOST;
        if (sizes[i] != 100003 || g_algo != ZESORT_ALGO_CM2)
            sort_case(sizes[i], &o, 0, i + 100);
    }
    zesort_options o = options(ZESORT_KEY_F32, 1, 0, 0);
    sort_case(4099, &o, 0, 3);
    o = options(ZESORT_KEY_I32, 0, 3, 29);
    sort_case(7919, &o, 0, 4);
    close_context();
}
END_TEST

START_TEST(keys_64)
{
    open_context();
    const uint64_t sizes[] = {33, 257, 10007};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        zesort_options o = options(ZESORT_KEY_I64, 0, 0, 0);
        sort_case(sizes[i], &o, 0, i + 10);
    }
    zesort_options o = options(ZESORT_KEY_F64, 1, 0, 0);
    o.scan = ZESORT_SCAN_HOST;
    sort_case(4099, &o, 0, 11);
    o = options(ZESORT_KEY_U64, 0, 5, 37);
    sort_case(4099, &o, 0, 12);
    close_context();
}
END_TEST

START_TEST(pairs)
{
    open_context();
    zesort_options o = options(ZESORT_KEY_I32, 1, 0, 0);
    sort_case(4099, &o, 1, 20);
    sort_case(33, &o, 1, 21);
    o = options(ZESORT_KEY_U64, 0, 0, 0);
    o.value_type = ZESORT_VALUE_U64;
    sort_case(1009, &o, 1, 22);
    o = options(ZESORT_KEY_F32, 0, 2, 30);
    o.value_type = ZESORT_VALUE_U64;
    sort_case(2003, &o, 1, 23);
    /* over 1 MiB of results: what a device sharing the host's memory would
     * map, the played discrete GPU reads back */
    o = options(ZESORT_KEY_U32, 0, 0, 0);
    sort_case(200003, &o, 1, 24);
    close_context();
}
END_TEST

/* zesort_argsort (with and without keys_out) and zesort_sort_copy. */
static void argsort_case(uint64_t n, const zesort_options *o, int with_keys_out)
{
    void *keys = make_keys(o->key_type, n, n + 7);
    const size_t ks = key_bytes(o->key_type), is = o->value_type == ZESORT_VALUE_U64 ? 8 : 4;
    void *keys_out = with_keys_out ? td_alloc(n * 2 + 1) : NULL;
    unsigned char *idx = (unsigned char *)td_alloc(n * 2 + 1);
    ck_assert_msg(zesort_argsort(g_ctx, keys, idx, keys_out, n, o) == ZESORT_OK, "%s",
                  zesort_last_error(g_ctx));
    uint32_t *perm = oracle_perm(keys, n, o);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t got = 0;
        memcpy(&got, idx + i * is, is);
        ck_assert_msg(got == perm[i], "argsort n=%llu: index %llu is %llu, want %u",
                      (unsigned long long)n, (unsigned long long)i, (unsigned long long)got,
                      perm[i]);
    }
    if (keys_out)
        expect_permuted(keys_out, keys, perm, n, ks, "argsort keys_out");
    expect_portable_ran(n, "zesort_argsort");
    td_free_all();
}

START_TEST(argsort_copy)
{
    open_context();
    zesort_options o = options(ZESORT_KEY_F32, 0, 0, 0);
    argsort_case(4099, &o, 1);
    o = options(ZESORT_KEY_I64, 1, 0, 0);
    o.value_type = ZESORT_VALUE_U64;
    argsort_case(1009, &o, 0);

    const uint64_t n = 5003;
    o = options(ZESORT_KEY_U32, 0, 0, 0);
    uint32_t *keys = make_keys(o.key_type, n, 31), *vals = td_alloc(n);
    for (uint64_t i = 0; i < n; i++)
        vals[i] = (uint32_t)i;
    uint32_t *keys_out = td_alloc(n), *vals_out = td_alloc(n);
    ck_assert_msg(zesort_sort_copy(g_ctx, keys, vals, keys_out, vals_out, n, &o) == ZESORT_OK,
                  "%s", zesort_last_error(g_ctx));
    uint32_t *perm = oracle_perm(keys, n, &o);
    expect_permuted(keys_out, keys, perm, n, 4, "copy keys");
    expect_permuted(vals_out, vals, perm, n, 4, "copy values");
    expect_portable_ran(n, "zesort_sort_copy");
    close_context();
}
END_TEST

/* Segments of many lengths (empty, 1, short, one over 65536 keys, which is
 * sorted as a sort of its own) sorted on their own, with values. */
static void segments_case(zesort_key_type t)
{
    const uint64_t lens[] = {0, 1, 5, 33, 300, 0, 4099, 70001, 2, 257};
    const uint64_t segs = sizeof lens / sizeof lens[0];
    uint64_t offsets[sizeof lens / sizeof lens[0] + 1] = {0};
    for (uint64_t s = 0; s < segs; s++)
        offsets[s + 1] = offsets[s] + lens[s];
    const uint64_t n = offsets[segs];
    zesort_options o = options(t, t == ZESORT_KEY_I64, 0, 0);
    const size_t ks = key_bytes(t);
    unsigned char *keys = make_keys(t, n, 41), *in = (unsigned char *)td_alloc(n * 2 + 1);
    memcpy(in, keys, n * ks);
    uint32_t *vals = td_alloc(n);
    for (uint64_t i = 0; i < n; i++)
        vals[i] = (uint32_t)i;
    ck_assert_msg(zesort_sort_segments(g_ctx, keys, vals, n, offsets, segs, &o) == ZESORT_OK,
                  "%s", zesort_last_error(g_ctx));
    for (uint64_t s = 0; s < segs; s++) {
        const uint64_t b = offsets[s], len = lens[s];
        uint32_t *perm = oracle_perm(in + b * ks, len, &o);
        expect_permuted(keys + b * ks, in + b * ks, perm, len, ks, "segment keys");
        for (uint64_t i = 0; i < len; i++)
            ck_assert_uint_eq(vals[b + i], b + perm[i]);
        td_free(perm);
    }
    expect_portable_ran(n, "zesort_sort_segments");
    td_free_all();
}

START_TEST(segmented)
{
    open_context();
    segments_case(ZESORT_KEY_U32);
    segments_case(ZESORT_KEY_I64);
    close_context();
}
END_TEST

/* ---- the kernels' limits ---- */

static cl_device_id first_device(void)
{
    cl_platform_id plat;
    cl_device_id dev;
    ck_assert_int_eq(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
    ck_assert_int_eq(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
    return dev;
}

START_TEST(kernel_limits)
{
    cl_device_id dev = first_device();
    cl_int err;
    zs_cl_kernels k = {.device = dev};
    k.context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    char msg[256];
    ck_assert_int_eq(zs_cl_device_flavor(dev, &k.flavor, msg, sizeof msg), 0);
    ck_assert_int_eq(k.flavor, g_flavor);
    ck_assert_int_eq(zs_cl_device_is_gpu(dev), 1);
    for (int id = 0; id < ZS_K_COUNT; id++) {
        cl_kernel kernel;
        zs_error e = {0};
        ck_assert_msg(zs_cl_kernel(&k, (zs_kernel)id, &kernel, &e, NULL) == ZESORT_OK,
                      "%s: %s", zs_kernel_name((zs_kernel)id), e.text);
        cl_ulong local_bytes = 0;
        size_t wg[3] = {0};
        ck_assert_int_eq(clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_LOCAL_MEM_SIZE,
                                                  sizeof local_bytes, &local_bytes, NULL),
                         CL_SUCCESS);
        ck_assert_int_eq(clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                  sizeof wg, wg, NULL), CL_SUCCESS);
        printf("%-18s %-16s local %6llu bytes, work-group %zu\n",
               zs_program_name(zs_kernel_program((zs_kernel)id)), zs_kernel_name((zs_kernel)id),
               (unsigned long long)local_bytes, wg[0]);
        ck_assert_msg(local_bytes <= ZS_PLAIN_GPU_LOCAL_BYTES, "%s of %s: %llu bytes of local "
                      "memory", zs_kernel_name((zs_kernel)id),
                      zs_program_name(zs_kernel_program((zs_kernel)id)),
                      (unsigned long long)local_bytes);
        ck_assert_msg(wg[0] * (wg[1] ? wg[1] : 1) * (wg[2] ? wg[2] : 1) <= ZS_PLAIN_GPU_MAX_WG,
                      "%s: a work-group of %zu", zs_kernel_name((zs_kernel)id), wg[0]);
        /* the hook's own check: this launch passes, a bigger group does not */
        char why[128];
        const size_t launched = wg[0] ? wg[0] : ZS_OS_FILL_WG; /* os_fill: no fixed size */
        ck_assert_int_eq(zs_cl_launch_limits(kernel, dev, launched, why, sizeof why), CL_SUCCESS);
        ck_assert_int_eq(zs_cl_launch_limits(kernel, dev, ZS_PLAIN_GPU_MAX_WG + 1, why,
                                             sizeof why), CL_INVALID_WORK_GROUP_SIZE);
    }
    zs_cl_kernels_release(&k);
    clReleaseContext(k.context);
}
END_TEST

/* The hook refuses a kernel with more local memory than 48 KiB, and is off
 * without its variable (a CPU device again: the serial flavor). */
START_TEST(hook_limits)
{
    cl_device_id dev = first_device();
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    const char *src = "__kernel void big(__global uint *o) { __local uint a[16384];\n"
                      "  a[get_local_id(0)] = 1u; barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  o[get_global_id(0)] = a[16383 - get_local_id(0)]; }\n";
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    ck_assert_int_eq(clBuildProgram(p, 1, &dev, "-cl-std=CL1.2", NULL, NULL), CL_SUCCESS);
    cl_kernel big = clCreateKernel(p, "big", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    char why[128] = "";
    ck_assert_int_eq(zs_cl_launch_limits(big, dev, 64, why, sizeof why), CL_OUT_OF_RESOURCES);
    ck_assert_msg(strstr(why, "bytes of local memory, over the device's 49152"), "%s", why);

    unsetenv("ZESORT_TEST_OPENCL_PLAIN_GPU");
    ck_assert_int_eq(zs_cl_launch_limits(big, dev, 64, why, sizeof why), CL_SUCCESS);
    ck_assert_int_eq(zs_cl_launch_limits(big, dev, 4096, why, sizeof why), CL_SUCCESS);
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    ck_assert_int_eq(zs_cl_device_is_gpu(dev), (type & CL_DEVICE_TYPE_GPU) != 0);
    setenv("ZESORT_TEST_OPENCL_PLAIN_GPU", g_hook, 1);
    clReleaseKernel(big);
    clReleaseProgram(p);
    clReleaseContext(context);
}
END_TEST

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "";
    const char *algo = argc > 2 ? argv[2] : "";
    if (td_skip_opencl())
        return TD_SKIP_EXIT;
    if (argc > 3 && strcmp(argv[3], "nv") == 0) {
        g_hook = "nv";
        g_flavor_name = "sg (nv)";
        g_flavor = ZS_FLAVOR_SG_NV;
    }
    setenv("ZESORT_TEST_OPENCL_PLAIN_GPU", g_hook, 1);
    /* no Level Zero GPU either (as the sanitized runs): AUTO's first choice
     * would be one, and this machine plays one whose only GPU is OpenCL's */
    setenv("ZE_ENABLE_ALT_DRIVERS", "libzesort-test-no-such-driver.so.1", 1);
    snprintf(g_log, sizeof g_log, "/tmp/zesort-plain-gpu-%ld.log", (long)getpid());
    unlink(g_log);
    setenv("ZESORT_TEST_SORT_LOG", g_log, 1);
    Suite *s = suite_create("plain-gpu");
    TCase *tc = tcase_create(part);
    tcase_set_timeout(tc, 600);
    if (strcmp(part, "sorts") == 0) {
        g_algo = strcmp(algo, "cm2") == 0   ? ZESORT_ALGO_CM2
                 : strcmp(algo, "cm4") == 0 ? ZESORT_ALGO_CM4
                                            : ZESORT_ALGO_ONESWEEP;
        tcase_add_test(tc, keys_32);
        tcase_add_test(tc, keys_64);
        tcase_add_test(tc, pairs);
        tcase_add_test(tc, argsort_copy);
        tcase_add_test(tc, segmented);
    } else if (strcmp(part, "limits") == 0) {
        tcase_add_test(tc, kernel_limits);
        tcase_add_test(tc, hook_limits);
    } else {
        fprintf(stderr, "usage: test_plain_gpu sorts cm2|cm4|onesweep [nv] | limits\n");
        return 2;
    }
    suite_add_tcase(s, tc);
    const int rc = td_run_suite(s);
    unlink(g_log);
    return rc;
}
