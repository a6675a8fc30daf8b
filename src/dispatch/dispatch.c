/*
 * dispatch.c — how a checked host sort runs (dispatch.h): every decision
 * between the paths is made here, each path below in a file of its own.
 */
#include "dispatch/dispatch.h"

#include "dispatch/fits.h"
#include "dispatch/group.h"
#include "dispatch/one_device.h"
#include "dispatch/segmented.h"
#include "dispatch/sort_report.h"
#include "dispatch/split_parts.h"
#include "dispatch/split_sort.h"
#include "plan/sort_request.h"

/* A sort that is not segmented: in one go on ctx's device or the C
 * fallback, or split into parts over the group's devices (ctx's alone when
 * solo) when it does not fit one device or the group has several. */
static zesort_status sort_keys(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                               int solo, const zs_plan_request *req, double *device_ms,
                               zesort_sort_report *report)
{
    const uint64_t n = req->n;
    const unsigned devices = solo ? 1 : zs_group_devices_for(ctx, n);
    const uint64_t max_keys = zs_group_max_keys(ctx, req, devices);
    if (devices > 1 || n > max_keys)
        return zs_split_parts(ctx, io, req, devices, max_keys, device_ms, report);
    zesort_status st = zs_check_host(ctx, req, 1, n);
    if (st != ZESORT_OK)
        return st;
    const double t0 = zs_now_ms();
    st = zs_sort_one(ctx, io, argsort, req, device_ms);
    if (report)
        zs_report_one(report, n, zs_now_ms() - t0);
    return st;
}

/* A long segment of a segmented sort, sorted as a zesort_sort of its own
 * (segmented.h: zs_range_sort, handed down): its request made for its own
 * n, so that AUTO picks for its size, then sort_keys. */
static zesort_status sort_range(zesort_context *ctx, const zesort_options *opts,
                                const zs_host_arrays *io, uint64_t n, int solo, double *device_ms,
                                zesort_algo *ran, zesort_sort_report *report)
{
    zs_plan_request req;
    zesort_status st = zs_make_host_request(opts, n, io->values_out != NULL, zs_ctx_flavor(ctx),
                                            &req, ran, &ctx->err);
    if (st != ZESORT_OK)
        return st;
    if (device_ms)
        *device_ms = 0;
    return sort_keys(ctx, io, 0, solo, &req, device_ms, report);
}

/* A segmented sort: on the C fallback, one device, or (ZESORT_MULTI_MIN_KEYS
 * keys a device and more) the group's devices. report: filled as for any
 * sort; on one device one part. */
static zesort_status sort_segments(zesort_context *ctx, const zs_sort_call *c,
                                   const zs_plan_request *req, const zesort_options *opts,
                                   double *device_ms, zesort_algo *ran, zesort_sort_report *report)
{
    const double t0 = zs_now_ms();
    const uint64_t keys = c->offsets[c->segments] - c->offsets[0];
    const unsigned devices = c->solo || !ctx->ops ? 1 : zs_group_devices_for(ctx, keys);
    const zs_segmented s = {req, opts, sort_range};
    zesort_sort_report unused;
    report = report ? report : &unused;
    zesort_status st;
    if (devices > 1)
        st = zs_segments_on_group(ctx, c, &s, devices, ran, report);
    else if (ctx->ops)
        st = zs_segments_on_device(ctx, c, &s, device_ms, ran);
    else
        st = zs_segments_on_cpu(ctx, c, &s, device_ms, ran);
    if (devices == 1)
        zs_report_one(report, keys, zs_now_ms() - t0);
    for (unsigned d = 0; devices > 1 && device_ms && d < devices; d++)
        *device_ms += report->device_ms[d]; /* as a split's: the devices' times added */
    report->total_ms = zs_now_ms() - t0;
    return st;
}

zesort_status zs_dispatch(zesort_context *ctx, const zs_sort_call *c, const zs_plan_request *req,
                          const zesort_options *opts, double *device_ms, zesort_algo *ran,
                          zesort_sort_report *report)
{
    if (device_ms)
        *device_ms = 0;
    if (req->n == 0)
        return ZESORT_OK;
    if (c->segmented)
        return sort_segments(ctx, c, req, opts, device_ms, ran, report);
    return sort_keys(ctx, &c->io, c->argsort, c->solo, req, device_ms, report);
}

/* Refuses a sort whose part is one key the device cannot hold. */
static zesort_status check_one_key(zesort_context *ctx, const zs_plan_request *req)
{
    uint64_t memory = 0, largest = UINT64_MAX;
    ctx->ops->memory(ctx->dev, &memory, &largest);
    if (zs_fits_device(req, 1, memory, largest))
        return ZESORT_OK;
    return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                        "the device cannot hold even one key's sort (%.2f GiB of memory, "
                        "largest allocation %.2f GiB)", (double)memory / (1u << 30),
                        (double)largest / (1u << 30));
}

zesort_status zs_dispatch_check(zesort_context *ctx, const zs_plan_request *req,
                                zesort_split_info *info)
{
    const uint64_t n = req->n;
    info->devices = zs_group_devices_for(ctx, n);
    const uint64_t part = zs_group_max_keys(ctx, req, info->devices);
    info->parts = part >= n && info->devices == 1 ? 1
                                                  : zs_split_parts_estimate(n, part, info->devices);
    /* one device: the most it takes; several: their balanced share */
    const uint64_t share = (n + info->parts - 1) / info->parts;
    info->part_keys = part < n ? part : n;
    if (info->devices > 1 && share < info->part_keys)
        info->part_keys = share;
    /* the split's host copy of the keys and values, at every level of it */
    info->host_bytes = info->parts > 1 ? n * (req->key_bytes + req->value_bytes) : 0;
    uint64_t biggest = 0;
    if (ctx->ops && !zs_plan_bytes(req, info->part_keys, &info->device_bytes, &biggest))
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory planning the sort");
    zesort_status st = ZESORT_OK;
    if (ctx->ops && info->part_keys == 1 && (st = check_one_key(ctx, req)) != ZESORT_OK)
        return st;
    return zs_check_host(ctx, req, info->parts, info->part_keys);
}
