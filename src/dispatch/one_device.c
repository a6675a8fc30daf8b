/*
 * one_device.c — a sort that fits one device or the C fallback in one go
 * (one_device.h).
 */
#include "dispatch/one_device.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/backend_cpu.h"

/* The C fallback sorts in place: an out-of-place sort first copies its input
 * into the outputs (the indices of an argsort are counted out), an argsort
 * without keys_out sorts a copy of the keys of its own. */
static zesort_status cpu_sort(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                              const zs_plan_request *req)
{
    const uint64_t n = req->n;
    void *keys = io->keys_out, *own = NULL;
    if (!keys && !(keys = own = malloc((size_t)n * req->key_bytes)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory for a copy of %llu keys", (unsigned long long)n);
    if (keys != io->keys_in)
        memcpy(keys, io->keys_in, (size_t)n * req->key_bytes);
    if (argsort) {
        for (uint64_t i = 0; i < n; i++) {
            if (req->value_bytes == 8)
                ((uint64_t *)io->values_out)[i] = i;
            else
                ((uint32_t *)io->values_out)[i] = (uint32_t)i;
        }
    } else if (io->values_out && io->values_out != io->values_in) {
        memcpy(io->values_out, io->values_in, (size_t)n * req->value_bytes);
    }
    zesort_status st = zs_cpu_sort(keys, io->values_out, n, req->key_bytes, req->value_bytes,
                                   req->key_flags, req->bit_lo, req->bit_hi);
    free(own);
    return st == ZESORT_OK ? st : zs_error_set(&ctx->err, st, "out of host memory sorting %llu keys",
                                               (unsigned long long)n);
}

zesort_status zs_run_on_device(zesort_context *ctx, const zs_plan *plan, const zs_host_arrays *io,
                               double *device_ms)
{
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = &ctx->err, .cache = &ctx->cache};
    zs_error_clear(&ctx->err);
    double ms = 0;
    zesort_status st = zs_run_plan(&run, plan, io, &ms, NULL, NULL);
    if (device_ms)
        *device_ms += ms;
    if (st == ZESORT_OK)
        ctx->launches += zs_plan_launches(plan);
    /* run_plan words its own failures (host memory) on ctx; any other
     * failure was the backend's, whatever its status. */
    if (st != ZESORT_OK && !ctx->err.text[0])
        zs_error_set(&ctx->err, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}

zesort_status zs_sort_one(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                          const zs_plan_request *req, double *device_ms)
{
    if (!ctx->ops) {
        /* the host is the device here: its wall time is the sort's time */
        double t0 = zs_now_ms();
        zesort_status st = cpu_sort(ctx, io, argsort, req);
        if (device_ms)
            *device_ms += zs_now_ms() - t0;
        return st;
    }
    /* Where the device reads the caller's memory where it is (zs_run_borrows)
     * the plan reads the input as KEYS_IN (VALUES_IN), borrowed: no upload.
     * Elsewhere the device sorts in its own buffers: out of place on the
     * host is an in-place plan whose upload and download use different
     * arrays. */
    zs_plan_request r = *req;
    r.out_of_place = zs_run_borrows(ctx->ops, ctx->dev);
    zs_plan plan;
    if (zs_plan_build(&r, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory planning the sort");
    zesort_status st = zs_run_on_device(ctx, &plan, io, device_ms);
    zs_plan_free(&plan);
    return st;
}
