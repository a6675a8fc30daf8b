/*
 * interop_ze.c — the Level Zero interop API (include/zesort_ze.h): appends
 * the launches of a plan to a caller's command list, on caller memory.
 *
 * Layout of the caller's temporary memory: every buffer the plan uses except
 * the caller's own (KEYS, VALUES, and out of place KEYS_IN, VALUES_IN; an
 * argsort without keys_out keeps KEYS in temp) — TMP, TABLE, PARAMS,
 * SUMS0..3, VALUES_TMP, OS_HIST, OS_STATUS (zs_buffer order, unused ones
 * skipped; the _alt appends bind TMP and VALUES_TMP to the caller's
 * alternate buffers instead) — each starting on a 256-byte boundary
 * relative to the start of temp (interop_common.c).
 *
 * The steps are appended by the Level Zero recorder (ze_recorder.c) in
 * barrier mode: the sort needs no event pool of its own, and a barrier also
 * orders it after earlier commands of the list and before later ones, which
 * is what a pipeline expects. The chained appends (every variant:
 * zesort_ze_append_*_chained) put the recorder in event mode on events the
 * caller provides (zs_ze_record_chained), so that the sort depends only on
 * its wait events: every variant goes through append_sort, and only the
 * recording knows whether it is chained.
 *
 * The 1.1 appends are interop_ze_v11.c (each a descriptor for
 * zs_ze_append_desc); the checks of the caller's memory interop_ze_memory.c.
 */
#include "zesort_ze.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/level_zero/ze_common.h"
#include "backends/level_zero/ze_recorder.h"
#include "common/error.h"
#include "common/test_hooks.h"
#include "plan/desc.h"
#include "interop/interop_common.h"
#include "interop/interop_desc.h"
#include "interop/interop_ze_append.h"
#include "interop/interop_ze_memory.h"
#include "programs/kernel_select.h"
#include "plan/plan.h"
#include "plan/sort_request.h"

#define TEMP_ALIGN 256u
#define TEMP_MIN_ALIGN 8u /* what temp must have (ZESORT_ZE_TEMP_ALIGNMENT) */

/* Threads: every call that touches a sorter holds its lock for the whole
 * call, so the kernel arguments set on the shared kernel handles and the
 * launch that captures them can never interleave with another thread's. */
struct zesort_ze_sorter {
    zs_ze_kernels kernels; /* borrowed context/device, own modules/kernels */
    zs_error err;
    pthread_mutex_t lock;
    ze_result_t last_result; /* of the last failed driver call (SUCCESS: none) */
    zesort_algo last_algo;   /* of the last successful append (AUTO: none yet) */
    int result_in_alt; /* the last successful sort left its result in TMP (the caller's
                          alternate buffers): what the _alt calls report, read under
                          the lock that set it */
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
    if (st == ZESORT_OK && pthread_mutex_init(&s->lock, NULL) != 0)
        st = zs_error_set(&s->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "cannot create a mutex");
    if (st != ZESORT_OK) {
        zs_error_set(&thread_err, st, "zesort_ze_create: %s", s->err.text);
        free(s);
        return st;
    }
    zs_error_clear(&s->err);
    *out = s;
    return ZESORT_OK;
}

zesort_status zesort_ze_context_handles(const zesort_context *ctx, ze_driver_handle_t *driver,
                                        ze_context_handle_t *context,
                                        ze_device_handle_t *device)
{
    zs_device *dev;
    const zesort_status st = zs_interop_context_device(ctx, ZESORT_BACKEND_LEVEL_ZERO, &dev);
    if (st == ZESORT_OK) {
        zs_level_zero_handles(dev, driver, context, device);
        return st;
    }
    if (driver)
        *driver = NULL;
    if (context)
        *context = NULL;
    if (device)
        *device = NULL;
    return st;
}

void zesort_ze_destroy(zesort_ze_sorter *sorter)
{
    if (!sorter)
        return;
    zs_ze_kernels_release(&sorter->kernels);
    pthread_mutex_destroy(&sorter->lock);
    free(sorter);
}


/* The plan of a sort of n keys of this shape. */
static zesort_status build_plan(zesort_ze_sorter *s, uint64_t n, const zs_sort_shape *shape,
                                const zesort_options *opts, zs_plan *plan, zesort_algo *algo,
                                const char *fn)
{
    return zs_interop_plan(opts, n, shape, zs_ze_flavor(&s->kernels), plan, algo, &s->err, fn);
}

