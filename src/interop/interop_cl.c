/*
 * interop_cl.c — the OpenCL interop API (include/zesort_cl.h): enqueues the
 * steps of a plan on a caller's queue, on caller buffers.
 *
 * Temp layout: every plan buffer except the caller's (the buffer table), each at an offset
 * that is a multiple of the alignment (the device's base address alignment,
 * at least 256 bytes), reached through a sub-buffer of temp made for the
 * sort. The commands are the OpenCL recorder's (cl_recorder.c), the one
 * that the device backend runs its plans through too, in chain mode: every
 * command waits for the previous one's event (the first for the caller's
 * wait events), so in-order and out-of-order queues behave alike. Programs
 * are built by the same code as the backend's (opencl_common.c), so the
 * kernels and the flavor are the backend's.
 *
 * The 1.1 enqueues are interop_cl_v11.c (each a descriptor for
 * zs_cl_enqueue_desc).
 */
/* first: the library's OpenCL version, before <CL/cl.h> */
#include "backends/opencl/opencl_common.h"
#include "zesort_cl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_backend.h"
#include "backends/opencl/cl_recorder.h"
#include "common/error.h"
#include "common/test_hooks.h"
#include "interop/interop_common.h"
#include "interop/interop_desc.h"
#include "interop/interop_cl_enqueue.h"
#include "programs/kernel_select.h"
#include "plan/plan.h"
#include "plan/sort_request.h"

struct zesort_cl_sorter {
    zs_cl_kernels cl; /* the caller's context and device (borrowed), the flavor,
                         own programs and kernels */
    uint64_t align;
    pthread_mutex_t lock;
    zs_error err;
    cl_int last_result;
    zesort_algo last_algo;
    int result_in_alt; /* the last successful sort left its result in TMP (the caller's
                          alternate buffers): what the _alt calls report, read under
                          the lock that set it */
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
    return zs_cl_fail(&s->err, what, err);
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
    s->cl.context = context;
    s->cl.device = device;
    char msg[256] = "";
    cl_uint align_bits = 0;
    zs_opencl_discovery_lock(); /* device queries of some ICDs are not thread-safe either */
    int bad_flavor = zs_cl_device_flavor(device, &s->cl.flavor, msg, sizeof msg);
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
    zs_cl_kernels_release(&sorter->cl);
    pthread_mutex_destroy(&sorter->lock);
    free(sorter);
}


zesort_status zesort_cl_temp_requirements(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                          const zesort_options *opts, uint64_t *bytes,
                                          uint64_t *alignment)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_temp_bytes: sorter is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_temp_requirements("zesort_cl_temp_bytes", opts, n, with_values,
                                                    sorter->cl.flavor, sorter->align, sorter->align,
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
    zesort_cl_sorter *s = sorter;
    cl_int cl_err = CL_SUCCESS;
    zesort_status st = zs_cl_kernel(&s->cl, kernel, NULL, &s->err, &cl_err);
    if (st != ZESORT_OK && cl_err != CL_SUCCESS)
        s->last_result = cl_err;
    return st;
}

