/*
 * backend_opencl.c — the OpenCL device backend: buffers, copies, launches and
 * profiling-event timing on one OpenCL device (PoCL on the CPU, Intel NEO, ...).
 *
 * Program choice (opencl_common.c, kernel_select.c): on an Intel GPU the
 * embedded native binaries (sg flavor) are tried first; otherwise the
 * embedded OpenCL C source is built in the flavor kernel_select.c picks for
 * the device (sg, serial on CPU devices, portable on the others;
 * ZESORT_FLAVOR overrides it). Launches and copies are the recorder's
 * (cl_recorder.c), which the interop API shares, in timed mode: one
 * profiling event per command.
 */
#define CL_TARGET_OPENCL_VERSION 300 /* 3.0 queries (OpenCL C features); 1.2 calls only */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/device_backend.h"
#include "backends/device_list.h"
#include "backends/opencl/cl_recorder.h"
#include "backends/opencl/opencl_common.h"
#include "common/error.h"
#include "common/test_hooks.h"

struct zs_device {
    zs_cl_kernels cl; /* context, device, flavor (sg only on Intel GPUs with
                         cl_intel_subgroups), programs and kernels */
    cl_command_queue queue;
    cl_ulong max_alloc, global_mem;
    cl_bool host_unified; /* CPU devices, integrated GPUs: maps without a copy */
    zs_cl_events events;  /* of the timed region since begin */
    zs_cl_recorder rec;   /* timed mode, on queue */
    zs_error err;
};

/* Sets "OpenCL <what> failed (error N)" and returns the status for N. */
static zesort_status cl_status(zs_device *d, cl_int err, const char *what)
{
    return zs_cl_fail(&d->err, what, err);
}

static const char *ocl_message(zs_device *d) { return d->err.text; }

static zs_flavor ocl_flavor(zs_device *d) { return d->cl.flavor; }

static void ocl_memory(zs_device *d, uint64_t *total, uint64_t *largest)
{
    *total = d->global_mem;
    *largest = d->max_alloc; /* ocl_alloc refuses more */
}

static zesort_status ocl_alloc(zs_device *d, uint64_t bytes, zs_devptr *out)
{
    if (bytes > d->max_alloc) {
        return zs_error_set(&d->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                            "a %llu-byte buffer exceeds the device's largest allocation (%llu "
                            "bytes)", (unsigned long long)bytes, (unsigned long long)d->max_alloc);
    }
    cl_int err;
    cl_mem m = clCreateBuffer(d->cl.context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &err);
    if (!m)
        return cl_status(d, err, "clCreateBuffer");
    *out = m;
    return ZESORT_OK;
}

static void ocl_release(zs_device *d, zs_devptr buf)
{
    (void)d;
    clReleaseMemObject((cl_mem)buf);
}

static zesort_status ocl_write(zs_device *d, zs_devptr dst, const void *src, uint64_t bytes)
{
    cl_int err = clEnqueueWriteBuffer(d->queue, (cl_mem)dst, CL_TRUE, 0, (size_t)bytes, src, 0,
                                      NULL, NULL);
    return err == CL_SUCCESS ? ZESORT_OK : cl_status(d, err, "clEnqueueWriteBuffer");
}

static zesort_status ocl_read(zs_device *d, zs_devptr src, void *dst, uint64_t bytes)
{
    cl_int err = clEnqueueReadBuffer(d->queue, (cl_mem)src, CL_TRUE, 0, (size_t)bytes, dst, 0,
                                     NULL, NULL);
    return err == CL_SUCCESS ? ZESORT_OK : cl_status(d, err, "clEnqueueReadBuffer");
}

static int ocl_views(zs_device *d) { return d->host_unified == CL_TRUE; }

static zesort_status ocl_view(zs_device *d, zs_devptr buf, uint64_t bytes, const void **host)
{
    cl_int err = zs_test_view_fault() ? CL_MAP_FAILURE : CL_SUCCESS;
    void *p = err != CL_SUCCESS ? NULL
                                : clEnqueueMapBuffer(d->queue, (cl_mem)buf, CL_TRUE, CL_MAP_READ, 0,
                                                     (size_t)bytes, 0, NULL, NULL, &err);
    if (!p)
        return cl_status(d, err, "clEnqueueMapBuffer");
    *host = p;
    return ZESORT_OK;
}

