/*
 * plan_steps.h — the step builders of plan.c, for the planner's own files
 * that compose plans (plan_topk.c: a select, then a sort plan). Not for the
 * layers above: they take whole plans (plan.h).
 */
#ifndef ZESORT_PLAN_STEPS_H
#define ZESORT_PLAN_STEPS_H

#include "plan/plan.h"

/* A new zeroed step at the end of the plan; NULL when out of host memory. */
zs_step *zs_plan_push_step(zs_plan *plan);

/* A kernel launch of `groups` work-groups of `local` items; 0, or -1 out of
 * host memory. */
int zs_plan_push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                        const zs_arg *args);

/* A copy of `bytes` from buffer src to dst; 0, or -1. */
int zs_plan_push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes);

/* The exclusive scan of TABLE (bins * chunks(plan->n) entries, bin-major)
 * on the device, reading n from PARAMS; 0, or -1. */
int zs_plan_device_scan(zs_plan *plan, unsigned bins);

/* The buffers of a small_sort launch (plan.h): its input, its sort's
 * buffers and partners, and where the first out_count keys go. */
typedef struct zs_small_buffers {
    zs_buffer keys_in, keys, tmp, values_in, values, values_tmp, out_keys, out_values, params;
} zs_small_buffers;

/* The one small_sort launch of req (n, widths, flags with iota_values,
 * bits, serial) over b; 0, or -1 out of host memory. */
int zs_plan_push_small(zs_plan *plan, const zs_plan_request *req, const zs_small_buffers *b,
                       uint32_t out_count);

#endif