static zesort_status temp_requirements(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                       const zesort_options *opts, uint64_t *bytes,
                                       uint64_t *alignment, const char *fn)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_temp_requirements(fn, opts, n, with_values,
                                                    zs_ze_flavor(&sorter->kernels), TEMP_ALIGN,
                                                    TEMP_MIN_ALIGN, bytes, alignment, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

zesort_status zesort_ze_temp_bytes(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                   const zesort_options *opts, uint64_t *bytes)
{
    return temp_requirements(sorter, n, with_values, opts, bytes, NULL, "zesort_ze_temp_bytes");
}

zesort_status zesort_ze_temp_requirements(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                          const zesort_options *opts, uint64_t *bytes,
                                          uint64_t *alignment)
{
    return temp_requirements(sorter, n, with_values, opts, bytes, alignment,
                             "zesort_ze_temp_requirements");
}

ze_result_t zesort_ze_last_result(const zesort_ze_sorter *sorter)
{
    return sorter ? sorter->last_result : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

zesort_algo zesort_ze_last_algo(const zesort_ze_sorter *sorter)
{
    return sorter ? sorter->last_algo : ZESORT_ALGO_AUTO;
}

static zesort_status build_kernel(void *sorter, zs_kernel kernel)
{
    zesort_ze_sorter *s = sorter;
    return zs_ze_build_kernel(&s->kernels, kernel, &s->err);
}

zesort_status zesort_ze_prepare(zesort_ze_sorter *sorter, const zesort_options *opts,
                                int with_values)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_ze_prepare: sorter is NULL");
    pthread_mutex_lock(&sorter->lock);
    zs_ze_take_failure();
    zesort_status st = zs_interop_prepare(opts, with_values, zs_ze_flavor(&sorter->kernels),
                                          build_kernel, sorter, &sorter->err);
    ze_result_t r = zs_ze_take_failure();
    if (r != ZE_RESULT_SUCCESS)
        sorter->last_result = r;
    if (st == ZESORT_OK)
        zs_error_clear(&sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* Commands a sort appends in chained mode (the recorder's, plus the count
 * fill, the indirect count copy and the seeding copies of step 2 and 3; a
 * plan without params, a segmented sort of no device-side key count, has
 * no fill). */
static uint32_t command_count(const zs_plan *plan, int indirect)
{
    if (plan->nsteps == 0)
        return 0;
    uint32_t count = (plan->buffer_bytes[ZS_BUF_PARAMS] > 0) + zs_ze_record_count(plan);
    for (size_t i = 0; indirect && i < plan->nsteps; i++)
        count += plan->steps[i].kind == ZS_STEP_COPY && plan->steps[i].bytes > 0;
    return count + (indirect ? 1 : 0);
}

/* One append's arguments, as the entry points pass them: in place, out of
 * place, argsort or segmented (shape, with the caller's buffers by plan
 * buffer in caller[]), direct (n_devptr NULL) or indirect, barrier ordered
 * (ch NULL) or chained by the caller's events. */
typedef struct ze_args {
    ze_command_list_handle_t list;
    const zs_sort_shape *shape;
    void *const *caller;
    uint64_t n;
    const uint32_t *n_devptr;
    void *temp;
    uint64_t temp_bytes;
    const zesort_options *opts;
    ze_event_handle_t signal;
    uint32_t nwait;
    ze_event_handle_t *wait;
    zs_ze_chain *ch;
    const char *fn;
} ze_args;

/* One appended sort: its plan, its buffers, the recorder on the caller's list. */
typedef struct ze_sort {
    zs_plan plan;
    void *buffers[ZS_BUF_COUNT];
    zs_ze_recorder rec;
} ze_sort;

/* The list and the wait list, before anything else. */
static zesort_status check_list(zesort_ze_sorter *s, const ze_args *a)
{
    if (!a->list)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: command list handle is NULL", a->fn);
    uint32_t first_null = 0;
    while (a->wait && first_null < a->nwait && a->wait[first_null])
        first_null++;
    return zs_interop_check_waits(&s->err, a->fn, a->nwait, a->wait != NULL, first_null);
}

/* Everything that can fail before a command is appended: the arguments
 * (without a driver call first), the chain's events, the caller's memory
 * (driver calls), every kernel built and its grid checked. */
static zesort_status prepare(zesort_ze_sorter *s, const ze_args *a, ze_sort *x)
{
    zs_buffer_table t; /* what every step below reads of each buffer */
    zs_interop_buffer_table(a->shape, &x->plan, a->n, TEMP_ALIGN, &t);
    zesort_status st = zs_ze_check_arguments(&s->err, &t, a->caller, a->n, a->n_devptr,
                                             a->temp, a->temp_bytes, a->fn);
    if (st == ZESORT_OK && a->ch) /* whatever the kind of sort: its plan's commands */
        st = zs_ze_record_chained(&x->rec, a->ch, command_count(&x->plan, a->n_devptr != NULL),
                                  a->signal, a->nwait, a->wait, a->fn);
    /* (a segmented sort of no keys may still check its segments: its status) */
    if (st == ZESORT_OK && (a->n > 0 || x->plan.nsteps > 0))
        st = zs_ze_check_memory(&s->err, s->kernels.context, &t, a->caller, a->temp,
                                t.temp_bytes > 0 ? a->temp_bytes : 0, a->n_devptr, a->fn);
    if (st != ZESORT_OK)
        return st;
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        x->buffers[b] = t.buf[b].callers                ? a->caller[b]
                        : t.buf[b].offset != UINT64_MAX ? (char *)a->temp + t.buf[b].offset
                                                        : NULL;
    return zs_ze_record_check(&x->rec, &x->plan, x->buffers);
}

/* The commands of the sort, in order. */
static zesort_status record(const ze_args *a, ze_sort *x)
{
    zs_ze_recorder *r = &x->rec;
    /* 1. Barrier mode: a barrier waits for the caller's events; chained:
     *    the first command does (ze_recorder.h). */
    zesort_status st = zs_ze_record_open(r, a->nwait, a->wait);
    /* 2. The kernels read n as min(params[0], params[1]): params[0] is the
     *    count (n, or a copy of the caller's count), params[1] (and the
     *    unused rest) the plan's n = max_n, so a count above max_n is
     *    clamped on the device. */
    if (st == ZESORT_OK && x->plan.nsteps > 0 && x->plan.buffer_bytes[ZS_BUF_PARAMS] > 0) {
        uint32_t *params = x->buffers[ZS_BUF_PARAMS];
        uint64_t pbytes = x->plan.buffer_bytes[ZS_BUF_PARAMS];
        if (a->n_devptr) {
            st = zs_ze_record_fill(r, params + 1, (uint32_t)a->n, pbytes - sizeof(uint32_t));
            if (st == ZESORT_OK)
                st = zs_ze_record_copy(r, params, a->n_devptr, sizeof(uint32_t));
        } else {
            st = zs_ze_record_fill(r, params, (uint32_t)a->n, pbytes);
        }
    }
    /* 3. Indirect sorts with an odd number of passes end with copies of
     *    max_n elements from the ping-pong buffers home; elements past the
     *    count would come from uninitialised temp memory. Seeding the
     *    ping-pong buffers with the caller's data first keeps them intact
     *    (the passes only write elements below the count). */
    for (size_t i = 0; a->n_devptr && st == ZESORT_OK && i < x->plan.nsteps; i++) {
        const zs_step *c = &x->plan.steps[i];
        if (c->kind == ZS_STEP_COPY)
            st = zs_ze_record_copy(r, x->buffers[c->src], x->buffers[c->dst], c->bytes);
    }
    /* 4. The passes (barrier mode: each after a barrier). */
    if (st == ZESORT_OK)
        st = zs_ze_record_plan(r, &x->plan, x->buffers);
    /* 5. The caller's event: barrier mode, a closing barrier signals it after
     *    the last pass; chained, the last command signalled it (a sort with
     *    no command: once the wait events are). */
    if (st == ZESORT_OK)
        st = zs_ze_record_close(r, a->signal);
    return st;
}

/* Every append, under the sorter's lock. */
static zesort_status append_locked(zesort_ze_sorter *s, const ze_args *a)
{
    zesort_status st = check_list(s, a);
    ze_sort x = {.rec = {.kernels = &s->kernels, .list = a->list, .callers_list = 1,
                         .err = &s->err}};
    zesort_algo algo = ZESORT_ALGO_AUTO;
    if (st == ZESORT_OK)
        st = build_plan(s, a->n, a->shape, a->opts, &x.plan, &algo, a->fn);
    if (st != ZESORT_OK)
        return st;
    st = prepare(s, a, &x);
    if (st == ZESORT_OK)
        st = record(a, &x);
    if (st == ZESORT_OK) {
        s->last_algo = algo;
        zs_error_clear(&s->err);
        if (x.plan.nsteps > 0)
            zs_test_note_sort("level-zero-interop", zs_flavor_name(zs_ze_flavor(&s->kernels)));
        if (x.plan.selects)
            zs_test_count_select();
        s->result_in_alt = x.plan.result == ZS_BUF_TMP;
    }
    zs_plan_free(&x.plan);
    return st;
}

zesort_status zs_ze_refused(zesort_ze_sorter *s, const zs_error *refusal, zesort_status st)
{
    return zs_interop_refuse(s ? &s->lock : NULL, s ? &s->err : NULL, &thread_err, refusal, st);
}

static zesort_status check_sync(const zesort_ze_sync *y, zs_error *err, const char *fn)
{
    return zs_interop_check_reserved(y ? y->reserved : NULL,
                                     sizeof y->reserved / sizeof y->reserved[0], err, fn);
}

zesort_status zs_ze_append_desc(zesort_ze_sorter *s, ze_command_list_handle_t list,
                                const zesort_desc *d, const zesort_ze_sync *y, const char *fn)
{
    zs_interop_call c;
    zs_error refusal;
    zesort_status st = zs_interop_resolve(d, &c, &refusal, fn);
    if (st == ZESORT_OK)
        st = check_sync(y, &refusal, fn);
    if (c.result_in_alt)
        *c.result_in_alt = 0;
    if (!s && st == ZESORT_OK)
        st = zs_error_set(&refusal, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    if (st != ZESORT_OK)
        return zs_ze_refused(s, &refusal, st);
    zs_ze_chain ch = {.events = y ? y->chain_events : NULL, .count = y ? y->num_chain_events : 0};
    const ze_args a = {list, &c.shape.base, c.caller, c.n, c.n_device, c.temp, c.temp_bytes,
                       &c.opts, y ? y->signal_event : NULL, y ? y->num_wait_events : 0,
                       y ? y->wait_events : NULL, y && y->chained ? &ch : NULL, fn};
    pthread_mutex_lock(&s->lock);
    zs_ze_take_failure();
    st = append_locked(s, &a);
    ze_result_t r = zs_ze_take_failure();
    if (r != ZE_RESULT_SUCCESS)
        s->last_result = r;
    if (st == ZESORT_OK && c.result_in_alt)
        *c.result_in_alt = s->result_in_alt;
    pthread_mutex_unlock(&s->lock);
    return st;
}

zesort_status zesort_ze_append(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                               const zesort_desc *d, const zesort_ze_sync *sync)
{
    return zs_ze_append_desc(sorter, cmdlist, d, sync, "zesort_ze_append");
}

zesort_status zesort_ze_requirements(zesort_ze_sorter *sorter, const zesort_desc *d,
                                     zesort_requirements *req)
{
    static const char fn[] = "zesort_ze_requirements";
    zs_interop_call c;
    zs_error refusal;
    zesort_status st = zs_interop_resolve(d, &c, &refusal, fn);
    if (st == ZESORT_OK && (!sorter || !req))
        st = zs_error_set(&refusal, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                          sorter ? "req" : "sorter");
    if (st != ZESORT_OK)
        return zs_ze_refused(sorter, &refusal, st);
    pthread_mutex_lock(&sorter->lock);
    zs_plan plan;
    st = zs_interop_requirements(&c, zs_ze_flavor(&sorter->kernels), TEMP_ALIGN, TEMP_MIN_ALIGN,
                                 req, &plan, &sorter->err, fn);
    if (st == ZESORT_OK) {
        /* the commands record() appends: all but the last take a chain event */
        const uint32_t commands = command_count(&plan, c.n_device != NULL);
        req->chain_events = commands ? commands - 1 : 0;
        zs_plan_free(&plan);
        zs_error_clear(&sorter->err);
    }
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* ---- the chain events of the 1.1 chained appends ---- */

/* The shape of a chained variant's sort for a with_values argument
 * (zesort_ze_chain_events_for): out->base, or for the segmented variant the
 * whole device-side form (with the key count on the device when indirect). */
static zesort_status variant_shape(zesort_ze_sorter *s, zesort_ze_variant variant,
                                   int with_values, int indirect, zs_seg_shape *out,
                                   const char *fn)
{
    const int argsort = variant == ZESORT_ZE_VARIANT_ARGSORT;
    if ((unsigned)variant > ZESORT_ZE_VARIANT_SEGMENTS)
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: variant %d is not a zesort_ze_variant", fn, (int)variant);
    if (with_values < (argsort ? ZESORT_WITH_VALUES : ZESORT_KEYS_ONLY) ||
        with_values > (argsort ? ZESORT_ARGSORT_NO_KEYS_OUT : ZESORT_WITH_VALUES))
        return zs_error_set(&s->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: with_values is %d: %s", fn, with_values,
                            argsort ? "an argsort takes ZESORT_WITH_VALUES (with keys_out) or "
                                      "ZESORT_ARGSORT_NO_KEYS_OUT"
                                    : "ZESORT_KEYS_ONLY or ZESORT_WITH_VALUES");
    /* one segment has every command any number of segments has: seg_check,
     * seg_sort_ranges (and the key count's fill and copy when indirect) */
    if (variant == ZESORT_ZE_VARIANT_SEGMENTS) {
        *out = zs_interop_seg_offsets_shape(1, with_values != ZESORT_KEYS_ONLY, indirect);
        return ZESORT_OK;
    }
    static const zs_sort_kind kinds[] = {ZS_SORT_IN_PLACE, ZS_SORT_COPY, ZS_SORT_ARGSORT};
    *out = (zs_seg_shape){.base = {kinds[variant], with_values != ZESORT_KEYS_ONLY,
                                   with_values == ZESORT_ARGSORT_NO_KEYS_OUT, 0, 0}};
    return ZESORT_OK;
}

static zesort_status chain_events(zesort_ze_sorter *sorter, zesort_ze_variant variant,
                                  uint64_t n, int with_values, int indirect,
                                  const zesort_options *opts, uint32_t *count, const char *fn)
{
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    pthread_mutex_lock(&sorter->lock);
    zesort_status st;
    if (!count) {
        st = zs_error_set(&sorter->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: count is NULL", fn);
    } else {
        *count = 0;
        zs_plan plan;
        zs_seg_shape shape;
        st = variant_shape(sorter, variant, with_values, indirect && n > 0, &shape, fn);
        if (st == ZESORT_OK)
            st = build_plan(sorter, n, &shape.base, opts, &plan, NULL, fn);
        if (st == ZESORT_OK) {
            /* the commands record() appends, whatever the kind of sort */
            uint32_t commands = command_count(&plan, indirect && n > 0);
            *count = commands ? commands - 1 : 0;
            zs_plan_free(&plan);
            zs_error_clear(&sorter->err);
        }
    }
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

zesort_status zesort_ze_chain_events(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                     int indirect, const zesort_options *opts, uint32_t *count)
{
    return chain_events(sorter, ZESORT_ZE_VARIANT_SORT, n, with_values, indirect, opts, count,
                        "zesort_ze_chain_events");
}

zesort_status zesort_ze_chain_events_for(zesort_ze_sorter *sorter, zesort_ze_variant variant,
                                         uint64_t n, int with_values, int indirect,
                                         const zesort_options *opts, uint32_t *count)
{
    return chain_events(sorter, variant, n, with_values, indirect, opts, count,
                        "zesort_ze_chain_events_for");
}

/* ---- caller-supplied alternate buffers: keys_alt and values_alt are the
 * plan's TMP and VALUES_TMP (the descriptor's keys_alt), so temp holds only
 * the tables; in place, the plan keeps its result where the last pass wrote
 * it and the append reports which buffer that is. */

zesort_status zesort_ze_alt_temp_requirements(zesort_ze_sorter *sorter, uint64_t n,
                                              int with_values, const zesort_options *opts,
                                              uint64_t *bytes, uint64_t *alignment,
                                              int *result_in_alt)
{
    const char *fn = "zesort_ze_alt_temp_requirements";
    if (!sorter)
        return zs_error_set(&thread_err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: sorter is NULL", fn);
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_alt_requirements(fn, opts, n, with_values,
                                                   zs_ze_flavor(&sorter->kernels), TEMP_ALIGN,
                                                   TEMP_MIN_ALIGN, bytes, alignment,
                                                   result_in_alt, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}

/* ---- top-k: the planner's top-k (plan/plan_topk.h) ---- */

zesort_status zesort_ze_topk_temp_bytes(zesort_ze_sorter *sorter, uint64_t n, int with_values,
                                        const zesort_options *opts, uint64_t *bytes)
{
    if (!sorter || !bytes)
        return zs_error_set(sorter ? &sorter->err : &thread_err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_ze_topk_temp_bytes: sorter or bytes is NULL");
    pthread_mutex_lock(&sorter->lock);
    zesort_status st = zs_interop_topk_temp(opts, n, with_values, zs_ze_flavor(&sorter->kernels),
                                            TEMP_ALIGN, bytes, &sorter->err);
    pthread_mutex_unlock(&sorter->lock);
    return st;
}
