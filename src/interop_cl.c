/*
 * interop_cl.c — the OpenCL interop API (include/zesort_cl.h): enqueues the
 * steps of a plan on a caller's queue, on caller buffers.
 *
 * Temp layout: every plan buffer except the caller's (zs_interop_is_callers), each at an offset
 * that is a multiple of the alignment (the device's base address alignment,
 * at least 256 bytes), reached through a sub-buffer of temp made for the
 * sort. Every command waits for the previous one's event (the first for the
 * caller's wait events), so in-order and out-of-order queues behave alike.
 * Programs are built by the OpenCL backend's code (zs_cl_build_program), so
 * the kernels and the flavor are the backend's.
 */
#include "opencl_common.h" /* first: the library's OpenCL version, before <CL/cl.h> */
#include "zesort_cl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_backend.h"
#include "error.h"
#include "interop_common.h"
#include "test_hooks.h"
#include "plan.h"

struct zesort_cl_sorter {
    cl_context context;
    cl_device_id device;
    zs_flavor flavor;
    uint64_t align;
    cl_program programs[ZS_PROG_COUNT];
    cl_kernel kernels[ZS_K_COUNT];
    pthread_mutex_t lock;
    zs_error err;
    cl_int last_result;
    zesort_algo last_algo;
};

static _Thread_local zs_error thread_err = {"no error"};

const char *zesort_cl_last_error(const zesort_cl_sorter *sorter)
{
    return sorter ? sorter->err.text : thread_err.text;
}

cl_int zesort_cl_last_result(const zesort_cl_sorter *sorter)
{
    return sorter ? sorter->last_result : CL_INVALID_VALUE;
}

zesort_algo zesort_cl_last_algo(const zesort_cl_sorter *sorter)
{
    return sorter ? sorter->last_algo : ZESORT_ALGO_AUTO;
}

/* A failed OpenCL call: keeps its result, sets the message. */
static zesort_status cl_fail(zesort_cl_sorter *s, const char *what, cl_int err)
{
    s->last_result = err;
    zesort_status st = err == CL_OUT_OF_HOST_MEMORY ? ZESORT_ERROR_OUT_OF_HOST_MEMORY
                       : err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES
                           ? ZESORT_ERROR_OUT_OF_DEVICE_MEMORY
                           : ZESORT_ERROR_BACKEND;
    return zs_error_set(&s->err, st, "OpenCL %s failed (error %d)", what, (int)err);
}

zesort_status zesort_cl_create(cl_context context, cl_device_id device, zesort_cl_sorter **out)
{
    if (!out)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_create: out is NULL");
    *out = NULL;
    if (!context || !device)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_cl_create: %s is NULL", context ? "device" : "context");
    zesort_cl_sorter *s = calloc(1, sizeof *s);
    if (!s)
        return zs_error_set(&thread_err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "zesort_cl_create: out of host memory");
    s->context = context;
    s->device = device;
    char msg[256] = "";
    cl_uint align_bits = 0;
    zs_opencl_discovery_lock(); /* device queries of some ICDs are not thread-safe either */
    int bad_flavor = zs_cl_device_flavor(device, &s->flavor, msg, sizeof msg);
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                 &align_bits, NULL);
    zs_opencl_discovery_unlock();
    if (err != CL_SUCCESS || bad_flavor) {
        zesort_status st = bad_flavor ? ZESORT_ERROR_INVALID_ARGUMENT : ZESORT_ERROR_BACKEND;
        zs_error_set(&thread_err, st, "zesort_cl_create: %s",
                     bad_flavor ? msg : "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN) failed");
        free(s);
        return st;
    }
    s->align = align_bits / 8 > 256 ? align_bits / 8 : 256;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        return zs_error_set(&thread_err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "zesort_cl_create: cannot create a mutex");
    }
    zs_error_clear(&s->err);
    *out = s;
    return ZESORT_OK;
}

zesort_status zesort_cl_context_handles(const zesort_context *ctx, cl_context *context,
                                        cl_device_id *device)
{
    zs_device *dev;
    const zesort_status st = zs_interop_context_device(ctx, ZESORT_BACKEND_OPENCL, &dev);
    if (st == ZESORT_OK) {
        zs_opencl_handles(dev, context, device);
        return st;
    }
    if (context)
        *context = NULL;
    if (device)
        *device = NULL;
    return st;
}