static zesort_status ocl_unview(zs_device *d, zs_devptr buf, const void *host)
{
    cl_int err = clEnqueueUnmapMemObject(d->queue, (cl_mem)buf, (void *)host, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(d->queue);
    if (zs_test_view_fault()) /* reported after the unmap: a map left behind would leak */
        err = CL_INVALID_VALUE;
    return err == CL_SUCCESS ? ZESORT_OK : cl_status(d, err, "clEnqueueUnmapMemObject");
}

/* CL_MEM_USE_HOST_PTR on a device sharing the host's memory: PoCL's kernels
 * read the caller's array where it is (16M keys: no 5 ms upload). */
static zesort_status ocl_borrow(zs_device *d, const void *host, uint64_t bytes, zs_devptr *out)
{
    cl_int err = zs_test_borrow_fault() ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_SUCCESS;
    cl_mem m = NULL;
    if (err == CL_SUCCESS && bytes <= d->max_alloc)
        m = clCreateBuffer(d->cl.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, (size_t)bytes,
                           (void *)host, &err);
    if (!m)
        return cl_status(d, err != CL_SUCCESS ? err : CL_INVALID_BUFFER_SIZE, "clCreateBuffer");
    *out = m;
    return ZESORT_OK;
}

static void drop_events(zs_device *d)
{
    for (size_t i = 0; i < d->events.n; ++i)
        clReleaseEvent(d->events.ev[i]);
    d->events.n = 0;
}

static zesort_status ocl_begin(zs_device *d)
{
    drop_events(d);
    return ZESORT_OK;
}

/* Device time of the events recorded since begin: first start to last end. */
static zesort_status ocl_finish(zs_device *d, double *ms)
{
    cl_int err = clFinish(d->queue);
    if (err != CL_SUCCESS) {
        drop_events(d);
        return cl_status(d, err, "clFinish");
    }
    cl_ulong first = 0, last = 0;
    for (size_t i = 0; i < d->events.n; ++i) {
        cl_ulong s = 0, e = 0;
        if (clGetEventProfilingInfo(d->events.ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) !=
                CL_SUCCESS ||
            clGetEventProfilingInfo(d->events.ev[i], CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) !=
                CL_SUCCESS)
            continue;
        if (i == 0 || s < first)
            first = s;
        if (e > last)
            last = e;
    }
    if (ms && d->events.n)
        *ms += (double)(last - first) / 1e6;
    drop_events(d);
    return ZESORT_OK;
}

static zesort_status ocl_launch(zs_device *d, const zs_step *step, zs_devptr const *buffers)
{
    return zs_cl_record_kernel(&d->rec, step, buffers);
}

static zesort_status ocl_copy(zs_device *d, zs_devptr dst, zs_devptr src, uint64_t bytes)
{
    return zs_cl_record_copy(&d->rec, (cl_mem)dst, (cl_mem)src, bytes, NULL);
}

static void ocl_destroy(zs_device *d)
{
    if (!d)
        return;
    drop_events(d);
    zs_cl_kernels_release(&d->cl);
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->cl.context)
        clReleaseContext(d->cl.context);
    free(d);
}

void zs_opencl_handles(zs_device *dev, cl_context *context, cl_device_id *device)
{
    if (context)
        *context = dev->cl.context;
    if (device)
        *device = dev->cl.device;
}

static const zs_device_ops opencl_ops = {
    .name = "opencl",
    .alloc = ocl_alloc,
    .release = ocl_release,
    .write = ocl_write,
    .read = ocl_read,
    .views = ocl_views,
    .view = ocl_view,
    .unview = ocl_unview,
    .borrow = ocl_borrow,
    .begin = ocl_begin,
    .launch = ocl_launch,
    .copy = ocl_copy,
    .finish = ocl_finish,
    .destroy = ocl_destroy,
    .message = ocl_message,
    .flavor = ocl_flavor,
    .memory = ocl_memory,
};

/* Every device of every platform, in the order zesort_device_name indexes
 * them. Bounded: 16 platforms and 64 devices in all are far more than a
 * machine has, and keep the list on the stack. */
#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

typedef struct cl_device_list {
    cl_device_id ids[MAX_DEVICES];
    zs_device_kind kinds[MAX_DEVICES];
    uint32_t n;
} cl_device_list;

static void list_devices(cl_device_list *l)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    l->n = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS && l->n < MAX_DEVICES; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES - l->n, l->ids + l->n,
                           &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES - l->n)
            nd = MAX_DEVICES - l->n;
        for (cl_uint i = 0; i < nd; ++i)
            l->kinds[l->n + i] = (zs_device_kind){.gpu = zs_cl_device_is_gpu(l->ids[l->n + i])};
        l->n += nd;
    }
}

/* "<platform name>: <device name>", what zesort_context_device shows. */
static void describe(cl_device_id dev, char *desc, size_t desc_len)
{
    char name[256] = "", platform_name[128] = "";
    cl_platform_id platform;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name - 1, platform_name, NULL);
    snprintf(desc, desc_len, "%s: %s", platform_name, name);
}

static const char no_device_hint[] = "is an ICD such as pocl-opencl-icd installed?";

