/*
 * ze_recorder.c — appends plan steps to a Level Zero command list, ordered by
 * an event chain (device backend, with timestamps) or by barriers (interop):
 * see ze_recorder.h.
 */
#include "backends/level_zero/ze_recorder.h"

#include <stdio.h>

#include "plan/plan_walk.h"

/* A failed append. On the caller's list (interop) the list may now hold part
 * of the sort: the message says so and the status is BACKEND (or out of
 * memory), as zesort_ze.h promises. */
static zesort_status append_failed(zs_ze_recorder *r, ze_result_t res, const char *fmt,
                                   const char *what, unsigned a, unsigned b)
{
    char call[160];
    snprintf(call, sizeof call, fmt, what, a, b);
    zesort_status st = zs_ze_status(res);
    zs_ze_note_failure(res);
    if (r->callers_list && st != ZESORT_ERROR_OUT_OF_HOST_MEMORY &&
        st != ZESORT_ERROR_OUT_OF_DEVICE_MEMORY)
        st = ZESORT_ERROR_BACKEND;
    return zs_error_set(r->err, st, "%s failed: %s (0x%x)%s", call, zs_ze_result_name(res),
                        (unsigned)res,
                        r->callers_list ? " (the command list may hold a partial sort: reset it)"
                                        : "");
}

/* What the next command signals and waits on (*wait: NULL when nwait is 0). */
static zesort_status order(zs_ze_recorder *r, ze_event_handle_t *signal, uint32_t *nwait,
                           ze_event_handle_t **wait)
{
    *signal = NULL;
    *nwait = 0;
    *wait = NULL;
    if (r->next_event) {
        if (r->last) {
            *nwait = 1;
            *wait = &r->last;
        } else if (r->first_nwait) {
            *nwait = r->first_nwait;
            *wait = r->first_wait;
        }
        return r->next_event(r->user, signal);
    }
    ze_result_t res = zeCommandListAppendBarrier(r->list, NULL, 0, NULL);
    return res == ZE_RESULT_SUCCESS
               ? ZESORT_OK
               : append_failed(r, res, "%s", "zeCommandListAppendBarrier", 0, 0);
}

static void appended(zs_ze_recorder *r, ze_result_t res, ze_event_handle_t signal)
{
    if (!r->next_event)
        return;
    if (res == ZE_RESULT_SUCCESS)
        r->last = signal;
    else if (r->unused_event)
        r->unused_event(r->user);
}

zesort_status zs_ze_record_kernel(zs_ze_recorder *r, const zs_step *step, void *const *buffers)
{
    if (step->kind != ZS_STEP_KERNEL)
        return zs_error_set(r->err, ZESORT_ERROR_BACKEND,
                            "internal error: launch of a non-kernel step");
    if (step->groups == 0)
        return ZESORT_OK;
    ze_kernel_handle_t kernel;
    ze_group_count_t groups;
    zesort_status st = zs_ze_prepare_step(r->kernels, step, buffers, &kernel, &groups, r->err);
    ze_event_handle_t signal, *wait;
    uint32_t nwait;
    if (st == ZESORT_OK)
        st = order(r, &signal, &nwait, &wait);
    if (st != ZESORT_OK)
        return st;
    ze_result_t res = zeCommandListAppendLaunchKernel(r->list, kernel, &groups, signal, nwait, wait);
    appended(r, res, signal);
    return res == ZE_RESULT_SUCCESS
               ? ZESORT_OK
               : append_failed(r, res, "zeCommandListAppendLaunchKernel(%s, %u groups of %u)",
                               zs_kernel_name(step->kernel), groups.groupCountX, step->local);
}

zesort_status zs_ze_record_copy(zs_ze_recorder *r, void *dst, const void *src, uint64_t bytes)
{
    if (bytes == 0)
        return ZESORT_OK;
    ze_event_handle_t signal, *wait;
    uint32_t nwait;
    zesort_status st = order(r, &signal, &nwait, &wait);
    if (st != ZESORT_OK)
        return st;
    ze_result_t res = zeCommandListAppendMemoryCopy(r->list, dst, src, (size_t)bytes, signal,
                                                    nwait, wait);
    appended(r, res, signal);
    return res == ZE_RESULT_SUCCESS
               ? ZESORT_OK
               : append_failed(r, res, "%s", "zeCommandListAppendMemoryCopy (device to device)",
                               0, 0);
}

