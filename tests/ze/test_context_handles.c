/*
 * test_context_handles.c — zesort_ze_context_handles and
 * zesort_cl_context_handles: the handles of a zesort context's own device
 * serve the interop sorts on memory the program allocates there, and the
 * context's host sorts go on working alongside; a context of another
 * backend, or none, is refused with every output cleared.
 * Level Zero on the test driver with ZE_CL_DRIVER_DEVICES=2 (each device
 * index must give that device of the driver's list); OpenCL on PoCL.
 */
#define CL_TARGET_OPENCL_VERSION 120 /* the 1.2 API: clCreateCommandQueue */
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "sort_oracle.h"
#include "zesort_cl.h"
#include "zesort_ze.h"

static int failures;

#define N 100003u /* a prime: no chunk or tile divides it */

/* Random keys and their stable permutation; values are oracle_value(i, 4). */
typedef struct sort_data {
    uint32_t keys[N], values[N], got_keys[N], got_values[N];
    uint64_t *perm;
} sort_data;

static void data_init(sort_data *d, uint64_t seed)
{
    zesort_options o;
    zesort_options_default(&o);
    oracle_make_keys(d->keys, N, ZESORT_KEY_U32, 0, seed);
    for (uint32_t i = 0; i < N; i++)
        d->values[i] = (uint32_t)oracle_value(i, 4);
    d->perm = oracle_permutation(d->keys, N, &o);
}

static void data_check(const sort_data *d, const char *what)
{
    const uint64_t bad = oracle_check(d->keys, d->perm, d->got_keys, d->got_values, 0, N, 4, 4);
    EXPECT(bad == 0, "%s: wrong at position %llu", what, (unsigned long long)bad - 1);
}

/* The context's own host sort still works after the program's use of its handles. */
static void host_sort_check(zesort_context *ctx, sort_data *d, const char *what)
{
    memcpy(d->got_keys, d->keys, sizeof d->keys);
    memcpy(d->got_values, d->values, sizeof d->values);
    EXPECT(zesort_sort(ctx, d->got_keys, d->got_values, N, NULL) == ZESORT_OK, "%s: %s", what,
           zesort_last_error(ctx));
    data_check(d, what);
}

/* NULL and other backends: refused, every output given cleared. */
static void test_refusals(void)
{
    ze_driver_handle_t zd = (ze_driver_handle_t)1;
    ze_context_handle_t zc = (ze_context_handle_t)1;
    ze_device_handle_t zv = (ze_device_handle_t)1;
    cl_context cc = (cl_context)1;
    cl_device_id cv = (cl_device_id)1;
    EXPECT(zesort_ze_context_handles(NULL, &zd, &zc, &zv) == ZESORT_ERROR_INVALID_ARGUMENT,
           "ze: NULL context");
    EXPECT(!zd && !zc && !zv, "ze: outputs not cleared");
    EXPECT(zesort_cl_context_handles(NULL, &cc, &cv) == ZESORT_ERROR_INVALID_ARGUMENT,
           "cl: NULL context");
    EXPECT(!cc && !cv, "cl: outputs not cleared");
    zesort_context *cpu;
    if (zesort_create(ZESORT_BACKEND_CPU, &cpu) != ZESORT_OK) {
        EXPECT(0, "cpu context: %s", zesort_last_error(NULL));
        return;
    }
    zc = (ze_context_handle_t)1, cc = (cl_context)1;
    EXPECT(zesort_ze_context_handles(cpu, NULL, &zc, NULL) == ZESORT_ERROR_UNSUPPORTED,
           "ze on a cpu context");
    EXPECT(zesort_cl_context_handles(cpu, &cc, NULL) == ZESORT_ERROR_UNSUPPORTED,
           "cl on a cpu context");
    EXPECT(!zc && !cc, "outputs not cleared on a cpu context");
    zesort_destroy(cpu);
}

