/*
 * api_sort.c — argument validation and dispatch of a sort to the planner and
 * a device backend, or to the C fallback.
 */
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "context.h"
#include "run_plan.h"
#include "sort_request.h"
#include "zesort_internal.h"

void zesort_options_default(zesort_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->key_type = ZESORT_KEY_U32;
    opts->algo = ZESORT_ALGO_AUTO;
    opts->scan = ZESORT_SCAN_DEVICE;
    opts->bit_lo = 0;
    opts->bit_hi = 0; /* the key's width */
}

/* Checks what every sort needs and builds the plan request. */
static zesort_status validate(zesort_context *ctx, const void *keys, const uint32_t *values,
                              uint64_t n, const zesort_options *opts, zs_plan_request *req)
{
    char msg[256];
    /* the cpu backend runs no kernels: any flavor serves its request */
    const zs_flavor flavor = ctx->ops ? ctx->ops->flavor(ctx->dev) : ZS_FLAVOR_PORTABLE;
    zesort_status st = zs_make_request(opts, n, values != NULL, flavor, req, NULL, msg, sizeof msg);
    if (st != ZESORT_OK)
        return zs_fail(ctx, st, "%s", msg);
    if (n > 0 && !keys)
        return zs_fail(ctx, ZESORT_ERROR_INVALID_ARGUMENT, "keys is NULL with n = %llu",
                       (unsigned long long)n);
    return ZESORT_OK;
}

zesort_status zesort_sort_timed(zesort_context *ctx, void *keys, uint32_t *values, uint64_t n,
                                const zesort_options *opts, double *device_ms)
{
    if (!ctx)
        return zs_fail(NULL, ZESORT_ERROR_INVALID_ARGUMENT, "zesort_sort: ctx is NULL");
    zs_plan_request req;
    zesort_status st = validate(ctx, keys, values, n, opts, &req);
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
        return st == ZESORT_OK ? st : zs_fail(ctx, st, "out of host memory sorting %llu keys",
                                              (unsigned long long)n);
    }
    zs_plan plan;
    if (zs_plan_build(&req, &plan) != 0)
        return zs_fail(ctx, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory planning the sort");
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = ctx->err, .err_len = sizeof ctx->err};
    st = zs_run_plan(&run, &plan, keys, values, device_ms, NULL, NULL);
    zs_plan_free(&plan);
    if (st != ZESORT_OK && st != ZESORT_ERROR_OUT_OF_HOST_MEMORY)
        zs_fail(ctx, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}

zesort_status zesort_sort(zesort_context *ctx, void *keys, uint32_t *values, uint64_t n,
                          const zesort_options *opts)
{
    return zesort_sort_timed(ctx, keys, values, n, opts, NULL);
}

/* ---- test hook: one CM pass with its intermediate tables ---- */

typedef struct debug_pass {
    zs_run *run;
    uint64_t table_bytes;
    uint32_t *count_table, *prefix_table;
    size_t bucket_step;
} debug_pass;

static int debug_hook(void *user, size_t index, const zs_step *step)
{
    debug_pass *dp = user;
    if (index == 0 && dp->count_table)
        return zs_run_read(dp->run, ZS_BUF_TABLE, dp->count_table, dp->table_bytes) != ZESORT_OK;
    if (index + 1 == dp->bucket_step && dp->prefix_table)
        return zs_run_read(dp->run, ZS_BUF_TABLE, dp->prefix_table, dp->table_bytes) != ZESORT_OK;
    (void)step;
    return 0;
}

zesort_status zs_debug_cm_pass(zesort_context *ctx, int radix_bits, zesort_scan scan,
                               const uint32_t *keys, uint64_t n, unsigned shift,
                               uint32_t *count_table, uint32_t *prefix_table, uint32_t *out_keys)
{
    if (!ctx || !keys || n == 0 || n > ZESORT_MAX_KEYS || (radix_bits != 2 && radix_bits != 4) ||
        shift + (unsigned)radix_bits > 32 || (unsigned)scan > ZESORT_SCAN_HOST)
        return zs_fail(ctx, ZESORT_ERROR_INVALID_ARGUMENT, "zs_debug_cm_pass: bad arguments");
    if (!ctx->ops)
        return zs_fail(ctx, ZESORT_ERROR_UNSUPPORTED, "the cpu backend has no CM passes");
    zs_plan_request req = {.radix_bits = radix_bits, .host_scan = scan == ZESORT_SCAN_HOST,
                           .n = n, .key_bytes = 4, .bit_lo = shift,
                           .bit_hi = shift + (unsigned)radix_bits,
                           .serial = ctx->ops->flavor(ctx->dev) == ZS_FLAVOR_CPU};
    zs_plan plan;
    if (zs_plan_build(&req, &plan) != 0)
        return zs_fail(ctx, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    uint32_t *work = malloc((size_t)n * sizeof *work);
    if (!work) {
        zs_plan_free(&plan);
        return zs_fail(ctx, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    memcpy(work, keys, (size_t)n * sizeof *work);
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = ctx->err, .err_len = sizeof ctx->err};
    debug_pass dp = {.run = &run, .table_bytes = plan.buffer_bytes[ZS_BUF_TABLE],
                     .count_table = count_table, .prefix_table = prefix_table};
    for (size_t i = 0; i < plan.nsteps; ++i)
        if (plan.steps[i].kind == ZS_STEP_KERNEL && zs_kernel_is_bucket(plan.steps[i].kernel))
            dp.bucket_step = i;
    zesort_status st = zs_run_plan(&run, &plan, work, NULL, NULL, debug_hook, &dp);
    zs_plan_free(&plan);
    if (st == ZESORT_OK && out_keys)
        memcpy(out_keys, work, (size_t)n * sizeof *work);
    free(work);
    if (st != ZESORT_OK && st != ZESORT_ERROR_OUT_OF_HOST_MEMORY)
        zs_fail(ctx, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}