void zesort_cl_destroy(zesort_cl_sorter *sorter)
{
    if (!sorter)
        return;
    for (int k = 0; k < ZS_K_COUNT; k++)
        if (sorter->kernels[k])
            clReleaseKernel(sorter->kernels[k]);
    for (int p = 0; p < ZS_PROG_COUNT; p++)
        if (sorter->programs[p])
            clReleaseProgram(sorter->programs[p]);
    pthread_mutex_destroy(&sorter->lock);
    free(sorter);
}

static zesort_status get_kernel(zesort_cl_sorter *s, zs_kernel k, cl_kernel *out)
{
    if (!s->kernels[k]) {
        zs_program p = zs_kernel_program(k);
        cl_int cl_err = CL_SUCCESS;
        zesort_status st = zs_cl_build_program(s->context, s->device, s->flavor, p,
                                               &s->programs[p], &s->err, &cl_err);
        if (st != ZESORT_OK) {
            if (cl_err != CL_SUCCESS)
                s->last_result = cl_err;
            return st;
        }
        cl_int err;
        s->kernels[k] = clCreateKernel(s->programs[p], zs_kernel_name(k), &err);
        if (!s->kernels[k])
            return cl_fail(s, "clCreateKernel", err);
    }
    if (out)
        *out = s->kernels[k];
    return ZESORT_OK;
}

/* The plan of a sort of n keys of this shape. */
static zesort_status build_plan(zesort_cl_sorter *s, uint64_t n, const zs_sort_shape *shape,
                                const zesort_options *opts, zs_plan *plan, zesort_algo *algo,
                                const char *fn)
{
    return zs_interop_plan(opts, n, shape, s->flavor, plan, algo, &s->err, fn);
}