/* An immediate synchronous list on the context's device: each append has
 * completed when it returns (copies and the sort alike). */
static ze_command_list_handle_t ze_list(ze_context_handle_t c, ze_device_handle_t v)
{
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    return zeCommandListCreateImmediate(c, v, &qd, &list) == ZE_RESULT_SUCCESS ? list : NULL;
}

static void *ze_alloc(ze_context_handle_t c, ze_device_handle_t v, size_t bytes)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *p = NULL;
    return zeMemAllocDevice(c, &desc, bytes, 256, v, &p) == ZE_RESULT_SUCCESS ? p : NULL;
}

/* Pairs sorted by the interop API on memory of ctx's own context and device. */
static void ze_interop_sort(ze_context_handle_t c, ze_device_handle_t v, sort_data *d)
{
    ze_command_list_handle_t list = ze_list(c, v);
    zesort_ze_sorter *s = NULL;
    uint64_t tb = 0;
    EXPECT(zesort_ze_create(c, v, &s) == ZESORT_OK, "zesort_ze_create: %s",
           zesort_ze_last_error(NULL));
    EXPECT(s && zesort_ze_temp_bytes(s, N, 1, NULL, &tb) == ZESORT_OK, "temp bytes");
    void *k = ze_alloc(c, v, sizeof d->keys), *val = ze_alloc(c, v, sizeof d->values);
    void *t = ze_alloc(c, v, tb ? tb : 1);
    EXPECT(list && k && val && t, "device memory or list in the context's handles");
    if (list && k && val && t && s) {
        zeCommandListAppendMemoryCopy(list, k, d->keys, sizeof d->keys, NULL, 0, NULL);
        zeCommandListAppendMemoryCopy(list, val, d->values, sizeof d->values, NULL, 0, NULL);
        EXPECT(zesort_ze_append_sort(s, list, k, val, N, t, tb, NULL, NULL, 0, NULL) ==
                   ZESORT_OK,
               "append: %s", zesort_ze_last_error(s));
        zeCommandListAppendMemoryCopy(list, d->got_keys, k, sizeof d->keys, NULL, 0, NULL);
        zeCommandListAppendMemoryCopy(list, d->got_values, val, sizeof d->values, NULL, 0, NULL);
        data_check(d, "ze interop sort on the context's handles");
    }
    zesort_ze_destroy(s);
    void *mem[] = {k, val, t};
    for (int i = 0; i < 3; i++)
        if (mem[i])
            zeMemFree(c, mem[i]);
    if (list)
        zeCommandListDestroy(list);
}

/* Each Level Zero device index: its own driver-listed device (no sub-devices
 * here), an interop sort there, the context's host sort after. */
static void test_level_zero(sort_data *d)
{
    uint32_t count = 0;
    if (zesort_device_count(ZESORT_BACKEND_LEVEL_ZERO, &count) != ZESORT_OK || count == 0) {
        EXPECT(0, "no Level Zero device (is the test driver loaded?)");
        return;
    }
    EXPECT(count == 2, "ZE_CL_DRIVER_DEVICES=2 gives %u devices", count);
    for (uint32_t i = 0; i < count; i++) {
        zesort_context *ctx;
        if (zesort_create_on_device(ZESORT_BACKEND_LEVEL_ZERO, i, &ctx) != ZESORT_OK) {
            EXPECT(0, "device %u: %s", i, zesort_last_error(NULL));
            continue;
        }
        ze_driver_handle_t drv;
        ze_context_handle_t c;
        ze_device_handle_t v, listed[8];
        uint32_t n = 8;
        EXPECT(zesort_ze_context_handles(ctx, NULL, NULL, NULL) == ZESORT_OK, "all NULL");
        EXPECT(zesort_ze_context_handles(ctx, &drv, &c, &v) == ZESORT_OK && drv && c && v,
               "device %u: handles", i);
        EXPECT(zeDeviceGet(drv, &n, listed) == ZE_RESULT_SUCCESS && i < n && listed[i] == v,
               "device %u: not the driver's device %u", i, i);
        cl_context cc = (cl_context)1;
        EXPECT(zesort_cl_context_handles(ctx, &cc, NULL) == ZESORT_ERROR_UNSUPPORTED && !cc,
               "cl handles of a Level Zero context");
        ze_interop_sort(c, v, d);
        host_sort_check(ctx, d, "Level Zero host sort after the interop sort");
        zesort_destroy(ctx);
    }
}

