/*
 * api_run.c — zesort_run: a descriptor read (api/desc.c) and run on host
 * arrays by the host sorts (api_sort.c, api_topk.c).
 */
#include <stdlib.h>

#include "api/api_calls.h"
#include "plan/desc.h"
#include "run/context.h"

/* A refusal found before the sort: the message goes where the sort's would. */
static zesort_status refused(zesort_context *ctx, const zs_error *e, zesort_status st)
{
    if (!ctx) {
        *zs_ctx_error(NULL) = *e;
        return st;
    }
    zs_ctx_enter(ctx);
    ctx->err = *e;
    return zs_ctx_leave(ctx, st);
}

/* Fields that name device memory or device-side forms: the host API sorts
 * host arrays. */
static zesort_status check_host(const zesort_desc *d, zs_error *e, const char *fn)
{
    const char *field = d->n_device              ? "n_device"
                        : d->num_segments_device ? "num_segments_device"
                        : d->status              ? "status"
                        : d->keys_alt            ? "keys_alt"
                        : d->begin_offsets || d->end_offsets ? "begin_offsets"
                                                             : NULL;
    if (field)
        return zs_error_set(e, ZESORT_ERROR_UNSUPPORTED,
                            "%s: %s: the host API takes host arrays, n on the host and "
                            "offsets (the device APIs take the device-side forms)", fn, field);
    if (d->kind == ZESORT_TOPK && d->device_ms)
        return zs_error_set(e, ZESORT_ERROR_UNSUPPORTED,
                            "%s: device_ms: a top-k is not timed (zesort_last_sort_report "
                            "tells how a sort ran)", fn);
    return ZESORT_OK;
}

/* S + 1 offsets as uint64: the caller's, or a copy of its uint32 ones
 * (*owned: free it). */
static zesort_status offsets_u64(const zesort_desc *d, const uint64_t **out, uint64_t **owned,
                                 zs_error *e, const char *fn)
{
    *owned = NULL;
    *out = d->offsets;
    if (d->offset_type == ZESORT_OFFSET_U64 || !d->offsets)
        return ZESORT_OK;
    const uint32_t *in = d->offsets;
    *owned = malloc((size_t)(d->num_segments + 1) * sizeof **owned);
    if (!*owned || d->num_segments >= SIZE_MAX / 8)
        return zs_error_set(e, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory widening %llu offsets", fn,
                            (unsigned long long)d->num_segments + 1);
    for (uint64_t i = 0; i <= d->num_segments; i++)
        (*owned)[i] = in[i];
    *out = *owned;
    return ZESORT_OK;
}

/* The read descriptor as the host sorts take it. */
static zesort_status run_read(zesort_context *ctx, const zesort_desc *d, const uint64_t *offsets,
                              const char *fn)
{
    const zesort_options opts = zs_desc_options(d);
    if (d->kind == ZESORT_TOPK) {
        const int segmented = offsets || d->num_segments;
        const zs_topk_call c = {d->keys_in, d->values_in, d->keys, d->values, d->indices,
                                d->n, d->k, segmented, offsets, d->num_segments, fn};
        return zs_api_topk(ctx, &c, &opts);
    }
    zs_sort_call c = {{d->keys, d->values, d->keys, d->values}, 0, fn, 0, NULL, 0, 0, 0};
    if (d->kind == ZESORT_SORT_COPY)
        c = (zs_sort_call){{d->keys_in, d->values_in, d->keys, d->values}, 0, fn, 0, NULL,
                           0, 0, 1};
    else if (d->kind == ZESORT_ARGSORT)
        c = (zs_sort_call){{d->keys_in, NULL, d->keys, d->indices}, 1, fn, 0, NULL, 0, 0, 0};
    else if (d->kind == ZESORT_SEGMENTED)
        c = (zs_sort_call){{d->keys, d->values, d->keys, d->values}, 0, fn, 1, offsets,
                           d->num_segments, 0, 0};
    return zs_api_sort(ctx, &c, d->n, &opts, d->device_ms);
}

zesort_status zs_api_run(zesort_context *ctx, const zesort_desc *in, const char *fn)
{
    zesort_desc d;
    zs_error e;
    zesort_status st = zs_desc_read(in, &d, &e, fn);
    if (st == ZESORT_OK)
        st = check_host(&d, &e, fn);
    const uint64_t *offsets = NULL;
    uint64_t *owned = NULL;
    if (st == ZESORT_OK)
        st = offsets_u64(&d, &offsets, &owned, &e, fn);
    if (st == ZESORT_OK && !ctx)
        st = zs_error_set(&e, ZESORT_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    st = st == ZESORT_OK ? run_read(ctx, &d, offsets, fn) : refused(ctx, &e, st);
    free(owned);
    return st;
}

zesort_status zesort_run(zesort_context *ctx, const zesort_desc *d)
{
    return zs_api_run(ctx, d, "zesort_run");
}