zesort_status zesort_cl_temp_requirements(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                          const zesort_options *opts, uint64_t *bytes,
                                          uint64_t *alignment)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_temp_bytes: sorter is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_temp_requirements("zesort_cl_temp_bytes", opts, n, with_values,
                                                    sorter->flavor, sorter->align, sorter->align,
                                                    bytes, alignment, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

zesort_status zesort_cl_temp_bytes(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                   const zesort_options *opts, uint64_t *bytes)
{
    return zesort_cl_temp_requirements(sorter, n, with_values, opts, bytes, NULL);
}

static zesort_status build_kernel(void *sorter, zs_kernel kernel)
{
    return get_kernel(sorter, kernel, NULL);
}

zesort_status zesort_cl_prepare(zesort_cl_sorter *sorter, const zesort_options *opts,
                                int with_values)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_prepare: sorter is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_prepare(opts, with_values, sorter->flavor, build_kernel, sorter,
                                          &sorter->err);
    if (st == ZESORT_OK)
        zs_error_clear(&sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* Where a cl_mem lies: its root buffer and byte range there. */
static zs_range locate(cl_mem m, uint64_t bytes)
{
    zs_range r = {m, 0, bytes};
    cl_mem parent = NULL;
    size_t off = 0;
    if (m &&
        clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
            CL_SUCCESS && parent &&
        clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, NULL) == CL_SUCCESS) {
        r.root = parent;
        r.off = off;
    }
    return r;
}

static uint64_t mem_size(cl_mem m)
{
    size_t size = 0;
    if (!m || clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
        return 0;
    return size;
}

/* The events of one sort: each command waits for the previous one. */
typedef struct chain {
    cl_uint nwait;
    const cl_event *wait; /* the caller's, for the first command */
    cl_event last;
} chain;

static void chain_next(chain *c, cl_uint *nwait, const cl_event **wait)
{
    if (c->last) {
        *nwait = 1;
        *wait = &c->last;
    } else {
        *nwait = c->nwait;
        *wait = c->nwait ? c->wait : NULL;
    }
}

static void chain_done(chain *c, cl_event ev)
{
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
}

/* The caller's buffers of a sort, checked before anything is enqueued:
 * given and large enough, temp large enough and at an aligned offset, and no
 * two of them (temp and the count included) sharing a byte. */
static zesort_status check_arguments(zesort_cl_sorter *s, const zs_sort_shape *shape,
                                     const zs_plan *plan, cl_mem const *caller, uint64_t n,
                                     cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                     uint64_t need, const zs_range *tspan, const char *fn)
{
    zs_named_range r[ZS_BUF_COUNT + 2];
    int ranges = 0;
    for (int b = 0; n > 0 && b < ZS_BUF_COUNT; b++) {
        if (!zs_interop_is_callers(shape, b) || plan->buffer_bytes[b] == 0)
            continue;
        const char *name = zs_interop_buffer_name(shape, b);
        const uint64_t bytes = plan->buffer_bytes[b];
        if (!caller[b])
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s is NULL for %llu keys", fn, name, (unsigned long long)n);
        /* the offsets are u64 a segment (and one more), the others n elements */
        const int offsets = b == ZS_BUF_SEG_OFFSETS;
        if (mem_size(caller[b]) < bytes)
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s holds %llu bytes, %llu %s need %llu", fn, name,
                                (unsigned long long)mem_size(caller[b]),
                                (unsigned long long)(offsets ? shape->segments : n),
                                offsets ? "segments" : "keys", (unsigned long long)bytes);
        r[ranges++] = (zs_named_range){name, locate(caller[b], bytes)};
    }
    if (need > 0 && !temp)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: temp is NULL but a sort of %llu keys needs %llu bytes of temp memory",
                            fn, (unsigned long long)n, (unsigned long long)need);
    if (temp_bytes < need || (need > 0 && mem_size(temp) < temp_bytes))
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: temp of %llu bytes (buffer of %llu) is too small: a sort of %llu keys needs %llu bytes (see zesort_cl_temp_bytes)",
                            fn, (unsigned long long)temp_bytes, (unsigned long long)mem_size(temp),
                            (unsigned long long)n, (unsigned long long)need);
    if (count && mem_size(count) < 4)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: count holds fewer than 4 bytes", fn);
    if (need > 0 && tspan->off % s->align)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: temp is a sub-buffer at offset %llu, not a multiple of %llu bytes (see zesort_cl_temp_requirements)",
                            fn, (unsigned long long)tspan->off, (unsigned long long)s->align);
    if (n == 0)
        return ZESORT_OK;
    r[ranges++] = (zs_named_range){"temp", *tspan};
    r[ranges++] = (zs_named_range){"the count", locate(count, 4)};
    const char *a, *b;
    if (zs_ranges_overlap(r, ranges, &a, &b))
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap (the same cl_mem, or overlapping sub-buffers of one): they must be separate memory",
                            fn, a, b);
    return ZESORT_OK;
}

/* A segmented sort's offsets, read from the caller's cl_mem by a blocking
 * read after the caller's wait events (zesort_cl.h), and checked. */
