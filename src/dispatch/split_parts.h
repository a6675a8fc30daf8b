/*
 * split_parts.h — a sort that does not fit one device in one go, or runs on
 * several (split_parts.c): split on the host (split_sort.h), the parts
 * sorted on the group's devices, each in one go (one_device.h).
 */
#ifndef ZESORT_DISPATCH_SPLIT_PARTS_H
#define ZESORT_DISPATCH_SPLIT_PARTS_H

#include <stdint.h>

#include "plan/plan.h"
#include "run/context.h"
#include "run/run_plan.h"

/* Sorts req->n keys of io (an argsort: req->iota_values) in parts of at
 * most max_keys keys on the first `devices` devices of ctx's group, the
 * host memory checked first. *device_ms (may be NULL) grows by the devices'
 * times; report (may be NULL): the split's. A failed part's message names
 * its device. */
zesort_status zs_split_parts(zesort_context *ctx, const zs_host_arrays *io,
                             const zs_plan_request *req, unsigned devices, uint64_t max_keys,
                             double *device_ms, zesort_sort_report *report);

#endif
