/*
 * api_sort.h — what the sort entry points (api_sort.c: validation, one
 * device, a split over several) share with the segmented sort
 * (api_segments.c), which sorts a long segment as a sort of its own.
 */
#ifndef ZESORT_API_SORT_H
#define ZESORT_API_SORT_H

#include <stdint.h>

#include "context.h"
#include "plan.h"
#include "run_plan.h"
#include "zesort.h"

/* One host sort's arrays: in place (in and out the same arrays), out of
 * place, or an argsort (values_in NULL: the indices are made by the sort;
 * keys_out NULL: the sorted keys are not wanted). */
typedef struct zs_sort_call {
    zs_host_arrays io;
    int argsort;
    const char *fn;
    int segmented;           /* zesort_sort_segments (in place): */
    const uint64_t *offsets; /* segments + 1 offsets, checked by validate */
    uint64_t segments;
    int solo; /* on ctx's own device only: the group's others sort runs of
                 the same segmented sort at once (segment_runs.h) */
    int copy; /* zesort_sort_copy: its outputs are arrays of their own (an
                 input that is an output is refused, as any overlap) */
} zs_sort_call;

/* A checked sort of n keys: validated, then dispatched to the C fallback,
 * one device, a split over the group's devices or zs_sort_segments.
 * device_ms, ran, report (each may be NULL): the device time, the
 * algorithm that ran, how the sort ran (filled on success). */
zesort_status zs_sort_timed(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                            const zesort_options *opts, double *device_ms, zesort_algo *ran,
                            zesort_sort_report *report);

/* The most keys one sort on ctx's device can take at once with req. */
uint64_t zs_part_max_keys(zesort_context *ctx, const zs_plan_request *req);

/* The report of one sort of n keys on one device, in one go, that took ms. */
void zs_report_one(zesort_sort_report *report, uint64_t n, double ms);

/* A segmented sort, its offsets checked (api_segments.c): on the C
 * fallback, one device, or (ZESORT_MULTI_MIN_KEYS keys a device and more)
 * the group's devices. report: filled as for any sort; on one device one
 * part. */
zesort_status zs_sort_segments(zesort_context *ctx, const zs_sort_call *c,
                               const zs_plan_request *req, const zesort_options *opts,
                               double *device_ms, zesort_algo *ran, zesort_sort_report *report);

#endif
