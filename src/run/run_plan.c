/*
 * run_plan.c — the generic plan executor shared by the device backends:
 * allocation of plan buffers, upload, launches, host scans, download, timing.
 */
#include "run/run_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/test_hooks.h"
#include "programs/kernel_select.h"

double zs_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

zesort_status zs_run_read(zs_run *run, zs_buffer b, void *dst, uint64_t bytes)
{
    return run->ops->read(run->dev, run->buffers[b], dst, bytes);
}

/* The CM tutorial's prefix step: the table goes to the host, is scanned, comes back. */
static zesort_status host_scan(zs_run *run, const zs_step *step, double *ms)
{
    uint64_t bytes = step->table_len * sizeof(uint32_t);
    uint32_t *table = malloc(bytes ? bytes : 1);
    if (!table) {
        return zs_error_set(run->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory for a %llu-byte prefix table",
                            (unsigned long long)bytes);
    }
    double t0 = zs_now_ms();
    zesort_status st = run->ops->read(run->dev, run->buffers[ZS_BUF_TABLE], table, bytes);
    if (st == ZESORT_OK) {
        zs_host_exclusive_scan(table, step->table_len);
        st = run->ops->write(run->dev, run->buffers[ZS_BUF_TABLE], table, bytes);
    }
    *ms += zs_now_ms() - t0;
    free(table);
    return st;
}

static zesort_status run_steps(zs_run *run, const zs_plan *plan, double *ms, zs_step_hook hook,
                               void *hook_user)
{
    const zs_device_ops *ops = run->ops;
    zesort_status st = ops->begin(run->dev);
    for (size_t i = 0; st == ZESORT_OK && i < plan->nsteps; ++i) {
        const zs_step *s = &plan->steps[i];
        switch (s->kind) {
        case ZS_STEP_KERNEL:
            st = ops->launch(run->dev, s, run->buffers);
            break;
        case ZS_STEP_COPY:
            st = ops->copy(run->dev, run->buffers[s->dst], run->buffers[s->src], s->bytes);
            break;
        case ZS_STEP_HOST_SCAN:
            st = ops->finish(run->dev, ms);
            if (st == ZESORT_OK)
                st = host_scan(run, s, ms);
            if (st == ZESORT_OK)
                st = ops->begin(run->dev);
            break;
        }
        if (st == ZESORT_OK && hook) {
            st = ops->finish(run->dev, ms);
            if (st == ZESORT_OK && hook(hook_user, i, s) != 0)
                st = ZESORT_ERROR_BACKEND;
            if (st == ZESORT_OK)
                st = ops->begin(run->dev);
        }
    }
    if (st == ZESORT_OK)
        st = ops->finish(run->dev, ms);
    return st;
}

/* The results, read into host memory of the library's (`result`) and
 * copied to the caller's arrays only once every read has succeeded: a
 * failed read (of the values after the keys, or of a later staging chunk)
 * must leave both arrays as they were. */
static zesort_status download_read(zs_run *run, const zs_host_arrays *io, unsigned char *result,
                                   uint64_t key_bytes, uint64_t value_bytes)
{
    zesort_status st = ZESORT_OK;
    if (key_bytes)
        st = run->ops->read(run->dev, run->buffers[ZS_BUF_KEYS], result, key_bytes);
    if (st == ZESORT_OK && value_bytes)
        st = run->ops->read(run->dev, run->buffers[ZS_BUF_VALUES], result + key_bytes, value_bytes);
    if (st == ZESORT_OK && key_bytes)
        memcpy(io->keys_out, result, key_bytes);
    if (st == ZESORT_OK && value_bytes)
        memcpy(io->values_out, result + key_bytes, value_bytes);
    return st;
}

/* The results through host views of the buffers (ops->views): every view is
 * taken before the first copy, so a failed one leaves both arrays as they
 * were; then one copy each. A failed unview clears *keep: the buffers are
 * not kept for the next sort, but the results are whole. */
static zesort_status download_viewed(zs_run *run, const zs_host_arrays *io, uint64_t key_bytes,
                                     uint64_t value_bytes, int *keep)
{
    const zs_buffer bufs[2] = {ZS_BUF_KEYS, ZS_BUF_VALUES};
    const uint64_t bytes[2] = {key_bytes, value_bytes};
    void *const out[2] = {io->keys_out, io->values_out};
    const void *view[2] = {NULL, NULL};
    zesort_status st = ZESORT_OK;
    for (int i = 0; i < 2 && st == ZESORT_OK; i++)
        if (bytes[i])
            st = run->ops->view(run->dev, run->buffers[bufs[i]], bytes[i], &view[i]);
    for (int i = 0; i < 2 && st == ZESORT_OK; i++)
        if (bytes[i])
            memcpy(out[i], view[i], bytes[i]);
    for (int i = 0; i < 2; i++)
        if (view[i] && run->ops->unview(run->dev, run->buffers[bufs[i]], view[i]) != ZESORT_OK)
            *keep = 0;
    return st;
}

/* Results of at least this many bytes come through views where the device
 * offers them: a map and an unmap cost two commands more than a read, ~80
 * us on PoCL (a loop of 16-key sorts went 184 -> 268 us a sort with views),
 * which a copy saved pays for from about 1 MB. */
#define ZS_VIEW_MIN_BYTES (UINT64_C(1) << 20)

int zs_run_borrows(const zs_device_ops *ops, zs_device *dev)
{
    return ops->borrow && ops->views && ops->views(dev);
}

/* An out-of-place plan's inputs (KEYS_IN, VALUES_IN) borrowed from the
 * caller's arrays where the device can (zs_run_borrows): no buffer taken,
 * no upload. borrowed[i] says which; a failed borrow is left to upload. */
