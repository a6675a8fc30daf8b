/*
 * debug_pass.c — a test entry point (test_hooks.h: zs_debug_cm_pass): one CM
 * pass on a context's device, its count and prefix tables read between the
 * steps, for tests that compare them with cm_reference bit for bit. An entry
 * point like the public ones (under the context's lock), so it sits on top
 * of the host runner and the planner, apart from the hooks' state
 * (test_hooks.c), which the layers below note into.
 */
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "run/context.h"
#include "run/run_plan.h"

/* ---- one CM pass with its intermediate tables ---- */

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

static zesort_status cm_pass(zesort_context *ctx, int radix_bits, zesort_scan scan,
                             const uint32_t *keys, uint64_t n, unsigned shift,
                             uint32_t *count_table, uint32_t *prefix_table, uint32_t *out_keys)
{
    if (!keys || n == 0 || n > ZESORT_MAX_KEYS || (radix_bits != 2 && radix_bits != 4) ||
        shift + (unsigned)radix_bits > 32 || (unsigned)scan > ZESORT_SCAN_HOST)
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT, "zs_debug_cm_pass: bad arguments");
    if (!ctx->ops)
        return zs_error_set(&ctx->err, ZESORT_ERROR_UNSUPPORTED, "the cpu backend has no CM passes");
    zs_plan_request req = {.radix_bits = radix_bits, .host_scan = scan == ZESORT_SCAN_HOST,
                           .n = n, .key_bytes = 4, .bit_lo = shift,
                           .bit_hi = shift + (unsigned)radix_bits,
                           .serial = ctx->ops->flavor(ctx->dev) == ZS_FLAVOR_SERIAL};
    zs_plan plan;
    if (zs_plan_build(&req, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    uint32_t *work = malloc((size_t)n * sizeof *work);
    if (!work) {
        zs_plan_free(&plan);
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    memcpy(work, keys, (size_t)n * sizeof *work);
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = &ctx->err};
    debug_pass dp = {.run = &run, .table_bytes = plan.buffer_bytes[ZS_BUF_TABLE],
                     .count_table = count_table, .prefix_table = prefix_table};
    for (size_t i = 0; i < plan.nsteps; ++i)
        if (plan.steps[i].kind == ZS_STEP_KERNEL && zs_kernel_is_bucket(plan.steps[i].kernel))
            dp.bucket_step = i;
    const zs_host_arrays io = {.keys_in = work, .keys_out = work};
    zesort_status st = zs_run_plan(&run, &plan, &io, NULL, debug_hook, &dp);
    zs_plan_free(&plan);
    if (st == ZESORT_OK && out_keys)
        memcpy(out_keys, work, (size_t)n * sizeof *work);
    free(work);
    if (st != ZESORT_OK && st != ZESORT_ERROR_OUT_OF_HOST_MEMORY)
        zs_error_set(&ctx->err, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}

/* Like every call on a context: under its lock, its message then this
 * thread's zesort_last_error. */
zesort_status zs_debug_cm_pass(zesort_context *ctx, int radix_bits, zesort_scan scan,
                               const uint32_t *keys, uint64_t n, unsigned shift,
                               uint32_t *count_table, uint32_t *prefix_table, uint32_t *out_keys)
{
    if (!ctx)
        return ZESORT_ERROR_INVALID_ARGUMENT;
    zs_ctx_enter(ctx);
    zesort_status st = cm_pass(ctx, radix_bits, scan, keys, n, shift, count_table, prefix_table,
                               out_keys);
    return zs_ctx_leave(ctx, st);
}
