/*
 * cl_recorder.c — enqueues plan steps on an OpenCL queue, timed (device
 * backend) or chained by events (interop): see cl_recorder.h.
 */
#include "backends/opencl/cl_recorder.h"

#include <stdio.h>

#include "plan/plan_walk.h"

zesort_status zs_cl_record_failed(zs_cl_recorder *r, const char *what, cl_int err)
{
    if (r->last_result)
        *r->last_result = err;
    return zs_cl_fail(r->err, what, err);
}

/* How the next command is ordered: what it waits on and where its event
 * goes (ev NULL: nowhere). */
typedef struct cl_order {
    cl_uint nwait;
    const cl_event *wait;
    cl_event fresh, *ev;
} cl_order;

static void order(zs_cl_recorder *r, cl_order *o)
{
    o->nwait = 0;
    o->wait = NULL;
    o->ev = &o->fresh;
    if (r->timed) {
        o->ev = r->timed->n < ZS_CL_MAX_EVENTS ? &r->timed->ev[r->timed->n] : NULL;
    } else if (r->last) {
        o->nwait = 1;
        o->wait = &r->last;
    } else if (r->first_nwait) {
        o->nwait = r->first_nwait;
        o->wait = r->first_wait;
    }
}

/* After an enqueue that returned err: the event kept (timed) or made the
 * chain's newest, or the failure of `call` (with `why`, when not NULL)
 * reported. */
static zesort_status enqueued(zs_cl_recorder *r, cl_int err, cl_event *ev, const char *call,
                              const char *why)
{
    if (err != CL_SUCCESS && why) {
        char what[96];
        snprintf(what, sizeof what, "%s (%s)", call, why);
        return zs_cl_record_failed(r, what, err);
    }
    if (err != CL_SUCCESS)
        return zs_cl_record_failed(r, call, err);
    if (r->timed) {
        r->timed->n += ev != NULL;
    } else {
        if (r->last)
            clReleaseEvent(r->last);
        r->last = *ev;
    }
    return ZESORT_OK;
}

/* The step's kernel, built on first use; a failed OpenCL call's result kept. */
static zesort_status kernel_of(zs_cl_recorder *r, zs_kernel id, cl_kernel *out)
{
    cl_int cl_err = CL_SUCCESS;
    zesort_status st = zs_cl_kernel(r->kernels, id, out, r->err, &cl_err);
    if (st != ZESORT_OK && cl_err != CL_SUCCESS && r->last_result)
        *r->last_result = cl_err;
    return st;
}

zesort_status zs_cl_record_kernel(zs_cl_recorder *r, const zs_step *step, void *const *buffers)
{
    if (step->groups == 0) /* a launch of nothing (OpenCL 1.2 refuses a global size of 0) */
        return ZESORT_OK;
    cl_kernel k = NULL;
    zesort_status st = kernel_of(r, step->kernel, &k);
    if (st != ZESORT_OK)
        return st;
    for (int a = 0; a < step->nargs; ++a) {
        cl_int err;
        if (step->args[a].is_buffer) {
            cl_mem m = (cl_mem)buffers[step->args[a].value];
            err = clSetKernelArg(k, (cl_uint)a, sizeof m, &m);
        } else {
            cl_uint v = step->args[a].value;
            err = clSetKernelArg(k, (cl_uint)a, sizeof v, &v);
        }
        if (err != CL_SUCCESS)
            return zs_cl_record_failed(r, "clSetKernelArg", err);
    }
    size_t local = step->local, global = (size_t)step->groups * step->local;
    char why[128];
    cl_int err = zs_cl_launch_limits(k, r->kernels->device, local, why, sizeof why);
    if (err != CL_SUCCESS) {
        char what[192];
        snprintf(what, sizeof what, "clEnqueueNDRangeKernel (%s: %s)",
                 zs_kernel_name(step->kernel), why);
        return zs_cl_record_failed(r, what, err);
    }
    cl_order o;
    order(r, &o);
    err = clEnqueueNDRangeKernel(r->queue, k, 1, NULL, &global, &local, o.nwait, o.wait, o.ev);
    return enqueued(r, err, o.ev, "clEnqueueNDRangeKernel", NULL);
}

zesort_status zs_cl_record_copy(zs_cl_recorder *r, cl_mem dst, cl_mem src, uint64_t bytes,
                                const char *why)
{
    if (bytes == 0)
        return ZESORT_OK;
    cl_order o;
    order(r, &o);
    cl_int err = clEnqueueCopyBuffer(r->queue, src, dst, 0, 0, (size_t)bytes, o.nwait, o.wait,
                                     o.ev);
    return enqueued(r, err, o.ev, "clEnqueueCopyBuffer", why);
}

zesort_status zs_cl_record_fill(zs_cl_recorder *r, cl_mem dst, uint32_t pattern, uint64_t offset,
                                uint64_t bytes, const char *why)
{
    if (bytes == 0)
        return ZESORT_OK;
    cl_order o;
    order(r, &o);
    /* the pattern is read when the fill is enqueued */
    cl_int err = clEnqueueFillBuffer(r->queue, dst, &pattern, sizeof pattern, (size_t)offset,
                                     (size_t)bytes, o.nwait, o.wait, o.ev);
    return enqueued(r, err, o.ev, "clEnqueueFillBuffer", why);
}

static zesort_status check_step(void *rec, const zs_step *step, void *const *buffers)
{
    (void)buffers;
    return kernel_of(rec, step->kernel, NULL);
}

static zesort_status record_kernel(void *rec, const zs_step *step, void *const *buffers)
{
    return zs_cl_record_kernel(rec, step, buffers);
}

static zesort_status record_copy(void *rec, void *dst, void *src, uint64_t bytes)
{
    return zs_cl_record_copy(rec, dst, src, bytes, NULL);
}

static const zs_step_ops cl_steps = {check_step, record_kernel, record_copy, "an enqueued sort"};

zesort_status zs_cl_record_check(zs_cl_recorder *r, const zs_plan *plan)
{
    return zs_walk_check(&cl_steps, r, plan, NULL, r->err);
}

zesort_status zs_cl_record_plan(zs_cl_recorder *r, const zs_plan *plan, void *const *buffers)
{
    return zs_walk_plan(&cl_steps, r, plan, buffers, r->err);
}
