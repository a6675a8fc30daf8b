/*
 * test_desc_matrix.c — zesort_cl_requirements + zesort_cl_enqueue over every
 * combination the descriptor expresses (tests/common/desc_matrix.h) on the
 * OpenCL device present (PoCL here), on an out-of-order queue where the
 * device has one: the sort's own events order its commands.
 */
#define CL_TARGET_OPENCL_VERSION 120 /* the 1.2 API: clCreateCommandQueue */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zesort_cl.h"

static int failures;

#include "desc_matrix.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;
static zesort_cl_sorter *sorter;

#define CL_OK(x)                                                                       \
    do {                                                                               \
        cl_int e_ = (x);                                                               \
        if (e_ != CL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, (int)e_);       \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static void *alloc(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CL_OK(err);
    const unsigned char fill = 0xA5;
    CL_OK(clEnqueueFillBuffer(q, m, &fill, 1, 0, bytes, 0, NULL, NULL));
    CL_OK(clFinish(q));
    return m;
}

static void release(void *m) { clReleaseMemObject(m); }

static void upload(void *m, const void *src, size_t bytes)
{
    CL_OK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, src, 0, NULL, NULL));
}

static void download(void *dst, void *m, size_t bytes)
{
    CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
}

static const char *error(void) { return zesort_cl_last_error(sorter); }

/* Every kernel the library enqueues comes through here (this program's
 * definition comes first in the dynamic lookup), then to the ICD loader's. */
static uint64_t enqueued;
CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel,
                                                       cl_uint dims, const size_t *offset,
                                                       const size_t *global,
                                                       const size_t *local, cl_uint waits,
                                                       const cl_event *wait, cl_event *event)
{
    static cl_int (*next)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                          const size_t *, cl_uint, const cl_event *, cl_event *);
    if (!next)
        *(void **)&next = dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    __atomic_add_fetch(&enqueued, 1, __ATOMIC_RELAXED);
    return next(queue, kernel, dims, offset, global, local, waits, wait, event);
}

static uint64_t launches(void) { return __atomic_load_n(&enqueued, __ATOMIC_RELAXED); }

static zesort_status requirements(const zesort_desc *d, zesort_requirements *req)
{
    return zesort_cl_requirements(sorter, d, req);
}

static zesort_status run(const zesort_desc *d, int chained, uint32_t chain)
{
    (void)chained, (void)chain; /* OpenCL orders by events: no chained form */
    cl_event done = NULL;
    const zesort_cl_sync sync = {.event = &done};
    zesort_status st = zesort_cl_enqueue(sorter, q, d, &sync);
    if (st == ZESORT_OK) {
        CL_OK(clWaitForEvents(1, &done));
        clReleaseEvent(done);
    }
    return st;
}

int main(int argc, char **argv)
{
    cl_platform_id plat;
    cl_uint np = 0;
    cl_int err;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        printf("SKIP: no OpenCL device\n");
        return 77;
    }
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
    const desc_api api = {"opencl", 0, alloc, release, upload, download, requirements, run,
                          error, launches};
    const int rc = matrix_run(&api, argc > 1 && strcmp(argv[1], "subset") == 0);
    zesort_cl_destroy(sorter);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return rc;
}
