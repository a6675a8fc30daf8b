/*
 * one_device.h — a sort that fits one device (or the C fallback) in one go
 * (one_device.c): the dispatcher's last step before the planner and the
 * host runner, for a whole sort, a part of a split, or a run of segments.
 */
#ifndef ZESORT_DISPATCH_ONE_DEVICE_H
#define ZESORT_DISPATCH_ONE_DEVICE_H

#include "plan/plan.h"
#include "run/context.h"
#include "run/run_plan.h"

/* Sorts req->n keys of io on ctx's device (planned here) or the C fallback
 * (argsort: the indices are made first); *device_ms (may be NULL) grows by
 * the sort's time. The failure's message on ctx. */
zesort_status zs_sort_one(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                          const zs_plan_request *req, double *device_ms);

/* Runs a plan made for ctx's device on io; *device_ms (may be NULL) grows
 * by its time. A backend failure's message on ctx (the runner words its
 * own). */
zesort_status zs_run_on_device(zesort_context *ctx, const zs_plan *plan, const zs_host_arrays *io,
                               double *device_ms);

#endif