static zesort_status check_offsets(zesort_cl_sorter *s, cl_command_queue queue,
                                   const zs_sort_shape *shape, cl_mem offsets, uint64_t n,
                                   cl_uint nwait, const cl_event *wait, const char *fn)
{
    const uint64_t bytes = (shape->segments + 1) * sizeof(uint64_t);
    uint64_t *host = malloc((size_t)bytes);
    if (!host)
        return zs_error_set(&s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory for a copy of the offsets", fn);
    cl_int err = clEnqueueReadBuffer(queue, offsets, CL_TRUE, 0, (size_t)bytes, host, nwait,
                                     nwait ? wait : NULL, NULL);
    zesort_status st = err == CL_SUCCESS ? zs_interop_check_offsets(host, shape, n, &s->err, fn)
                                         : cl_fail(s, "clEnqueueReadBuffer (offsets)", err);
    free(host);
    return st;
}

/* Every enqueue: in place, out of place or argsort (shape, with the
 * caller's buffers by plan buffer in caller[]), direct (count NULL) or
 * indirect, under the sorter's lock. */
static zesort_status enqueue_locked(zesort_cl_sorter *s, cl_command_queue queue,
                                    const zs_sort_shape *shape, cl_mem const *caller, uint64_t n,
                                    cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                    const zesort_options *opts, cl_uint nwait,
                                    const cl_event *wait, cl_event *event, const char *fn)
{
    if (event)
        *event = NULL;
    if (!queue)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: queue is NULL", fn);
    if (nwait > 0 && !wait)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %u wait events but wait_events is NULL", fn, nwait);
    for (cl_uint i = 0; i < nwait; i++)
        if (!wait[i])
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: wait_events[%u] is NULL", fn, i);
    zs_plan plan;
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zesort_status st = build_plan(s, n, shape, opts, &plan, &algo, fn);
    if (st != ZESORT_OK)
        return st;
    uint64_t offsets[ZS_BUF_COUNT];
    const uint64_t need = zs_interop_temp_layout(&plan, shape, s->align, offsets);
    const zs_range tspan = locate(temp, temp_bytes); /* sub-buffers are made of its root */
    st = check_arguments(s, shape, &plan, caller, n, count, temp, temp_bytes, need, &tspan, fn);
    if (st == ZESORT_OK && plan.buffer_bytes[ZS_BUF_SEG_OFFSETS] > 0)
        st = check_offsets(s, queue, shape, caller[ZS_BUF_SEG_OFFSETS], n, nwait, wait, fn);
    /* Build every kernel before anything is enqueued. */
    for (size_t i = 0; st == ZESORT_OK && i < plan.nsteps; i++)
        if (plan.steps[i].kind == ZS_STEP_KERNEL && plan.steps[i].groups > 0)
            st = get_kernel(s, plan.steps[i].kernel, NULL);
    cl_mem buffers[ZS_BUF_COUNT] = {0};
    for (int b = 0; st == ZESORT_OK && b < ZS_BUF_COUNT; b++) {
        if (offsets[b] == UINT64_MAX)
            continue;
        cl_buffer_region region = {(size_t)(tspan.off + offsets[b]), (size_t)plan.buffer_bytes[b]};
        cl_int err;
        buffers[b] = clCreateSubBuffer(tspan.root, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                       &region, &err);
        if (!buffers[b])
            st = cl_fail(s, "clCreateSubBuffer (temp)", err);
    }
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        if (zs_interop_is_callers(shape, b))
            buffers[b] = caller[b];

    chain ch = {.nwait = nwait, .wait = wait, .last = NULL};
    cl_uint nw;
    const cl_event *w;
    cl_event ev;
    cl_int err;
    /* params: [0] the count, [1..] the plan's n (max_n): kernels use the
     * minimum, so a count above max_n is clamped on the device. */
    if (st == ZESORT_OK && plan.nsteps > 0) {
        const uint32_t n32 = (uint32_t)n;
        const size_t pbytes = (size_t)plan.buffer_bytes[ZS_BUF_PARAMS];
        chain_next(&ch, &nw, &w);
        err = count ? clEnqueueFillBuffer(queue, buffers[ZS_BUF_PARAMS], &n32, 4, 4, pbytes - 4, nw,
                                          w, &ev)
                    : clEnqueueFillBuffer(queue, buffers[ZS_BUF_PARAMS], &n32, 4, 0, pbytes, nw, w,
                                          &ev);
        if (err != CL_SUCCESS)
            st = cl_fail(s, "clEnqueueFillBuffer (params)", err);
        else
            chain_done(&ch, ev);
        if (st == ZESORT_OK && count) {
            chain_next(&ch, &nw, &w);
            err = clEnqueueCopyBuffer(queue, count, buffers[ZS_BUF_PARAMS], 0, 0, 4, nw, w, &ev);
            if (err != CL_SUCCESS)
                st = cl_fail(s, "clEnqueueCopyBuffer (count)", err);
            else
                chain_done(&ch, ev);
        }
    }
    /* Indirect sorts ending with a copy home: seed the ping-pong buffers
     * (see interop_ze.c). */
    for (size_t i = 0; count && st == ZESORT_OK && i < plan.nsteps; i++) {
        const zs_step *c = &plan.steps[i];
        if (c->kind != ZS_STEP_COPY || c->bytes == 0)
            continue;
        chain_next(&ch, &nw, &w);
        err = clEnqueueCopyBuffer(queue, buffers[c->dst], buffers[c->src], 0, 0, (size_t)c->bytes,
                                  nw, w, &ev);
        if (err != CL_SUCCESS)
            st = cl_fail(s, "clEnqueueCopyBuffer (seeding)", err);
        else
            chain_done(&ch, ev);
    }
    for (size_t i = 0; st == ZESORT_OK && i < plan.nsteps; i++) {
        const zs_step *step = &plan.steps[i];
        if (step->kind == ZS_STEP_COPY) {
            if (step->bytes == 0)
                continue;
            chain_next(&ch, &nw, &w);
            err = clEnqueueCopyBuffer(queue, buffers[step->src], buffers[step->dst], 0, 0,
                                      (size_t)step->bytes, nw, w, &ev);
            if (err != CL_SUCCESS)
                st = cl_fail(s, "clEnqueueCopyBuffer", err);
            else
                chain_done(&ch, ev);
            continue;
        }
        if (step->kind != ZS_STEP_KERNEL) {
            st = zs_error_set(&s->err, ZESORT_ERROR_UNSUPPORTED, "internal error: host scan step in an enqueued sort");
            break;
        }
        if (step->groups == 0)
            continue;
        cl_kernel k = s->kernels[step->kernel];
        for (int a = 0; st == ZESORT_OK && a < step->nargs; a++) {
            if (step->args[a].is_buffer) {
                cl_mem m = buffers[step->args[a].value];
                err = clSetKernelArg(k, (cl_uint)a, sizeof m, &m);
            } else {
                cl_uint v = step->args[a].value;
                err = clSetKernelArg(k, (cl_uint)a, sizeof v, &v);
            }
            if (err != CL_SUCCESS)
                st = cl_fail(s, "clSetKernelArg", err);
        }
        if (st != ZESORT_OK)
            break;
        size_t local = step->local, global = (size_t)step->groups * step->local;
        chain_next(&ch, &nw, &w);
        err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, nw, w, &ev);
        if (err != CL_SUCCESS)
            st = cl_fail(s, "clEnqueueNDRangeKernel", err);
        else
            chain_done(&ch, ev);
    }
    /* No command at all (n == 0): a marker carries the ordering and the event. */
    if (st == ZESORT_OK && !ch.last) {
        err = clEnqueueMarkerWithWaitList(queue, nwait, nwait ? wait : NULL, &ev);
        if (err != CL_SUCCESS)
            st = cl_fail(s, "clEnqueueMarkerWithWaitList", err);
        else
            ch.last = ev;
    }
    if (st == ZESORT_OK && event) {
        *event = ch.last;
        ch.last = NULL;
    }
    if (ch.last)
        clReleaseEvent(ch.last);
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        if (offsets[b] != UINT64_MAX && buffers[b])
            clReleaseMemObject(buffers[b]);
    if (st == ZESORT_OK) {
        s->last_algo = algo;
        zs_error_clear(&s->err);
        if (plan.nsteps > 0)
            zs_test_note_sort("opencl-interop", s->flavor);
    }
    zs_plan_free(&plan);
    return st;
}

