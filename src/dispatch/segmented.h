/*
 * segmented.h — the paths of a segmented sort (zesort_sort_segments, its
 * offsets checked), which the dispatcher picks from (dispatch.c): the C
 * fallback, one device, or the group's devices (segmented.c).
 */
#ifndef ZESORT_DISPATCH_SEGMENTED_H
#define ZESORT_DISPATCH_SEGMENTED_H

#include <stdint.h>

#include "dispatch/dispatch.h"
#include "plan/plan.h"
#include "run/context.h"

/* How a segment too long for these paths is sorted: as a plain sort of its
 * own of n keys at io on ctx (solo: on ctx's device alone), its request
 * made from opts, by the dispatcher that handed it down (so that nothing
 * here calls the dispatcher by name). device_ms (may be NULL): set to its
 * devices' time; ran: what it ran; report (may be NULL): its report. */
typedef zesort_status (*zs_range_sort)(zesort_context *ctx, const zesort_options *opts,
                                       const zs_host_arrays *io, uint64_t n, int solo,
                                       double *device_ms, zesort_algo *ran,
                                       zesort_sort_report *report);

/* A segmented sort's request (as for all its keys), options, and the
 * sorter of its long segments. */
typedef struct zs_segmented {
    const zs_plan_request *req;
    const zesort_options *opts;
    zs_range_sort sort_range;
} zs_segmented;

/* On the C fallback: in place, the segments sorted in parallel, then each
 * longer than it takes at once as a sort of its own. device_ms (may be
 * NULL): set to the sort's time. */
zesort_status zs_segments_on_cpu(zesort_context *ctx, const zs_sort_call *c,
                                 const zs_segmented *s, double *device_ms, zesort_algo *ran);

/* On ctx's device: every segment by the device-side segmented plan
 * (zs_plan_segments_device: short ones a work-group each, long ones by the
 * onesweep passes per segment, classified on the device), in runs that fit
 * the device; a segment too long for it alone as a sort of its own.
 * device_ms (may be NULL): set to the devices' time (the caller starts it
 * at 0). *ran: ZESORT_ALGO_ONESWEEP when a segment took the global passes. */
zesort_status zs_segments_on_device(zesort_context *ctx, const zs_sort_call *c,
                                    const zs_segmented *s, double *device_ms, zesort_algo *ran);

/* On the first `devices` devices of ctx's group: runs of whole segments
 * dealt to them and sorted at once, then each segment longer than a
 * device's share by the whole group. report: the runs are its parts, then
 * every part of the long segments' sorts. */
zesort_status zs_segments_on_group(zesort_context *ctx, const zs_sort_call *c,
                                   const zs_segmented *s, unsigned devices, zesort_algo *ran,
                                   zesort_sort_report *report);

#endif
