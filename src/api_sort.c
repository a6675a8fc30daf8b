/*
 * api_sort.c — argument validation and dispatch of a sort to the planner and
 * a device backend, or to the C fallback.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "context.h"
#include "interop_common.h"
#include "run_plan.h"
#include "sort_request.h"

/* The flavor plans are made for: the cpu backend runs no kernels, any
 * flavor serves its request. */
static zs_flavor ctx_flavor(zesort_context *ctx)
{
    return ctx->ops ? ctx->ops->flavor(ctx->dev) : ZS_FLAVOR_PORTABLE;
}

/* The caller's arrays as every backend needs them, the rules of the interop
 * APIs: keys aligned to the key size and values to 4 bytes (the C fallback
 * loads them as typed words; one rule for every backend, so that a program
 * that works on one works on all), and no byte shared by keys and values
 * (the sort scatters one while reading the other: overlap corrupts the
 * caller's data and, on the C fallback, overflows its temporary buffer). */
static zesort_status check_arrays(zesort_context *ctx, const void *keys, const uint32_t *values,
                                  uint64_t n, unsigned key_bytes)
{
    if ((uintptr_t)keys % key_bytes || (uintptr_t)values % 4)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "keys must be aligned to the key size (%u bytes) and values to 4 "
                            "bytes (keys at %p, values at %p)", key_bytes, keys,
                            (const void *)values);
    const zs_range k = zs_address_range(keys, n * key_bytes), v = zs_address_range(values, n * 4);
    const char *what = zs_interop_overlap(&k, &v, &(zs_range){0}, &(zs_range){0});
    if (what)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s overlap (keys: %llu bytes at %p, values: %llu bytes at %p): "
                            "they must be separate arrays", what,
                            (unsigned long long)(n * key_bytes), keys,
                            (unsigned long long)(n * 4), (const void *)values);
    return ZESORT_OK;
}

/* Checks what every sort needs and builds the plan request. */
static zesort_status validate(zesort_context *ctx, const void *keys, const uint32_t *values,
                              uint64_t n, const zesort_options *opts, zs_plan_request *req,
                              zesort_algo *algo)
{
    zesort_status st = zs_make_request(opts, n, values != NULL, ctx_flavor(ctx), req, algo,
                                       &ctx->err);
    if (st != ZESORT_OK)
        return st;
    if (n > 0 && !keys)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT, "keys is NULL with n = %llu",
                       (unsigned long long)n);
    return n > 0 ? check_arrays(ctx, keys, values, n, req->key_bytes) : ZESORT_OK;
}

static zesort_status sort_timed(zesort_context *ctx, void *keys, uint32_t *values, uint64_t n,
                                const zesort_options *opts, double *device_ms, zesort_algo *ran)
{
    zs_plan_request req;
    zesort_status st = validate(ctx, keys, values, n, opts, &req, ran);
    if (st != ZESORT_OK)
        return st;
    if (device_ms)
        *device_ms = 0;
    if (n == 0)
        return ZESORT_OK;
    if (!ctx->ops) {
        /* the host is the device here: its wall time is the sort's time */
        double t0 = zs_now_ms();
        st = zs_cpu_sort(keys, values, n, req.key_bytes, req.key_flags, req.bit_lo, req.bit_hi);
        if (device_ms)
            *device_ms = zs_now_ms() - t0;
        return st == ZESORT_OK ? st : zs_error_set(&ctx->err, st, "out of host memory sorting %llu keys",
                                              (unsigned long long)n);
    }
    zs_plan plan;
    if (zs_plan_build(&req, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory planning the sort");
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = &ctx->err};
    zs_error_clear(&ctx->err);
    st = zs_run_plan(&run, &plan, keys, values, device_ms, NULL, NULL);
    zs_plan_free(&plan);
    /* run_plan words its own failures (host memory) on ctx; any other
     * failure was the backend's, whatever its status. */
    if (st != ZESORT_OK && !ctx->err.text[0])
        zs_error_set(&ctx->err, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}

zesort_status zesort_sort_timed(zesort_context *ctx, void *keys, uint32_t *values, uint64_t n,
                                const zesort_options *opts, double *device_ms)
{
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_sort: ctx is NULL");
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zs_ctx_enter(ctx); /* one sort at a time per context: backends keep per-sort state */
    zesort_status st = sort_timed(ctx, keys, values, n, opts, device_ms, &algo);
    if (st == ZESORT_OK) {
        zs_error_clear(&ctx->err); /* no stale message after a successful call */
        ctx->last_algo = algo;
    }
    return zs_ctx_leave(ctx, st);
}

zesort_status zesort_sort(zesort_context *ctx, void *keys, uint32_t *values, uint64_t n,
                          const zesort_options *opts)
{
    return zesort_sort_timed(ctx, keys, values, n, opts, NULL);
}

zesort_algo zesort_last_algo(const zesort_context *ctx)
{
    if (!ctx)
        return ZESORT_ALGO_AUTO;
    zesort_context *c = (zesort_context *)ctx; /* the lock is state, not value */
    pthread_mutex_lock(&c->lock);
    zesort_algo a = c->last_algo;
    pthread_mutex_unlock(&c->lock);
    return a;
}

static zesort_status check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, uint64_t *device_bytes)
{
    zs_plan_request req;
    zesort_status st = zs_make_request(opts, n, with_values != 0, ctx_flavor(ctx), &req, NULL,
                                       &ctx->err);
    if (st != ZESORT_OK || !ctx->ops || n == 0) {
        if (st == ZESORT_OK)
            zs_error_clear(&ctx->err);
        return st;
    }
    zs_plan plan;
    if (zs_plan_build(&req, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory planning the sort");
    /* what run_plan allocates: every buffer of the plan, keys and values too */
    uint64_t total = 0, biggest = 0;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        total += plan.buffer_bytes[b];
        if (plan.buffer_bytes[b] > biggest)
            biggest = plan.buffer_bytes[b];
    }
    zs_plan_free(&plan);
    if (device_bytes)
        *device_bytes = total;
    uint64_t memory = 0, largest = UINT64_MAX;
    ctx->ops->memory(ctx->dev, &memory, &largest);
    if (biggest > largest)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                            "a sort of %llu keys needs a %.2f GiB buffer, more than the device's "
                            "largest allocation (%.2f GiB)", (unsigned long long)n,
                            (double)biggest / (1u << 30), (double)largest / (1u << 30));
    if (memory && total > memory)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                            "a sort of %llu keys needs %.2f GiB of device memory, more than the "
                            "device has (%.2f GiB)", (unsigned long long)n,
                            (double)total / (1u << 30), (double)memory / (1u << 30));
    zs_error_clear(&ctx->err);
    return ZESORT_OK;
}

zesort_status zesort_check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, uint64_t *device_bytes)
{
    if (device_bytes)
        *device_bytes = 0;
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_check: ctx is NULL");
    zs_ctx_enter(ctx);
    return zs_ctx_leave(ctx, check(ctx, n, with_values, opts, device_bytes));
}