static void borrow_inputs(zs_run *run, const zs_plan *plan, const zs_host_arrays *io,
                          int borrowed[2])
{
    const zs_buffer in[2] = {ZS_BUF_KEYS_IN, ZS_BUF_VALUES_IN};
    const void *host[2] = {io->keys_in, io->values_in};
    for (int i = 0; i < 2; i++) {
        borrowed[i] = 0;
        if (plan->buffer_bytes[in[i]] && host[i] && zs_run_borrows(run->ops, run->dev))
            borrowed[i] = run->ops->borrow(run->dev, host[i], plan->buffer_bytes[in[i]],
                                           &run->buffers[in[i]]) == ZESORT_OK;
    }
}

/* Ends the borrows before anything writes the caller's arrays. */
static void return_inputs(zs_run *run, int borrowed[2])
{
    const zs_buffer in[2] = {ZS_BUF_KEYS_IN, ZS_BUF_VALUES_IN};
    for (int i = 0; i < 2; i++)
        if (borrowed[i]) {
            run->ops->release(run->dev, run->buffers[in[i]]);
            run->buffers[in[i]] = NULL;
            borrowed[i] = 0;
        }
}

/* The plan's inputs from the caller's arrays: KEYS (VALUES), or KEYS_IN
 * (VALUES_IN) out of place, unless borrowed. */
static zesort_status upload_inputs(zs_run *run, const zs_plan *plan, const zs_host_arrays *io,
                                   const int borrowed[2])
{
    const zs_buffer keys = plan->buffer_bytes[ZS_BUF_KEYS_IN] ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS;
    const zs_buffer values = plan->buffer_bytes[ZS_BUF_VALUES_IN] ? ZS_BUF_VALUES_IN
                                                                  : ZS_BUF_VALUES;
    zesort_status st = ZESORT_OK;
    if (!borrowed[0])
        st = run->ops->write(run->dev, run->buffers[keys], io->keys_in,
                             plan->buffer_bytes[keys]);
    if (st == ZESORT_OK && !borrowed[1] && plan->buffer_bytes[values] && io->values_in)
        st = run->ops->write(run->dev, run->buffers[values], io->values_in,
                             plan->buffer_bytes[values]);
    return st;
}

zesort_status zs_run_plan(zs_run *run, const zs_plan *plan, const zs_host_arrays *io,
                          double *device_ms, zs_step_hook hook, void *hook_user)
{
    /* A plan of no keys makes no buffer: its commands would name buffers
     * that do not exist (on Level Zero a null pointer, which may lose the
     * device and with it every later sort of the context). */
    if (plan->n == 0) {
        if (device_ms)
            *device_ms = 0;
        return ZESORT_OK;
    }
    double ms = 0;
    zesort_status st = ZESORT_OK;
    const uint64_t key_bytes = io->keys_out ? plan->buffer_bytes[ZS_BUF_KEYS] : 0;
    const uint64_t value_bytes = plan->buffer_bytes[ZS_BUF_VALUES];
    const int views = key_bytes + value_bytes >= ZS_VIEW_MIN_BYTES && run->ops->views &&
                      run->ops->views(run->dev);
    /* Host memory for the results, taken before any device work (unless
     * views make it needless): download_read. */
    unsigned char *result = views ? NULL : zs_cache_staging(run->cache, key_bytes + value_bytes);
    if (!views && !result) {
        zs_cache_release(run->cache, run->ops, run->dev); /* on a CPU device, host memory too */
        return zs_error_set(run->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory for the %llu-byte result",
                            (unsigned long long)(key_bytes + value_bytes));
    }
    int borrowed[2];
    borrow_inputs(run, plan, io, borrowed);
    for (int b = 0; b < ZS_BUF_COUNT && st == ZESORT_OK; ++b)
        if (plan->buffer_bytes[b] && !run->buffers[b])
            st = zs_cache_take(run->cache, run->ops, run->dev, b, plan->buffer_bytes[b],
                               &run->buffers[b], &run->buffer_sizes[b]);
    /* a plan that reads no count has no PARAMS (segments read on the
     * device: zs_plan_segments_device), one with a count at least [0..1] */
    if (st == ZESORT_OK && plan->buffer_bytes[ZS_BUF_PARAMS]) {
        uint32_t params[4] = {(uint32_t)plan->n, (uint32_t)plan->n, 0, 0};
        const uint64_t bytes = plan->buffer_bytes[ZS_BUF_PARAMS];
        st = run->ops->write(run->dev, run->buffers[ZS_BUF_PARAMS], params,
                             bytes < sizeof params ? bytes : sizeof params);
    }
    for (int b = 0; b < ZS_BUF_COUNT && st == ZESORT_OK; ++b)
        if (plan->host_init[b])
            st = run->ops->write(run->dev, run->buffers[b], plan->host_init[b],
                                 plan->buffer_bytes[b]);
    if (st == ZESORT_OK)
        st = upload_inputs(run, plan, io, borrowed);
    if (st == ZESORT_OK)
        st = run_steps(run, plan, &ms, hook, hook_user);
    return_inputs(run, borrowed);
    int keep = 1;
    if (st == ZESORT_OK)
        st = views ? download_viewed(run, io, key_bytes, value_bytes, &keep)
                   : download_read(run, io, result, key_bytes, value_bytes);
    if (!run->cache)
        free(result);
    zs_cache_give_back(run->cache, run->ops, run->dev, run->buffers, run->buffer_sizes,
                       st == ZESORT_OK && keep);
    if (st == ZESORT_OK && plan->nsteps > 0)
        zs_test_note_sort(run->ops->name, zs_flavor_name(run->ops->flavor(run->dev)));
    if (st == ZESORT_OK && device_ms)
        *device_ms = ms;
    return st;
}