/* OpenCL: a buffer of ctx's context, a queue of the program's own on its device. */
static void test_opencl(sort_data *d)
{
    zesort_context *ctx;
    if (zesort_create(ZESORT_BACKEND_OPENCL, &ctx) != ZESORT_OK) {
        EXPECT(0, "OpenCL context: %s", zesort_last_error(NULL));
        return;
    }
    cl_context c;
    cl_device_id v;
    char name[256] = "";
    EXPECT(zesort_cl_context_handles(ctx, NULL, NULL) == ZESORT_OK, "all NULL");
    EXPECT(zesort_cl_context_handles(ctx, &c, &v) == ZESORT_OK && c && v, "handles");
    clGetDeviceInfo(v, CL_DEVICE_NAME, sizeof name, name, NULL);
    EXPECT(name[0] && strstr(zesort_context_device(ctx), name), "device %s is not ctx's %s",
           name, zesort_context_device(ctx));
    ze_context_handle_t zc = (ze_context_handle_t)1;
    EXPECT(zesort_ze_context_handles(ctx, NULL, &zc, NULL) == ZESORT_ERROR_UNSUPPORTED && !zc,
           "ze handles of an OpenCL context");
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(c, v, 0, &err);
    cl_mem k = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof d->keys, NULL, &err);
    cl_mem val = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof d->values, NULL, &err);
    zesort_cl_sorter *s = NULL;
    uint64_t tb = 0;
    EXPECT(zesort_cl_create(c, v, &s) == ZESORT_OK, "%s", zesort_cl_last_error(NULL));
    EXPECT(s && zesort_cl_temp_bytes(s, N, 1, NULL, &tb) == ZESORT_OK, "temp bytes");
    cl_mem t = clCreateBuffer(c, CL_MEM_READ_WRITE, tb ? tb : 1, NULL, &err);
    if (q && k && val && t && s) {
        clEnqueueWriteBuffer(q, k, CL_TRUE, 0, sizeof d->keys, d->keys, 0, NULL, NULL);
        clEnqueueWriteBuffer(q, val, CL_TRUE, 0, sizeof d->values, d->values, 0, NULL, NULL);
        EXPECT(zesort_cl_enqueue_sort(s, q, k, val, N, t, tb, NULL, 0, NULL, NULL) == ZESORT_OK,
               "enqueue: %s", zesort_cl_last_error(s));
        clEnqueueReadBuffer(q, k, CL_TRUE, 0, sizeof d->keys, d->got_keys, 0, NULL, NULL);
        clEnqueueReadBuffer(q, val, CL_TRUE, 0, sizeof d->values, d->got_values, 0, NULL, NULL);
        data_check(d, "cl interop sort on the context's handles");
    } else {
        EXPECT(0, "queue, buffers or sorter in the context's handles");
    }
    zesort_cl_destroy(s);
    cl_mem mem[] = {k, val, t};
    for (int i = 0; i < 3; i++)
        if (mem[i])
            clReleaseMemObject(mem[i]);
    if (q)
        clReleaseCommandQueue(q);
    host_sort_check(ctx, d, "OpenCL host sort after the interop sort");
    zesort_destroy(ctx);
}

int main(void)
{
    static sort_data d;
    data_init(&d, 7);
    if (!d.perm)
        return 1;
    test_refusals();
    test_level_zero(&d);
    test_opencl(&d);
    free(d.perm);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
