/*
 * interop_ze.c — the Level Zero interop API (include/zesort_ze.h): appends
 * the launches of a plan to a caller's command list, on caller memory.
 *
 * Layout of the caller's temporary memory: every buffer the plan uses except
 * the caller's KEYS and VALUES — TMP, TABLE, PARAMS, SUMS0..3, VALUES_TMP,
 * OS_HIST, OS_STATUS (zs_buffer order, unused ones skipped) — each starting on
 * a 256-byte boundary relative to the start of temp.
 *
 * The steps are appended by the Level Zero recorder (ze_recorder.c) in
 * barrier mode: the sort needs no event pool of its own, and a barrier also
 * orders it after earlier commands of the list and before later ones, which
 * is what a pipeline expects.
 */
#include "zesort_ze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "plan.h"
#include "sort_request.h"
#include "ze_common.h"
#include "ze_recorder.h"

#define TEMP_ALIGN 256u

struct zesort_ze_sorter {
    zs_ze_kernels kernels; /* borrowed context/device, own modules/kernels */
    zs_error err;
};

/* Calls with no sorter (a failed zesort_ze_create, a NULL sorter) report here. */
static _Thread_local zs_error thread_err = {"no error"};

const char *zesort_ze_last_error(const zesort_ze_sorter *sorter)
{
    return sorter ? sorter->err.text : thread_err.text;
}

zesort_status zesort_ze_create(ze_context_handle_t context, ze_device_handle_t device,
                               zesort_ze_sorter **out)
{
    if (!out)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_create: out is NULL");
    *out = NULL;
    if (!context)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_create: context handle is NULL");
    if (!device)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_create: device handle is NULL");
    zesort_ze_sorter *s = calloc(1, sizeof *s);
    if (!s)
        return zs_error_set(&thread_err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "zesort_ze_create: out of host memory");
    zesort_status st = zs_ze_kernels_init(&s->kernels, context, device, &s->err);
    if (st != ZESORT_OK) {
        zs_error_set(&thread_err, st, "zesort_ze_create: %s", s->err.text);
        free(s);
        return st;
    }
    zs_error_clear(&s->err);
    *out = s;
    return ZESORT_OK;
}

void zesort_ze_destroy(zesort_ze_sorter *sorter)
{
    if (!sorter)
        return;
    zs_ze_kernels_release(&sorter->kernels);
    free(sorter);
}


/* Checks options as zesort_sort does and turns them into a plan request for
 * n keys (with values when `pairs`). */
static zesort_status make_request(zesort_ze_sorter *s, uint64_t n, int pairs,
                                  const zesort_options *opts, zs_plan_request *req)
{
    zesort_algo algo;
    zesort_status st = zs_make_request(opts, n, pairs, zs_ze_flavor(&s->kernels), req, &algo,
                                       &s->err);
    if (st != ZESORT_OK)
        return st;
    if (req->host_scan) /* CM only: onesweep has no separate prefix step */
        return zs_error_set(&s->err, ZESORT_ERROR_UNSUPPORTED,
                    "the host scan needs a host round trip, which an appended sort cannot "
                    "make: use ZESORT_SCAN_DEVICE");
    return ZESORT_OK;
}

static uint64_t align_up(uint64_t x)
{
    return (x + TEMP_ALIGN - 1) / TEMP_ALIGN * TEMP_ALIGN;
}

/* Offsets of the plan's buffers (not the caller's KEYS and VALUES) in temp
 * memory; returns the total. */
static uint64_t temp_layout(const zs_plan *plan, uint64_t offsets[ZS_BUF_COUNT])
{
    uint64_t total = 0;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        offsets[b] = UINT64_MAX;
        if (b == ZS_BUF_KEYS || b == ZS_BUF_VALUES || plan->buffer_bytes[b] == 0)
            continue;
        offsets[b] = total;
        total += align_up(plan->buffer_bytes[b]);
    }
    return total;
}