zesort_status zesort_cl_prepare(zesort_cl_sorter *sorter, const zesort_options *opts,
                                int with_values)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_cl_prepare: sorter is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_prepare(opts, with_values, sorter->cl.flavor, build_kernel, sorter,
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

/* The caller's buffers of a sort, checked before anything is enqueued:
 * given and large enough, temp large enough and at an aligned offset, and no
 * two of them (temp and the count included) sharing a byte. */
static zesort_status check_arguments(zesort_cl_sorter *s, const zs_buffer_table *t,
                                     cl_mem const *caller, uint64_t n, uint64_t segments,
                                     cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                     const zs_range *tspan, const char *fn)
{
    zs_named_range r[ZS_BUF_COUNT + 2];
    int ro[ZS_BUF_COUNT + 2] = {0};
    int ranges = 0;
    const uint64_t need = t->temp_bytes;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        if (!t->buf[b].callers || t->buf[b].bytes == 0)
            continue;
        const char *name = t->buf[b].name;
        const uint64_t bytes = t->buf[b].bytes;
        if (!caller[b])
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s is NULL for %llu keys", fn, name, (unsigned long long)n);
        /* a segmented sort's arrays: an offset a segment (and one more), the
         * count, the status; the others n elements */
        const int offsets = b >= ZS_BUF_SEG_OFFSETS;
        if (mem_size(caller[b]) < bytes)
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s holds %llu bytes, %llu %s need %llu", fn, name,
                                (unsigned long long)mem_size(caller[b]),
                                (unsigned long long)(offsets ? segments : n),
                                offsets ? "segments" : "keys", (unsigned long long)bytes);
        ro[ranges] = t->buf[b].read_only;
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
    if (ranges == 0) /* n == 0, and no status word to write */
        return ZESORT_OK;
    r[ranges++] = (zs_named_range){"temp", *tspan};
    r[ranges++] = (zs_named_range){"the count", locate(count, 4)};
    const char *a, *b;
    if (zs_interop_ranges_overlap(r, ro, ranges, &a, &b))
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap (the same cl_mem, or overlapping sub-buffers of one): they must be separate memory",
                            fn, a, b);
    return ZESORT_OK;
}

/* One enqueue's arguments, as the entry points pass them: in place, out of
 * place, argsort or segmented (shape, with the caller's buffers by plan
 * buffer in caller[]), direct (count NULL) or indirect. */
typedef struct cl_args {
    cl_command_queue queue;
    const zs_sort_shape *shape;
    cl_mem const *caller;
    uint64_t n;
    cl_mem count, temp;
    uint64_t temp_bytes;
    const zesort_options *opts;
    cl_uint nwait;
    const cl_event *wait;
    const char *fn;
} cl_args;

/* One enqueued sort: its plan, where its buffers are, and the recorder on
 * the caller's queue. */
typedef struct cl_sort {
    zs_plan plan;
    zs_buffer_table table;       /* what every step reads of each buffer */
    void *buffers[ZS_BUF_COUNT]; /* cl_mem by plan buffer: the caller's or temp's */
    zs_cl_recorder rec;
} cl_sort;

/* The queue and the wait list, before anything else. */
static zesort_status check_queue(zesort_cl_sorter *s, const cl_args *a)
{
    if (!a->queue)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: queue is NULL", a->fn);
    cl_uint first_null = 0;
    while (a->wait && first_null < a->nwait && a->wait[first_null])
        first_null++;
    return zs_interop_check_waits(&s->err, a->fn, a->nwait, a->wait != NULL, first_null);
}

/* Everything that can fail before a command is enqueued: the caller's
 * buffers checked, every kernel built, temp's sub-buffers made
 * (sub-buffers are made of temp's root buffer). */