static zesort_status enqueue(zesort_cl_sorter *s, cl_command_queue queue,
                             const zs_sort_shape *shape, cl_mem const *caller, uint64_t n,
                             cl_mem count, cl_mem temp, uint64_t temp_bytes,
                             const zesort_options *opts, cl_uint nwait, const cl_event *wait,
                             cl_event *event, const char *fn)
{
    if (!s) {
        if (event)
            *event = NULL;
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    }
    pthread_mutex_lock(&s->lock);
    zesort_status st = enqueue_locked(s, queue, shape, caller, n, count, temp, temp_bytes, opts,
                                      nwait, wait, event, fn);
    pthread_mutex_unlock(&s->lock);
    return st;
}

/* An in-place sort of keys (and values) through enqueue. */
static zesort_status enqueue_in_place(zesort_cl_sorter *s, cl_command_queue queue, cl_mem keys,
                                      cl_mem values, uint64_t n, cl_mem count, cl_mem temp,
                                      uint64_t temp_bytes, const zesort_options *opts,
                                      cl_uint nwait, const cl_event *wait, cl_event *event,
                                      const char *fn)
{
    const zs_sort_shape shape = {ZS_SORT_IN_PLACE, values != NULL, 0, 0};
    cl_mem caller[ZS_BUF_COUNT] = {0};
    caller[ZS_BUF_KEYS] = keys;
    caller[ZS_BUF_VALUES] = values;
    return enqueue(s, queue, &shape, caller, n, count, temp, temp_bytes, opts, nwait, wait, event,
                   fn);
}

