/*
 * plan_walk.h — the walk over a plan's steps that both recorders share
 * (plan_walk.c): Level Zero's (ze_recorder.c) and OpenCL's (cl_recorder.c)
 * hand it their own step functions, so the rules of a recorded plan (steps
 * in order; a kernel of no groups and a copy of no bytes record nothing; a
 * host scan cannot be recorded, it needs the host mid-sort) are written
 * once. The host runner (run_plan.c) walks with host scans and hooks of
 * its own.
 */
#ifndef ZESORT_PLAN_WALK_H
#define ZESORT_PLAN_WALK_H

#include "common/error.h"
#include "plan/plan.h"

/* One API's recording of a step, on its recorder `rec`. */
typedef struct zs_step_ops {
    /* a ZS_STEP_KERNEL step with groups, before anything is recorded: its
     * kernel built and its grid checked */
    zesort_status (*check)(void *rec, const zs_step *step, void *const *buffers);
    zesort_status (*kernel)(void *rec, const zs_step *step, void *const *buffers);
    /* a ZS_STEP_COPY of bytes > 0 */
    zesort_status (*copy)(void *rec, void *dst, void *src, uint64_t bytes);
    const char *what; /* "an appended sort", "an enqueued sort": for messages */
} zs_step_ops;

/* Checks every kernel step of the plan with ops->check; a host scan step
 * is refused (UNSUPPORTED, message in err). */
zesort_status zs_walk_check(const zs_step_ops *ops, void *rec, const zs_plan *plan,
                            void *const *buffers, zs_error *err);

/* Records every step of the plan in order. */
zesort_status zs_walk_plan(const zs_step_ops *ops, void *rec, const zs_plan *plan,
                           void *const *buffers, zs_error *err);

#endif
