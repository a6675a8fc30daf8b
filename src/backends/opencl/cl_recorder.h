/*
 * cl_recorder.h — how a plan becomes OpenCL commands: the one place that
 * enqueues plan steps (kernel launches, buffer copies, fills) on a queue.
 * Used by the device backend (backend_opencl.c: its own profiling queue,
 * run step by step by run_plan.c) and by the interop API (interop_cl.c: a
 * whole plan on the caller's queue), as ze_recorder.h is for Level Zero.
 *
 * Two ways to order the commands:
 *   timed mode  (timed set): the queue is in order; every command's event
 *               is kept in *timed, so that the backend can add up the device
 *               time of a region (when *timed is full, no more are kept);
 *   chain mode  (timed NULL): every command waits for the previous one's
 *               event, the first for first_wait (the caller's wait list), so
 *               in-order and out-of-order queues behave alike; `last` holds
 *               the newest command's event (the recorder's reference).
 */
#ifndef ZESORT_CL_RECORDER_H
#define ZESORT_CL_RECORDER_H

#include "backends/opencl/opencl_common.h"

#define ZS_CL_MAX_EVENTS 4096

/* The events of the commands of one timed region. */
typedef struct zs_cl_events {
    cl_event ev[ZS_CL_MAX_EVENTS];
    size_t n;
} zs_cl_events;

typedef struct zs_cl_recorder {
    zs_cl_kernels *kernels;
    cl_command_queue queue;
    zs_cl_events *timed;  /* timed mode; NULL: chain mode */
    cl_uint first_nwait;  /* chain mode: what the first command waits on */
    const cl_event *first_wait;
    cl_event last;        /* chain mode: the newest command's event, NULL = none */
    zs_error *err;
    cl_int *last_result;  /* where a failed call's result is kept (NULL: nowhere) */
} zs_cl_recorder;

/* A failed OpenCL call `what`: its result kept, the message set; returns
 * its status (zs_cl_fail). */
zesort_status zs_cl_record_failed(zs_cl_recorder *r, const char *what, cl_int err);

/* Enqueues a ZS_STEP_KERNEL step (nothing for 0 groups), its kernel built
 * on first use. `buffers` maps zs_buffer ids to cl_mem handles. */
zesort_status zs_cl_record_kernel(zs_cl_recorder *r, const zs_step *step, void *const *buffers);

/* Enqueues a copy of `bytes` from src to dst (nothing for 0); `why`, when
 * not NULL, names it in a failure's message ("clEnqueueCopyBuffer (why)"). */
zesort_status zs_cl_record_copy(zs_cl_recorder *r, cl_mem dst, cl_mem src, uint64_t bytes,
                                const char *why);

/* Enqueues a fill of dst's bytes [offset, offset + bytes) with the 4-byte
 * `pattern` (nothing for 0 bytes); `why` as for zs_cl_record_copy. */
zesort_status zs_cl_record_fill(zs_cl_recorder *r, cl_mem dst, uint32_t pattern, uint64_t offset,
                                uint64_t bytes, const char *why);

/* Before anything is enqueued: builds every kernel of the plan, so that a
 * build error leaves the queue untouched. A host scan step is refused
 * (UNSUPPORTED): a recorded plan runs without the host. */
zesort_status zs_cl_record_check(zs_cl_recorder *r, const zs_plan *plan);

/* Enqueues every step of the plan in order. */
zesort_status zs_cl_record_plan(zs_cl_recorder *r, const zs_plan *plan, void *const *buffers);

#endif
