/*
 * plan_walk.c — the steps of a recorded plan, in order (plan_walk.h).
 */
#include "plan/plan_walk.h"

static zesort_status host_scan_refused(const zs_step_ops *ops, zs_error *err)
{
    return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED, "internal error: host scan step in %s",
                        ops->what);
}

zesort_status zs_walk_check(const zs_step_ops *ops, void *rec, const zs_plan *plan,
                            void *const *buffers, zs_error *err)
{
    for (size_t i = 0; i < plan->nsteps; i++) {
        const zs_step *step = &plan->steps[i];
        if (step->kind == ZS_STEP_HOST_SCAN)
            return host_scan_refused(ops, err);
        if (step->kind != ZS_STEP_KERNEL || step->groups == 0)
            continue;
        zesort_status st = ops->check(rec, step, buffers);
        if (st != ZESORT_OK)
            return st;
    }
    return ZESORT_OK;
}

zesort_status zs_walk_plan(const zs_step_ops *ops, void *rec, const zs_plan *plan,
                           void *const *buffers, zs_error *err)
{
    zesort_status st = ZESORT_OK;
    for (size_t i = 0; st == ZESORT_OK && i < plan->nsteps; i++) {
        const zs_step *s = &plan->steps[i];
        if (s->kind == ZS_STEP_KERNEL && s->groups > 0)
            st = ops->kernel(rec, s, buffers);
        else if (s->kind == ZS_STEP_COPY && s->bytes > 0)
            st = ops->copy(rec, buffers[s->dst], buffers[s->src], s->bytes);
        else if (s->kind == ZS_STEP_HOST_SCAN)
            st = host_scan_refused(ops, err);
    }
    return st;
}
