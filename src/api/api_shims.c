/*
 * api_shims.c — the 1.1 host entry points (deprecated in zesort.h): each
 * one descriptor run by zesort_run, under its own name.
 */
#include "api/api_calls.h"
#include "plan/desc.h"

static zs_shim_values moved(const void *values)
{
    return values ? ZS_SHIM_VALUES : ZS_SHIM_KEYS;
}

zesort_status zesort_sort_timed(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                const zesort_options *opts, double *device_ms)
{
    zesort_desc d = zs_desc_of_options(ZESORT_SORT, opts, moved(values));
    d.keys = keys;
    d.values = values;
    d.n = n;
    d.device_ms = device_ms;
    return zs_api_run(ctx, &d, "zesort_sort");
}

zesort_status zesort_sort(zesort_context *ctx, void *keys, void *values, uint64_t n,
                          const zesort_options *opts)
{
    return zesort_sort_timed(ctx, keys, values, n, opts, NULL);
}

zesort_status zesort_sort_copy(zesort_context *ctx, const void *keys_in, const void *values_in,
                               void *keys_out, void *values_out, uint64_t n,
                               const zesort_options *opts)
{
    zesort_desc d = zs_desc_of_options(ZESORT_SORT_COPY, opts,
                                       moved(values_in ? values_in : values_out));
    d.keys_in = keys_in;
    d.values_in = values_in;
    d.keys = keys_out;
    d.values = values_out;
    d.n = n;
    return zs_api_run(ctx, &d, "zesort_sort_copy");
}

zesort_status zesort_argsort(zesort_context *ctx, const void *keys, void *indices, void *keys_out,
                             uint64_t n, const zesort_options *opts)
{
    zesort_desc d = zs_desc_of_options(ZESORT_ARGSORT, opts, ZS_SHIM_KEYS);
    d.keys_in = keys;
    d.indices = indices;
    d.keys = keys_out;
    d.n = n;
    return zs_api_run(ctx, &d, "zesort_argsort");
}

zesort_status zesort_sort_segments(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                   const uint64_t *offsets, uint64_t num_segments,
                                   const zesort_options *opts)
{
    zesort_desc d = zs_desc_of_options(ZESORT_SEGMENTED, opts, moved(values));
    d.keys = keys;
    d.values = values;
    d.n = n;
    d.offsets = offsets;
    d.num_segments = num_segments;
    return zs_api_run(ctx, &d, "zesort_sort_segments");
}

/* The top-k descriptor of both 1.1 top-k functions. */
static zesort_desc topk_desc(const void *keys, const void *values_in, void *keys_out,
                             void *values_out, void *indices_out, uint64_t n, uint64_t k,
                             const zesort_options *opts)
{
    zesort_desc d = zs_desc_of_options(ZESORT_TOPK, opts,
                                       moved(values_in ? values_in : values_out));
    d.keys_in = keys;
    d.values_in = values_in;
    d.keys = keys_out;
    d.values = values_out;
    d.indices = indices_out;
    d.n = n;
    d.k = k;
    return d;
}

zesort_status zesort_topk_segments(zesort_context *ctx, const void *keys, const void *values_in,
                                   void *keys_out, void *values_out, void *indices_out,
                                   uint64_t n, const uint64_t *offsets, uint64_t num_segments,
                                   uint64_t k, const zesort_options *opts)
{
    zesort_desc d = topk_desc(keys, values_in, keys_out, values_out, indices_out, n, k, opts);
    d.offsets = offsets;
    /* a segmented top-k even with no offsets: the segments' check refuses them */
    d.num_segments = offsets || num_segments ? num_segments : 1;
    return zs_api_run(ctx, &d, "zesort_topk_segments");
}

zesort_status zesort_topk(zesort_context *ctx, const void *keys, const void *values_in,
                          void *keys_out, void *values_out, void *indices_out, uint64_t n,
                          uint64_t k, const zesort_options *opts)
{
    const zesort_desc d =
        topk_desc(keys, values_in, keys_out, values_out, indices_out, n, k, opts);
    return zs_api_run(ctx, &d, "zesort_topk");
}
