/*
 * api_sort.c — the host sorts (zs_api_sort: what zesort_run does for every
 * kind but top-k), zesort_check, zesort_check_split, the last report and
 * algorithm: their arguments checked and the plan request made, under the
 * context's lock; how the sort runs is the dispatcher's (dispatch/).
 */
#include <stdint.h>
#include <string.h>

#include "api/api_calls.h"
#include "common/ranges.h"
#include "dispatch/dispatch.h"
#include "plan/segments.h"
#include "plan/sort_request.h"
#include "run/context.h"

/* The caller's arrays as every backend needs them, the rules of the interop
 * APIs: keys aligned to the key size and values to theirs (the C fallback
 * loads them as typed words; one rule for every backend, so that a program
 * that works on one works on all), and no byte shared by two arrays (the
 * sort scatters one while reading another: overlap corrupts the caller's
 * data and, on the C fallback, overflows its temporary buffer). An in-place
 * sort's input and output are the same array; an out-of-place sort's or an
 * argsort's output is never its input, not even the very same array (the
 * input is only read: zesort.h), which in place is zesort_sort's. */
static zesort_status check_arrays(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                                  unsigned key_bytes, unsigned value_bytes)
{
    const struct {
        const char *name;
        const void *p;
        uint64_t bytes;
        unsigned align;
    } a[4] = {
        {"keys", c->io.keys_in, n * key_bytes, key_bytes},
        {c->argsort ? "indices" : "values", c->argsort ? c->io.values_out : c->io.values_in,
         n * value_bytes, value_bytes},
        {"keys_out", c->copy || c->argsort ? c->io.keys_out : NULL, n * key_bytes, key_bytes},
        {"values_out", c->copy ? c->io.values_out : NULL, n * value_bytes, value_bytes},
    };
    for (int i = 0; i < 4; i++)
        if (a[i].p && (uintptr_t)a[i].p % a[i].align)
            return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s at %p must be aligned to %u bytes (keys to the key size, "
                                "values and indices to theirs)", c->fn, a[i].name, a[i].p,
                                a[i].align);
    zs_named_range r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (zs_named_range){a[i].name, zs_address_range(a[i].p, a[i].bytes)};
    const char *x, *y;
    if (zs_ranges_overlap(r, 4, &x, &y))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap: they must be separate arrays", c->fn, x, y);
    return ZESORT_OK;
}

/* Checks what every sort needs and builds the plan request. */
static zesort_status validate(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                              const zesort_options *opts, zs_plan_request *req,
                              zesort_algo *algo)
{
    const int pairs = c->io.values_out != NULL;
    zesort_status st = zs_make_host_request(opts, n, pairs, zs_ctx_flavor(ctx), req, algo,
                                            &ctx->err);
    if (st != ZESORT_OK)
        return st;
    /* indices up to n - 1: in u32 they would wrap (the split writes them
     * as its parts' offsets plus positions) */
    if (c->argsort && req->value_bytes == 4 && n > (UINT64_C(1) << 32))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %llu keys: their indices do not fit u32 indices; use the u64 "
                            "index type (ZESORT_VALUE_U64, zesort argsort --index-type u64)",
                            c->fn, (unsigned long long)n);
    if (n > 0 && (!c->io.keys_in || (c->argsort && !c->io.values_out)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %llu",
                            c->fn, c->io.keys_in ? "indices" : "keys", (unsigned long long)n);
    if (n > 0 && !c->argsort && (!c->io.keys_out || (!c->io.values_in) != (!c->io.values_out)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: keys_out is NULL, or only one of values_in and values_out is "
                            "given", c->fn);
    req->iota_values = c->argsort;
    if (c->segmented &&
        (st = zs_segments_check(c->offsets, c->segments, n, c->fn, &ctx->err)) != ZESORT_OK)
        return st;
    return n > 0 ? check_arrays(ctx, c, n, req->key_bytes, req->value_bytes) : ZESORT_OK;
}

/* A checked sort of n keys, dispatched. report (may be NULL): how the sort
 * ran, filled on success. */
static zesort_status sort_checked(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                                  const zesort_options *opts, double *device_ms, zesort_algo *ran,
                                  zesort_sort_report *report)
{
    zs_plan_request req;
    zesort_status st = validate(ctx, c, n, opts, &req, ran);
    if (st != ZESORT_OK)
        return st;
    return zs_dispatch(ctx, c, &req, opts, device_ms, ran, report);
}

/* Every host sort: under ctx's lock, the last algorithm noted on success. */
zesort_status zs_api_sort(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                          const zesort_options *opts, double *device_ms)
{
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL",
                            c->fn);
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zesort_sort_report report = {0};
    zs_ctx_enter(ctx); /* one sort at a time per context: backends keep per-sort state */
    zesort_status st = sort_checked(ctx, c, n, opts, device_ms, &algo, &report);
    if (st == ZESORT_OK) {
        zs_ctx_sorted(ctx, algo);
        ctx->report = report;
    }
    return zs_ctx_leave(ctx, st);
}

zesort_status zesort_last_sort_report(const zesort_context *ctx, zesort_sort_report *report)
{
    if (!ctx || !report)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_last_sort_report: ctx or report is NULL");
    zesort_context *c = (zesort_context *)ctx; /* the lock is state, not value */
    pthread_mutex_lock(&c->lock);
    *report = c->report;
    pthread_mutex_unlock(&c->lock);
    return ZESORT_OK;
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

/* zesort_check and zesort_check_split: the request, then how the dispatcher
 * would run it. */
static zesort_status check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, zesort_split_info *info)
{
    zs_plan_request req;
    zesort_status st = zs_make_host_request(opts, n, with_values != 0, zs_ctx_flavor(ctx), &req,
                                            NULL, &ctx->err);
    if (st == ZESORT_OK && n > 0)
        st = zs_dispatch_check(ctx, &req, info);
    if (st == ZESORT_OK)
        zs_error_clear(&ctx->err);
    return st;
}

zesort_status zesort_check_split(zesort_context *ctx, uint64_t n, int with_values,
                                 const zesort_options *opts, zesort_split_info *info)
{
    zesort_split_info unused;
    if (!info)
        info = &unused;
    memset(info, 0, sizeof *info);
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_check_split: ctx is NULL");
    zs_ctx_enter(ctx);
    zesort_status st = check(ctx, n, with_values, opts, info);
    if (st != ZESORT_OK)
        memset(info, 0, sizeof *info);
    return zs_ctx_leave(ctx, st);
}

zesort_status zesort_check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, uint64_t *device_bytes)
{
    if (device_bytes)
        *device_bytes = 0;
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_check: ctx is NULL");
    zesort_split_info info = {0};
    zs_ctx_enter(ctx);
    zesort_status st = check(ctx, n, with_values, opts, &info);
    if (device_bytes)
        *device_bytes = info.device_bytes;
    return zs_ctx_leave(ctx, st);
}