static zesort_status build_plan(zesort_ze_sorter *s, uint64_t n, int pairs,
                                const zesort_options *opts, zs_plan *plan)
{
    zs_plan_request req;
    zesort_status st = make_request(s, n, pairs, opts, &req);
    if (st != ZESORT_OK)
        return st;
    if (zs_plan_build(&req, plan) != 0)
        return zs_error_set(&s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory building the sort plan");
    return ZESORT_OK;
}

zesort_status zesort_ze_temp_bytes(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                   const zesort_options *opts, uint64_t *bytes)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_temp_bytes: sorter is NULL");
    if (!bytes)
        return zs_error_set(&sorter->err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_temp_bytes: bytes is NULL");
    *bytes = 0;
    zs_plan plan;
    zesort_status st = build_plan(sorter, n, with_values, opts, &plan);
    if (st != ZESORT_OK)
        return st;
    uint64_t offsets[ZS_BUF_COUNT];
    *bytes = temp_layout(&plan, offsets);
    zs_plan_free(&plan);
    zs_error_clear(&sorter->err);
    return ZESORT_OK;
}

/* A driver call made outside the recorder failed while appending. */
static zesort_status append_failed(zesort_ze_sorter *s, const char *what, ze_result_t r)
{
    zesort_status st = zs_ze_status(r);
    return zs_error_set(&s->err,
                        st == ZESORT_ERROR_OUT_OF_HOST_MEMORY ||
                                st == ZESORT_ERROR_OUT_OF_DEVICE_MEMORY ? st : ZESORT_ERROR_BACKEND,
                        "%s failed: %s (0x%x) (the command list may hold a partial sort: reset it)",
                        what, zs_ze_result_name(r), (unsigned)r);
}

static zesort_status barrier(zesort_ze_sorter *s, ze_command_list_handle_t list,
                             ze_event_handle_t signal, uint32_t nwait, ze_event_handle_t *wait)
{
    ze_result_t r = zeCommandListAppendBarrier(list, signal, nwait, nwait ? wait : NULL);
    return r == ZE_RESULT_SUCCESS ? ZESORT_OK : append_failed(s, "zeCommandListAppendBarrier", r);
}

/* Shared body of the direct (n_devptr NULL) and indirect variants. */
static zesort_status append_sort(zesort_ze_sorter *s, ze_command_list_handle_t list, void *keys,
                                 uint32_t *values, uint64_t n, const uint32_t *n_devptr, void *temp,
                                 uint64_t temp_bytes, const zesort_options *opts,
                                 ze_event_handle_t signal, uint32_t nwait, ze_event_handle_t *wait)
{
    const char *fn = n_devptr ? "zesort_ze_append_sort_indirect" : "zesort_ze_append_sort";
    if (!s) {
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    }
    if (!list) {
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: command list handle is NULL", fn);
    }
    if (nwait > 0 && !wait) {
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %u wait events but wait_events is NULL", fn, nwait);
    }
    for (uint32_t i = 0; i < nwait; i++) {
        if (!wait[i]) {
            return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: wait_events[%u] is NULL", fn, i);
        }
    }
    zs_plan plan;
    zesort_status st = build_plan(s, n, values != NULL, opts, &plan);
    if (st != ZESORT_OK)
        return st;
    uint64_t offsets[ZS_BUF_COUNT];
    uint64_t need = temp_layout(&plan, offsets);
    void *buffers[ZS_BUF_COUNT] = {0};
    zs_ze_recorder rec = {.kernels = &s->kernels, .list = list, .err = &s->err}; /* barriers */
    if (n > 0 && !keys) {
        st = zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: keys is NULL for %llu keys", fn, (unsigned long long)n);
    } else if (((uintptr_t)keys % (n ? plan.buffer_bytes[ZS_BUF_KEYS] / n : 4)) ||
               ((uintptr_t)values & 3u) || ((uintptr_t)temp & 7u) || ((uintptr_t)n_devptr & 3u)) {
        st = zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: keys must be aligned to the key size, values and the count to 4 bytes, "
                "temp to 8 bytes", fn);
    } else if (need > 0 && !temp) {
        st = zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: temp is NULL but a sort of %llu keys needs %llu bytes of temp memory",
                fn, (unsigned long long)n, (unsigned long long)need);
    } else if (temp_bytes < need) {
        st = zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                          "%s: temp memory of %llu bytes is too small: a sort of %llu keys needs "
                          "%llu bytes (see zesort_ze_temp_bytes)", fn,
                          (unsigned long long)temp_bytes, (unsigned long long)n,
                          (unsigned long long)need);
    }
    if (st == ZESORT_OK) {
        buffers[ZS_BUF_KEYS] = keys;
        buffers[ZS_BUF_VALUES] = values;
        for (int b = 0; b < ZS_BUF_COUNT; b++)
            if (b != ZS_BUF_KEYS && b != ZS_BUF_VALUES && offsets[b] != UINT64_MAX)
                buffers[b] = (char *)temp + offsets[b];
        st = zs_ze_record_check(&rec, &plan, buffers);
    }
    if (st != ZESORT_OK) {
        zs_plan_free(&plan);
        return st;
    }

    /* 1. Wait for the caller's events and everything already in the list. */
    st = barrier(s, list, NULL, nwait, wait);
    /* 2. n into params[0] (kernels read it there); the rest of PARAMS zeroed.
     *    Fill patterns are read when the fill is appended. */
    if (st == ZESORT_OK && plan.nsteps > 0) {
        uint32_t *params = buffers[ZS_BUF_PARAMS];
        uint64_t pbytes = plan.buffer_bytes[ZS_BUF_PARAMS];
        uint32_t zero = 0, n32 = (uint32_t)n;
        ze_result_t r = ZE_RESULT_SUCCESS;
        if (pbytes > sizeof(uint32_t))
            r = zeCommandListAppendMemoryFill(list, params + 1, &zero, sizeof zero,
                                              (size_t)(pbytes - sizeof(uint32_t)), NULL, 0, NULL);
        if (r != ZE_RESULT_SUCCESS)
            st = append_failed(s, "zeCommandListAppendMemoryFill (params)", r);
        else if (n_devptr)
            r = zeCommandListAppendMemoryCopy(list, params, n_devptr, sizeof(uint32_t), NULL, 0, NULL);
        else
            r = zeCommandListAppendMemoryFill(list, params, &n32, sizeof n32, sizeof n32, NULL, 0, NULL);
        if (st == ZESORT_OK && r != ZE_RESULT_SUCCESS)
            st = append_failed(s, n_devptr ? "zeCommandListAppendMemoryCopy (count)"
                                            : "zeCommandListAppendMemoryFill (count)", r);
    }
    /* 3. Indirect sorts with an odd number of passes end with copies of
     *    max_n elements from the ping-pong buffers home; elements past the
     *    count would come from uninitialised temp memory. Seeding the
     *    ping-pong buffers with the caller's data first keeps them intact
     *    (the passes only write elements below the count). */
    for (size_t i = 0; n_devptr && st == ZESORT_OK && i < plan.nsteps; i++) {
        const zs_step *c = &plan.steps[i];
        if (c->kind != ZS_STEP_COPY || c->bytes == 0)
            continue;
        ze_result_t r = zeCommandListAppendMemoryCopy(list, buffers[c->src], buffers[c->dst],
                                                      (size_t)c->bytes, NULL, 0, NULL);
        if (r != ZE_RESULT_SUCCESS)
            st = append_failed(s, "zeCommandListAppendMemoryCopy (seeding ping-pong buffers)", r);
    }
    /* 4. The passes, each after a barrier. */
    if (st == ZESORT_OK)
        st = zs_ze_record_plan(&rec, &plan, buffers);
    /* 5. A closing barrier: signals the caller's event after the last pass. */
    if (st == ZESORT_OK)
        st = barrier(s, list, signal, 0, NULL);
    zs_plan_free(&plan);
    if (st == ZESORT_OK)
        zs_error_clear(&s->err);
    return st;
}

zesort_status zesort_ze_append_sort(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                    void *keys, uint32_t *values, uint64_t n,
                                    void *temp, uint64_t temp_bytes,
                                    const zesort_options *opts, ze_event_handle_t signal_event,
                                    uint32_t num_wait_events, ze_event_handle_t *wait_events)
{
    return append_sort(sorter, cmdlist, keys, values, n, NULL, temp, temp_bytes, opts, signal_event,
                       num_wait_events, wait_events);
}

zesort_status zesort_ze_append_sort_indirect(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist, void *keys,
                                             uint32_t *values, const uint32_t *n_devptr,
                                             uint64_t max_n,
                                             void *temp, uint64_t temp_bytes,
                                             const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events)
{
    if (sorter && !n_devptr && max_n > 0) {
        return zs_error_set(&sorter->err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_append_sort_indirect: n_devptr is NULL");
    }
    if (max_n == 0) /* nothing can be sorted: only the ordering and the event */
        n_devptr = NULL;
    return append_sort(sorter, cmdlist, keys, values, max_n, n_devptr, temp, temp_bytes, opts,
                       signal_event, num_wait_events, wait_events);
}
