/*
 * topk_select.h — a host top-k on one device by the radix select of the
 * planner (plan/plan_topk.h): the keys uploaded (or borrowed), the select,
 * the sort of the candidates and the copies of the first k run as one plan
 * on the device, and only the k results come back (topk_select.c).
 */
#ifndef ZESORT_DISPATCH_TOPK_SELECT_H
#define ZESORT_DISPATCH_TOPK_SELECT_H

#include "dispatch/topk.h"
#include "run/context.h"

/* Whether c runs by the device select: a device backend, one segment, keys
 * the kernels read, and a plan that fits the device in one go (otherwise
 * topk.c's candidates and the dispatcher's sort, which splits). */
int zs_topk_select_fits(zesort_context *ctx, const zs_topk_call *c, const zesort_options *opts);

/* Runs c (checked, n and k > 0) with opts on ctx's device; *ran: the
 * candidates' sort's algorithm. Errors as the host runner's, with a message
 * on ctx. */
zesort_status zs_topk_select_run(zesort_context *ctx, const zs_topk_call *c,
                                 const zesort_options *opts, zesort_algo *ran);

#endif
