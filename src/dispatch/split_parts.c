/*
 * split_parts.c — a sort split on the host into parts (split_sort.c), each
 * sorted in one go on a device of the group (split_parts.h).
 */
#include "dispatch/split_parts.h"

#include "dispatch/fits.h"
#include "dispatch/group.h"
#include "dispatch/one_device.h"
#include "dispatch/sort_report.h"

/* A part of a split sort (split_sort.h): zs_sort_one on the part, on
 * device `device` of ctx's group (its own thread: its own device time). */
typedef struct split_user {
    zesort_context *ctx;
    double device_ms[ZS_SPLIT_MAX_DEVICES];
} split_user;

static zesort_status sort_split_part(void *user, unsigned device, const zs_host_arrays *io,
                                     const zs_plan_request *req)
{
    split_user *u = user;
    return zs_sort_one(zs_group_device(u->ctx, device), io, req->iota_values, req,
                       &u->device_ms[device]);
}

zesort_status zs_split_parts(zesort_context *ctx, const zs_host_arrays *io,
                             const zs_plan_request *req, unsigned devices, uint64_t max_keys,
                             double *device_ms, zesort_sort_report *report)
{
    const double t0 = zs_now_ms();
    const uint64_t parts = zs_split_parts_estimate(req->n, max_keys, devices);
    zesort_status st = zs_check_host(ctx, req, parts, max_keys);
    if (st != ZESORT_OK)
        return st;
    split_user u = {ctx, {0}};
    const zs_split_target t = {sort_split_part, &u, max_keys, devices};
    zs_split_report r;
    st = zs_split_sort(&t, io, req, &ctx->err, &r);
    if (st != ZESORT_OK)
        zs_group_name_failure(ctx, st, r.failed_device, devices);
    for (unsigned d = 0; device_ms && d < devices; d++)
        *device_ms += u.device_ms[d];
    if (report)
        zs_group_report(report, &r, devices, zs_now_ms() - t0);
    return st;
}
