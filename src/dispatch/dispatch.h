/*
 * dispatch.h — the one place that decides how a checked host sort runs
 * (dispatch.c): on the C fallback, on one device in one go, split into
 * parts that fit the device, over the devices of a context's group, or, for
 * a segmented sort, by seg_sort launches, runs of segments dealt to the
 * group's devices and long segments sorted as sorts of their own. The API
 * (api_sort.c) checks the arguments and holds the context's lock; below the
 * dispatcher: the paths (one_device.c, split_parts.c, segmented.c), what
 * fits (fits.c), the planner and the host runner.
 */
#ifndef ZESORT_DISPATCH_H
#define ZESORT_DISPATCH_H

#include <stdint.h>

#include "plan/plan.h"
#include "run/context.h"
#include "run/run_plan.h"
#include "zesort.h"

/* One host sort's arrays: in place (in and out the same arrays), out of
 * place, or an argsort (values_in NULL: the indices are made by the sort;
 * keys_out NULL: the sorted keys are not wanted). */
typedef struct zs_sort_call {
    zs_host_arrays io;
    int argsort;
    const char *fn;
    int segmented;           /* zesort_sort_segments (in place): */
    const uint64_t *offsets; /* segments + 1 offsets, checked by the API */
    uint64_t segments;
    int solo; /* on ctx's own device only: the group's others sort runs of
                 the same segmented sort at once (segment_runs.h) */
    int copy; /* zesort_sort_copy: its outputs are arrays of their own (an
                 input that is an output is refused, as any overlap) */
} zs_sort_call;

/* Runs the checked sort c of req->n keys (req as zs_make_host_request made
 * it, iota_values for an argsort) with opts (a long segment's own request
 * is made from them). device_ms (may be NULL): set to the devices' time;
 * ran: what ran (a segmented sort: what its last segment sorted on its own
 * ran, else unchanged); report (may be NULL): how the sort ran, filled on
 * success. */
zesort_status zs_dispatch(zesort_context *ctx, const zs_sort_call *c, const zs_plan_request *req,
                          const zesort_options *opts, double *device_ms, zesort_algo *ran,
                          zesort_sort_report *report);

/* How a sort of req->n > 0 keys would run (zesort_check_split): devices,
 * parts, their keys, the host copy and the device memory of a part, and
 * whether the device and the host can hold it at all (the refusal's status
 * and message on ctx). */
zesort_status zs_dispatch_check(zesort_context *ctx, const zs_plan_request *req,
                                zesort_split_info *info);

#endif
