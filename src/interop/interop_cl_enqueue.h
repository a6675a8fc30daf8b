/*
 * interop_cl_enqueue.h — the one enqueue every OpenCL interop entry point
 * goes through (interop_cl.c), for the 1.1 enqueues (interop_cl_v11.c).
 *
 * Internal to the library; not installed.
 */
#ifndef ZESORT_INTEROP_CL_ENQUEUE_H
#define ZESORT_INTEROP_CL_ENQUEUE_H

#include "common/error.h"
#include "zesort_cl.h"

/* Every enqueue: the descriptor resolved once (interop_desc.c), then
 * checked, planned and enqueued under the sorter's lock. fn names the entry
 * point in messages (zesort_cl_enqueue, or the 1.1 function a shim stands
 * for). */
zesort_status zs_cl_enqueue_desc(zesort_cl_sorter *s, cl_command_queue queue,
                                 const zesort_desc *d, const zesort_cl_sync *y, const char *fn);

/* A refusal before the sorter's lock (interop_desc.c): st, with the message
 * of refusal on the sorter (or the thread, for no sorter). */
zesort_status zs_cl_refused(zesort_cl_sorter *s, const zs_error *refusal, zesort_status st);

#endif