zesort_status zs_ze_record_fill(zs_ze_recorder *r, void *dst, uint32_t pattern, uint64_t bytes)
{
    if (bytes == 0)
        return ZESORT_OK;
    ze_event_handle_t signal, *wait;
    uint32_t nwait;
    zesort_status st = order(r, &signal, &nwait, &wait);
    if (st != ZESORT_OK)
        return st;
    /* the pattern is read when the fill is appended */
    ze_result_t res = zeCommandListAppendMemoryFill(r->list, dst, &pattern, sizeof pattern,
                                                    (size_t)bytes, signal, nwait, wait);
    appended(r, res, signal);
    return res == ZE_RESULT_SUCCESS
               ? ZESORT_OK
               : append_failed(r, res, "%s", "zeCommandListAppendMemoryFill", 0, 0);
}

/* The chain's next event: the last command signals the caller's event, so
 * that it follows every write of the sort. */
static zesort_status chain_next(void *user, ze_event_handle_t *out)
{
    zs_ze_chain *c = user;
    *out = c->used + 1 == c->total ? c->signal : c->events[c->used];
    c->used++;
    return ZESORT_OK;
}

/* An append failed: its event was never used. */
static void chain_unused(void *user)
{
    ((zs_ze_chain *)user)->used--;
}

zesort_status zs_ze_record_chained(zs_ze_recorder *r, zs_ze_chain *ch, uint32_t total,
                                   ze_event_handle_t signal, uint32_t nwait,
                                   ze_event_handle_t *wait, const char *fn)
{
    ch->total = total;
    ch->used = 0;
    ch->signal = signal;
    r->next_event = chain_next;
    r->unused_event = chain_unused;
    r->user = ch;
    r->chain = ch;
    r->last = NULL;
    r->first_nwait = nwait;
    r->first_wait = wait;
    const uint32_t need = total ? total - 1 : 0;
    if (ch->count < need)
        return zs_error_set(r->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: this sort needs %u chain events, %u given (see "
                            "zesort_ze_chain_events_for)", fn, need, ch->count);
    if (need > 0 && !ch->events)
        return zs_error_set(r->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: chain_events is NULL",
                            fn);
    for (uint32_t i = 0; i < need; i++)
        if (!ch->events[i] || ch->events[i] == signal)
            return zs_error_set(r->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: chain_events[%u] is %s", fn, i,
                                ch->events[i] ? "the signal event" : "NULL");
    return ZESORT_OK;
}

/* A barrier of the recording's own (not one of order()'s). */
static zesort_status barrier(zs_ze_recorder *r, ze_event_handle_t signal, uint32_t nwait,
                             ze_event_handle_t *wait)
{
    ze_result_t res = zeCommandListAppendBarrier(r->list, signal, nwait, nwait ? wait : NULL);
    return res == ZE_RESULT_SUCCESS
               ? ZESORT_OK
               : append_failed(r, res, "%s", "zeCommandListAppendBarrier", 0, 0);
}

zesort_status zs_ze_record_open(zs_ze_recorder *r, uint32_t nwait, ze_event_handle_t *wait)
{
    return r->chain ? ZESORT_OK : barrier(r, NULL, nwait, wait);
}

zesort_status zs_ze_record_close(zs_ze_recorder *r, ze_event_handle_t signal)
{
    if (!r->chain)
        return barrier(r, signal, 0, NULL);
    /* chained: a barrier with wait events waits for nothing else */
    return r->chain->total == 0 && signal ? barrier(r, signal, r->first_nwait, r->first_wait)
                                    : ZESORT_OK;
}

uint32_t zs_ze_record_count(const zs_plan *plan)
{
    uint32_t count = 0;
    for (size_t i = 0; i < plan->nsteps; i++) {
        const zs_step *s = &plan->steps[i];
        count += (s->kind == ZS_STEP_KERNEL && s->groups > 0) ||
                 (s->kind == ZS_STEP_COPY && s->bytes > 0);
    }
    return count;
}

static zesort_status check_step(void *rec, const zs_step *step, void *const *buffers)
{
    zs_ze_recorder *r = rec;
    ze_kernel_handle_t k;
    ze_group_count_t g;
    return zs_ze_prepare_step(r->kernels, step, buffers, &k, &g, r->err);
}

static zesort_status record_kernel(void *rec, const zs_step *step, void *const *buffers)
{
    return zs_ze_record_kernel(rec, step, buffers);
}

static zesort_status record_copy(void *rec, void *dst, void *src, uint64_t bytes)
{
    return zs_ze_record_copy(rec, dst, src, bytes);
}

static const zs_step_ops ze_steps = {check_step, record_kernel, record_copy, "an appended sort"};

zesort_status zs_ze_record_check(zs_ze_recorder *r, const zs_plan *plan, void *const *buffers)
{
    return zs_walk_check(&ze_steps, r, plan, buffers, r->err);
}

zesort_status zs_ze_record_plan(zs_ze_recorder *r, const zs_plan *plan, void *const *buffers)
{
    return zs_walk_plan(&ze_steps, r, plan, buffers, r->err);
}