/* Device discovery and context creation of OpenCL implementations are not
 * all thread-safe (PoCL's first clGetPlatformIDs from several threads at
 * once finds no device, or crashes): one process-wide lock serialises them,
 * for zesort_create (here) and zesort_cl_create (interop_cl.c). */
static pthread_mutex_t discovery_lock = PTHREAD_MUTEX_INITIALIZER;

void zs_opencl_discovery_lock(void)
{
    pthread_mutex_lock(&discovery_lock);
}

void zs_opencl_discovery_unlock(void)
{
    pthread_mutex_unlock(&discovery_lock);
}

static zesort_status open_locked(zs_device_pick *pick, zs_device **out,
                                 const zs_device_ops **ops, char *desc, size_t desc_len,
                                 char *msg, size_t msg_len);

zesort_status zs_opencl_open(zs_device_pick *pick, zs_device **out, const zs_device_ops **ops,
                             char *desc, size_t desc_len, char *msg, size_t msg_len)
{
    zs_opencl_discovery_lock();
    zesort_status st = open_locked(pick, out, ops, desc, desc_len, msg, msg_len);
    zs_opencl_discovery_unlock();
    return st;
}

zesort_status zs_opencl_devices(uint32_t index, uint32_t *count, char *name, size_t name_len,
                                char *msg, size_t msg_len, zs_device_kind *kinds,
                                uint32_t max_kinds)
{
    cl_device_list l;
    zs_opencl_discovery_lock();
    list_devices(&l);
    if (l.n == 0)
        snprintf(msg, msg_len, "no OpenCL device found (%s)", no_device_hint);
    zesort_status st = name ? zs_check_device_index("OpenCL", index, l.n, msg, msg_len) : ZESORT_OK;
    if (name && st == ZESORT_OK)
        describe(l.ids[index], name, name_len);
    for (uint32_t i = 0; i < l.n && i < max_kinds; i++)
        kinds[i] = l.kinds[i];
    zs_opencl_discovery_unlock();
    *count = l.n;
    return st;
}

/* The device pick names: the index given, or the default by want_gpu. */
static zesort_status resolve_pick(zs_device_pick *pick, cl_device_id *dev, char *msg,
                                  size_t msg_len)
{
    cl_device_list l;
    list_devices(&l);
    int64_t i = pick->index;
    if (i < 0 && (i = zs_default_device(l.kinds, l.n, pick->want_gpu)) < 0) {
        snprintf(msg, msg_len, "no OpenCL %sdevice found (%s)",
                 pick->want_gpu == 1 ? "GPU " : pick->want_gpu == 0 ? "CPU " : "",
                 no_device_hint);
        return ZESORT_ERROR_NO_DEVICE;
    }
    if (i > UINT32_MAX || zs_check_device_index("OpenCL", (uint32_t)i, l.n, msg, msg_len))
        return ZESORT_ERROR_NO_DEVICE;
    *dev = l.ids[i];
    pick->opened = (uint32_t)i;
    return ZESORT_OK;
}

static zesort_status open_locked(zs_device_pick *pick, zs_device **out,
                                 const zs_device_ops **ops, char *desc, size_t desc_len,
                                 char *msg, size_t msg_len)
{
    *out = NULL;
    cl_device_id dev;
    zesort_status st = resolve_pick(pick, &dev, msg, msg_len);
    if (st != ZESORT_OK)
        return st;
    zs_device *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(msg, msg_len, "out of host memory");
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    d->cl.device = dev;
    cl_int err;
    d->cl.context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (d->cl.context)
        d->queue = clCreateCommandQueue(d->cl.context, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!d->cl.context || !d->queue) {
        snprintf(msg, msg_len, "cannot create an OpenCL context/queue (error %d)", (int)err);
        ocl_destroy(d);
        return ZESORT_ERROR_BACKEND;
    }
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
    /* deprecated in OpenCL 2.0 but answered by every implementation; an
     * error leaves CL_FALSE: downloads by reads. The GPU the plain-GPU test
     * hook plays is discrete, as NVIDIA's (test_hooks.h): CL_FALSE. */
    d->host_unified = CL_FALSE;
    if (!zs_test_opencl_plain_gpu())
        clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof d->host_unified,
                        &d->host_unified, NULL);
    if (zs_cl_device_flavor(dev, &d->cl.flavor, msg, msg_len) != 0) {
        ocl_destroy(d);
        return ZESORT_ERROR_INVALID_ARGUMENT;
    }
    d->rec = (zs_cl_recorder){.kernels = &d->cl, .queue = d->queue, .timed = &d->events,
                              .err = &d->err};
    describe(dev, desc, desc_len);
    *out = d;
    *ops = &opencl_ops;
    return ZESORT_OK;
}