static zesort_status prepare(zesort_cl_sorter *s, const cl_args *a, cl_sort *x)
{
    zs_interop_buffer_table(a->shape, &x->plan, a->n, s->align, &x->table);
    const zs_range tspan = locate(a->temp, a->temp_bytes);
    zesort_status st = check_arguments(s, &x->table, a->caller, a->n, a->shape->segments,
                                       a->count, a->temp, a->temp_bytes, &tspan, a->fn);
    if (st == ZESORT_OK)
        st = zs_cl_record_check(&x->rec, &x->plan);
    for (int b = 0; st == ZESORT_OK && b < ZS_BUF_COUNT; b++) {
        const zs_buffer_entry *e = &x->table.buf[b];
        if (e->offset == UINT64_MAX)
            continue;
        cl_buffer_region region = {(size_t)(tspan.off + e->offset), (size_t)e->bytes};
        cl_int err;
        x->buffers[b] = clCreateSubBuffer(tspan.root, CL_MEM_READ_WRITE,
                                          CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        if (!x->buffers[b])
            st = cl_fail(s, "clCreateSubBuffer (temp)", err);
    }
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        if (x->table.buf[b].callers)
            x->buffers[b] = a->caller[b];
    return st;
}

/* The commands of the sort, in order. */
static zesort_status record(zesort_cl_sorter *s, const cl_args *a, cl_sort *x)
{
    zesort_status st = ZESORT_OK;
    zs_cl_recorder *r = &x->rec;
    /* params: [0] the count, [1..] the plan's n (max_n): kernels use the
     * minimum, so a count above max_n is clamped on the device. */
    if (x->plan.nsteps > 0 && x->plan.buffer_bytes[ZS_BUF_PARAMS] > 0) {
        cl_mem params = x->buffers[ZS_BUF_PARAMS];
        const uint64_t pbytes = x->plan.buffer_bytes[ZS_BUF_PARAMS], first = a->count ? 4 : 0;
        st = zs_cl_record_fill(r, params, (uint32_t)a->n, first, pbytes - first, "params");
        if (st == ZESORT_OK && a->count)
            st = zs_cl_record_copy(r, params, a->count, 4, "count");
    }
    /* Indirect sorts ending with a copy home: seed the ping-pong buffers
     * (see interop_ze.c). */
    for (size_t i = 0; a->count && st == ZESORT_OK && i < x->plan.nsteps; i++) {
        const zs_step *c = &x->plan.steps[i];
        if (c->kind == ZS_STEP_COPY)
            st = zs_cl_record_copy(r, x->buffers[c->src], x->buffers[c->dst], c->bytes,
                                   "seeding");
    }
    if (st == ZESORT_OK)
        st = zs_cl_record_plan(r, &x->plan, x->buffers);
    /* No command at all (n == 0): a marker carries the ordering and the event. */
    if (st == ZESORT_OK && !r->last) {
        cl_event ev;
        cl_int err = clEnqueueMarkerWithWaitList(a->queue, a->nwait, a->nwait ? a->wait : NULL,
                                                 &ev);
        if (err != CL_SUCCESS)
            st = cl_fail(s, "clEnqueueMarkerWithWaitList", err);
        else
            r->last = ev;
    }
    return st;
}

/* Every enqueue, under the sorter's lock. */
static zesort_status enqueue_locked(zesort_cl_sorter *s, const cl_args *a, cl_event *event)
{
    if (event)
        *event = NULL;
    zesort_status st = check_queue(s, a);
    cl_sort x = {.rec = {.kernels = &s->cl, .queue = a->queue, .first_nwait = a->nwait,
                         .first_wait = a->nwait ? a->wait : NULL, .err = &s->err,
                         .last_result = &s->last_result}};
    zesort_algo algo = ZESORT_ALGO_AUTO;
    if (st == ZESORT_OK)
        st = zs_interop_plan(a->opts, a->n, a->shape, s->cl.flavor, &x.plan, &algo, &s->err,
                             a->fn);
    if (st != ZESORT_OK)
        return st;
    st = prepare(s, a, &x);
    if (st == ZESORT_OK)
        st = record(s, a, &x);
    if (st == ZESORT_OK && event) {
        *event = x.rec.last;
        x.rec.last = NULL;
    }
    if (x.rec.last)
        clReleaseEvent(x.rec.last);
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        if (x.table.buf[b].offset != UINT64_MAX && x.buffers[b])
            clReleaseMemObject(x.buffers[b]);
    if (st == ZESORT_OK) {
        s->last_algo = algo;
        zs_error_clear(&s->err);
        if (x.plan.nsteps > 0)
            zs_test_note_sort("opencl-interop", zs_flavor_name(s->cl.flavor));
        if (x.plan.selects)
            zs_test_count_select();
        s->result_in_alt = x.plan.result == ZS_BUF_TMP;
    }
    zs_plan_free(&x.plan);
    return st;
}

zesort_status zs_cl_refused(zesort_cl_sorter *s, const zs_error *refusal, zesort_status st)
{
    return zs_interop_refuse(s ? &s->lock : NULL, s ? &s->err : NULL, &thread_err, refusal, st);
}

static zesort_status check_sync(const zesort_cl_sync *y, zs_error *err, const char *fn)
{
    return zs_interop_check_reserved(y ? y->reserved : NULL,
                                     sizeof y->reserved / sizeof y->reserved[0], err, fn);
}

zesort_status zs_cl_enqueue_desc(zesort_cl_sorter *s, cl_command_queue queue,
                                 const zesort_desc *d, const zesort_cl_sync *y, const char *fn)
{
    cl_event *event = y ? y->event : NULL;
    if (event)
        *event = NULL;
    zs_interop_call c;
    zs_error refusal;
    zesort_status st = zs_interop_resolve(d, &c, &refusal, fn);
    if (st == ZESORT_OK)
        st = check_sync(y, &refusal, fn);
    if (c.result_in_alt)
        *c.result_in_alt = 0;
    if (!s && st == ZESORT_OK)
        st = zs_error_set(&refusal, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    if (st != ZESORT_OK)
        return zs_cl_refused(s, &refusal, st);
    const cl_args a = {queue, &c.shape.base, (cl_mem const *)c.caller, c.n,
                       (cl_mem)c.n_device, c.temp, c.temp_bytes, &c.opts,
                       y ? y->num_wait_events : 0, y ? y->wait_events : NULL, fn};
    pthread_mutex_lock(&s->lock);
    st = enqueue_locked(s, &a, event);
    if (st == ZESORT_OK && c.result_in_alt)
        *c.result_in_alt = s->result_in_alt;
    pthread_mutex_unlock(&s->lock);
    return st;
}

zesort_status zesort_cl_enqueue(zesort_cl_sorter *sorter, cl_command_queue queue,
                                const zesort_desc *d, const zesort_cl_sync *sync)
{
    return zs_cl_enqueue_desc(sorter, queue, d, sync, "zesort_cl_enqueue");
}

zesort_status zesort_cl_requirements(zesort_cl_sorter *sorter, const zesort_desc *d,
                                     zesort_requirements *req)
{
    static const char fn[] = "zesort_cl_requirements";
    zs_interop_call c;
    zs_error refusal;
    zesort_status st = zs_interop_resolve(d, &c, &refusal, fn);
    if (st == ZESORT_OK && (!sorter || !req))
        st = zs_error_set(&refusal, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                          sorter ? "req" : "sorter");
    if (st != ZESORT_OK)
        return zs_cl_refused(sorter, &refusal, st);
    pthread_mutex_lock(&sorter->lock);
    zs_plan plan;
    st = zs_interop_requirements(&c, sorter->cl.flavor, sorter->align, sorter->align, req, &plan,
                                 &sorter->err, fn);
    if (st == ZESORT_OK) { /* OpenCL orders by events: nothing to chain */
        zs_plan_free(&plan);
        zs_error_clear(&sorter->err);
    }
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* ---- caller-supplied alternate buffers ----------------------------------
 * keys_alt and values_alt are the plan's TMP and VALUES_TMP (shape.alt): no
 * sub-buffers of temp for them; in place, the result stays where the last
 * pass wrote it and the enqueue reports which buffer that is. */

zesort_status zesort_cl_alt_temp_requirements(zesort_cl_sorter *sorter, uint64_t n,
                                              int with_values, const zesort_options *opts,
                                              uint64_t *bytes, uint64_t *alignment,
                                              int *result_in_alt)
{
    const char *fn = "zesort_cl_alt_temp_requirements";
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_alt_requirements(fn, opts, n, with_values, sorter->cl.flavor,
                                                   sorter->align, sorter->align, bytes,
                                                   alignment, result_in_alt, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* ---- top-k (zesort_cl_enqueue_topk): the planner's top-k (plan/plan_topk.h) -- */

zesort_status zesort_cl_topk_temp_bytes(zesort_cl_sorter *sorter, uint64_t n, int with_values,
                                        const zesort_options *opts, uint64_t *bytes)
{
    if (!sorter || !bytes)
        return zs_error_set(sorter ? &sorter->err : &thread_err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_cl_topk_temp_bytes: sorter or bytes is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_topk_temp(opts, n, with_values, sorter->cl.flavor,
                                            sorter->align, bytes, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}