zesort_status zesort_cl_enqueue_sort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                     cl_mem keys, cl_mem values, uint64_t n, cl_mem temp,
                                     uint64_t temp_bytes, const zesort_options *opts,
                                     cl_uint num_wait_events, const cl_event *wait_events,
                                     cl_event *event)
{
    return enqueue_in_place(sorter, queue, keys, values, n, NULL, temp, temp_bytes, opts,
                            num_wait_events, wait_events, event, "zesort_cl_enqueue_sort");
}

zesort_status zesort_cl_enqueue_sort_segments(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, uint64_t n,
                                              cl_mem offsets, uint64_t num_segments, cl_mem temp,
                                              uint64_t temp_bytes, const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event)
{
    const zs_sort_shape shape = {ZS_SORT_SEGMENTS, values != NULL, 0, num_segments};
    cl_mem caller[ZS_BUF_COUNT] = {0};
    caller[ZS_BUF_KEYS] = keys;
    caller[ZS_BUF_VALUES] = values;
    caller[ZS_BUF_SEG_OFFSETS] = offsets;
    return enqueue(sorter, queue, &shape, caller, n, NULL, temp, temp_bytes, opts,
                   num_wait_events, wait_events, event, "zesort_cl_enqueue_sort_segments");
}

zesort_status zesort_cl_enqueue_sort_copy(zesort_cl_sorter *sorter, cl_command_queue queue,
                                          cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                          cl_mem values_out, uint64_t n, cl_mem count,
                                          cl_mem temp, uint64_t temp_bytes,
                                          const zesort_options *opts, cl_uint num_wait_events,
                                          const cl_event *wait_events, cl_event *event)
{
    const zs_sort_shape shape = {ZS_SORT_COPY, values_in != NULL || values_out != NULL, 0, 0};
    cl_mem caller[ZS_BUF_COUNT] = {0};
    caller[ZS_BUF_KEYS_IN] = keys_in;
    caller[ZS_BUF_VALUES_IN] = values_in;
    caller[ZS_BUF_KEYS] = keys_out;
    caller[ZS_BUF_VALUES] = values_out;
    return enqueue(sorter, queue, &shape, caller, n, n ? count : NULL, temp, temp_bytes, opts,
                   num_wait_events, wait_events, event, "zesort_cl_enqueue_sort_copy");
}

zesort_status zesort_cl_enqueue_argsort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                        cl_mem keys, cl_mem indices, cl_mem keys_out, uint64_t n,
                                        cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                        const zesort_options *opts, cl_uint num_wait_events,
                                        const cl_event *wait_events, cl_event *event)
{
    const zs_sort_shape shape = {ZS_SORT_ARGSORT, 1, keys_out == NULL, 0};
    cl_mem caller[ZS_BUF_COUNT] = {0};
    caller[ZS_BUF_KEYS_IN] = keys;
    caller[ZS_BUF_KEYS] = keys_out;
    caller[ZS_BUF_VALUES] = indices;
    return enqueue(sorter, queue, &shape, caller, n, n ? count : NULL, temp, temp_bytes, opts,
                   num_wait_events, wait_events, event, "zesort_cl_enqueue_argsort");
}

zesort_status zesort_cl_enqueue_sort_indirect(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, cl_mem count,
                                              uint64_t max_n, cl_mem temp, uint64_t temp_bytes,
                                              const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event)
{
    if (sorter && !count && max_n > 0) {
        if (event)
            *event = NULL;
        pthread_mutex_lock(&sorter->lock);
        zs_error_set(&sorter->err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_enqueue_sort_indirect: count is NULL");
        pthread_mutex_unlock(&sorter->lock);
        return ZESORT_ERROR_INVALID_ARGUMENT;
    }
    return enqueue_in_place(sorter, queue, keys, values, max_n, max_n ? count : NULL, temp,
                            temp_bytes, opts, num_wait_events, wait_events, event,
                            "zesort_cl_enqueue_sort_indirect");
}
