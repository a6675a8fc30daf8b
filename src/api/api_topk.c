/*
 * api_topk.c — the host top-k (zs_api_topk: zesort_run of ZESORT_TOPK):
 * their arguments checked as the sorts' are (api_sort.c: options, alignment,
 * overlap, offsets), under the context's lock; how the top-k runs is the
 * dispatcher's (dispatch/topk.c).
 */
#include <stdint.h>

#include "api/api_calls.h"
#include "common/ranges.h"
#include "dispatch/topk.h"
#include "plan/segments.h"
#include "plan/sort_request.h"
#include "run/context.h"

/* Elements of each output: min(k, n), or a row of k per segment. */
static uint64_t out_count(const zs_topk_call *c)
{
    if (c->segmented)
        return c->segments * c->k;
    return c->k < c->n ? c->k : c->n;
}

/* The longest segment: u32 indices must number its keys. */
static uint64_t longest(const zs_topk_call *c)
{
    if (!c->segmented)
        return c->n;
    uint64_t most = 0;
    for (uint64_t i = 0; i < c->segments; i++)
        if (c->offsets[i + 1] - c->offsets[i] > most)
            most = c->offsets[i + 1] - c->offsets[i];
    return most;
}

/* Alignment and overlap of the five arrays, as check_arrays of api_sort.c. */
static zesort_status check_arrays(zesort_context *ctx, const zs_topk_call *c, unsigned kb,
                                  unsigned vb)
{
    const uint64_t o = out_count(c);
    const struct {
        const char *name;
        const void *p;
        uint64_t bytes;
        unsigned align;
    } a[5] = {
        {"keys", c->keys, c->n * kb, kb},
        {"values_in", c->values_in, c->n * vb, vb},
        {"keys_out", c->keys_out, o * kb, kb},
        {"values_out", c->values_out, o * vb, vb},
        {"indices_out", c->indices_out, o * vb, vb},
    };
    zs_named_range r[5];
    for (int i = 0; i < 5; i++) {
        if (a[i].p && (uintptr_t)a[i].p % a[i].align)
            return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s at %p must be aligned to %u bytes", c->fn, a[i].name,
                                a[i].p, a[i].align);
        r[i] = (zs_named_range){a[i].name, zs_address_range(a[i].p, a[i].bytes)};
    }
    const char *x, *y;
    if (zs_ranges_overlap(r, 5, &x, &y))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap: they must be separate arrays", c->fn, x, y);
    return ZESORT_OK;
}

/* The pointers and sizes a top-k needs, after its options and offsets. */
static zesort_status check_outputs(zesort_context *ctx, const zs_topk_call *c,
                                   const zs_plan_request *req)
{
    if (c->n > 0 && !c->keys)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: keys is NULL with n = %llu",
                            c->fn, (unsigned long long)c->n);
    if (!c->values_in != !c->values_out)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: only one of values_in and values_out is given", c->fn);
    if (c->segmented && c->k > 0 && c->segments > SIZE_MAX / 8 / c->k)
        return zs_error_set(&ctx->err, ZESORT_ERROR_TOO_LARGE,
                            "%s: %llu segments of k = %llu outputs do not fit the address space",
                            c->fn, (unsigned long long)c->segments, (unsigned long long)c->k);
    if (out_count(c) > 0 && !c->keys_out && !c->values_out && !c->indices_out)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: no output: keys_out, values_out and indices_out are all NULL",
                            c->fn);
    if (c->indices_out && req->value_bytes == 4 && longest(c) > (UINT64_C(1) << 32))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %llu keys: their indices do not fit u32 indices; use the u64 "
                            "index type (ZESORT_VALUE_U64)", c->fn,
                            (unsigned long long)longest(c));
    return check_arrays(ctx, c, req->key_bytes, req->value_bytes);
}

/* A checked top-k, dispatched. */
static zesort_status topk_checked(zesort_context *ctx, const zs_topk_call *c,
                                  const zesort_options *opts, zesort_algo *ran)
{
    zs_plan_request req;
    zesort_status st = zs_make_host_request(opts, c->n, 1, zs_ctx_flavor(ctx), &req, ran,
                                            &ctx->err);
    if (st != ZESORT_OK)
        return st;
    if (c->segmented &&
        (st = zs_segments_check(c->offsets, c->segments, c->n, c->fn, &ctx->err)) != ZESORT_OK)
        return st;
    if ((st = check_outputs(ctx, c, &req)) != ZESORT_OK)
        return st;
    const zesort_options o = zs_options_or_default(opts);
    return zs_topk_dispatch(ctx, c, &o, req.key_bytes, req.value_bytes, req.key_flags,
                            req.bit_lo, req.bit_hi, ran);
}

/* Under ctx's lock; the last algorithm noted on success. */
zesort_status zs_api_topk(zesort_context *ctx, const zs_topk_call *c, const zesort_options *opts)
{
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL",
                            c->fn);
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zs_ctx_enter(ctx);
    zesort_status st = topk_checked(ctx, c, opts, &algo);
    if (st == ZESORT_OK)
        zs_ctx_sorted(ctx, algo);
    return zs_ctx_leave(ctx, st);
}
