/*
 * test_topk_cl.c — zesort_cl_enqueue_topk on the OpenCL device present
 * (PoCL here), on an out-of-order queue where the device has one (else
 * in order): keys only, values, indices, both orders, f32 and u64 keys, k
 * from 0 past n, a device-side count, temp a sub-buffer; results against
 * the first k of a stable qsort permutation (tests/common/sort_oracle.h).
 * A device-side count is two thirds of n (the top k of the first count
 * keys), and every enqueue whose candidates' room is below n must have run
 * the select.
 */
#define CL_TARGET_OPENCL_VERSION 120 /* the 1.2 API: clCreateCommandQueue */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "plan/plan_topk.h"
#include "sort_oracle.h"
#include "zesort_cl.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;
static zesort_cl_sorter *sorter;
static int failures;

#define CL_OK(x)                                                                       \
    do {                                                                               \
        cl_int e_ = (x);                                                               \
        if (e_ != CL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, (int)e_);       \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static cl_mem buffer(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes ? bytes : 8, NULL, &err);
    CL_OK(err);
    return m;
}

/* One top-k: out 0 keys, 1 keys + values, 2 indices only, 3 keys + indices. */
static void run_case(uint64_t n, uint64_t k, zesort_key_type t, int desc, int out, int count)
{
    const unsigned kb = oracle_key_bytes(t), vb = out == 1 ? 8 : 4;
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    uint64_t tb = 0, align = 0, unused;
    CL_OK(zesort_cl_topk_temp_bytes(sorter, n, out != 0, &o, &tb) == ZESORT_OK ? 0 : -1);
    CL_OK(zesort_cl_temp_requirements(sorter, 1, 0, &o, &unused, &align) == ZESORT_OK ? 0 : -1);
    char *orig = malloc(n * kb + 8), *vals = malloc(n * vb + 8);
    char *ko = malloc(n * kb + 8), *vo = malloc(n * 8 + 8);
    oracle_make_keys(orig, n, t, (int)(k % 2), n + k + 1);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb);
        memcpy(vals + i * vb, &v, vb);
    }
    cl_mem keys = buffer(n * kb), vin = buffer(n * vb), kout = buffer(n * kb + 8);
    cl_mem vout = buffer(n * 8 + 8), big = buffer(tb + align + 8), cnt = buffer(4);
    /* temp a sub-buffer at the alignment: the parts are made of its root */
    cl_buffer_region region = {(size_t)align, (size_t)(tb ? tb : 8)};
    cl_int err;
    cl_mem temp = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                    &err);
    CL_OK(err);
    /* the top k of the first two thirds when the count is on the device */
    const uint64_t c = count ? n - n / 3 : n;
    const uint32_t c32 = (uint32_t)c;
    if (n) {
        CL_OK(clEnqueueWriteBuffer(q, keys, CL_TRUE, 0, n * kb, orig, 0, NULL, NULL));
        CL_OK(clEnqueueWriteBuffer(q, vin, CL_TRUE, 0, n * vb, vals, 0, NULL, NULL));
    }
    CL_OK(clEnqueueWriteBuffer(q, cnt, CL_TRUE, 0, 4, &c32, 0, NULL, NULL));
    const int wk = out != 2, wv = out == 1, wi = out >= 2;
    cl_event ev = NULL;
    const unsigned long selects = zs_test_selects();
    zesort_status st = zesort_cl_enqueue_topk(sorter, q, keys, wv ? vin : NULL, wk ? kout : NULL,
                                              wv ? vout : NULL, wi ? vout : NULL, n,
                                              count ? cnt : NULL, k, temp, tb, &o, 0, NULL, &ev);
    char what[160];
    snprintf(what, sizeof what, "n=%llu k=%llu type=%d desc=%d out=%d count=%d",
             (unsigned long long)n, (unsigned long long)k, (int)t, desc, out, count);
    const uint64_t m = k < c ? k : c;
    if (st != ZESORT_OK) {
        printf("FAIL %s: %s\n", what, zesort_cl_last_error(sorter));
        failures++;
    } else {
        /* read only after the event: the queue may be out of order */
        if (m)
            CL_OK(clEnqueueReadBuffer(q, kout, CL_TRUE, 0, m * kb, ko, 1, &ev, NULL));
        if (m)
            CL_OK(clEnqueueReadBuffer(q, vout, CL_TRUE, 0, m * vb, vo, 1, &ev, NULL));
        CL_OK(clWaitForEvents(1, &ev));
        uint64_t *perm = oracle_permutation(orig, c, &o);
        const uint64_t bad = oracle_check(orig, perm, wk ? ko : NULL, wv || wi ? vo : NULL, wi, m,
                                          kb, vb);
        const int select = n > 0 && k > 0 && zs_topk_room(n, k) < n;
        const int path = zs_test_selects() - selects == (unsigned long)select;
        printf("%s %s%s\n", bad || !path ? "FAIL" : "ok  ", what,
               path ? "" : select ? ": no select" : ": a select");
        failures += bad || !path;
        free(perm);
        clReleaseEvent(ev);
    }
    CL_OK(clFinish(q));
    cl_mem all[] = {temp, keys, vin, kout, vout, big, cnt};
    for (unsigned i = 0; i < 7; i++)
        clReleaseMemObject(all[i]);
    free(orig), free(vals), free(ko), free(vo);
}

int main(void)
{
    cl_platform_id plat;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        printf("SKIP: no OpenCL device\n");
        return 77;
    }
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CL_OK(err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS)
        q = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_OK(err);
    if (zesort_cl_create(ctx, dev, &sorter) != ZESORT_OK) {
        fprintf(stderr, "zesort_cl_create: %s\n", zesort_cl_last_error(NULL));
        return 1;
    }
    static const uint64_t sizes[] = {0, 1, 1000, 70001};
    for (unsigned si = 0; si < 4; si++) {
        const uint64_t n = sizes[si];
        const uint64_t ks[] = {0, 1, 33, n / 2, n, n + 5};
        for (unsigned ki = 0; ki < 6; ki++)
            for (int out = 0; out < 4; out++)
                run_case(n, ks[ki], (ki + out) % 2 ? ZESORT_KEY_F32 : ZESORT_KEY_U64,
                         (int)(ki % 2), out, ki == 2 || ki == 3);
    }
    cl_mem x = buffer(64);
    const int e1 = zesort_cl_enqueue_topk(sorter, q, x, x, x, x, x, 1, NULL, 1, x, 64, NULL, 0,
                                          NULL, NULL) == ZESORT_ERROR_INVALID_ARGUMENT;
    const int e2 = zesort_cl_enqueue_topk(sorter, q, x, NULL, NULL, NULL, NULL, 1, NULL, 1, x, 64,
                                          NULL, 0, NULL, NULL) == ZESORT_ERROR_INVALID_ARGUMENT;
    printf("%s errors\n", e1 && e2 ? "ok  " : "FAIL");
    failures += !(e1 && e2);
    clReleaseMemObject(x);
    zesort_cl_destroy(sorter);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("%d failed\n", failures);
    return failures != 0;
}
