/*
 * api_context.c — creating and describing contexts; backend selection,
 * names. (A context's lock and messages: context.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "kernel_blobs.h"
#include "kernel_select.h"

const char *zesort_status_name(zesort_status s)
{
    switch (s) {
    case ZESORT_OK: return "ZESORT_OK";
    case ZESORT_ERROR_INVALID_ARGUMENT: return "ZESORT_ERROR_INVALID_ARGUMENT";
    case ZESORT_ERROR_NO_DEVICE: return "ZESORT_ERROR_NO_DEVICE";
    case ZESORT_ERROR_OUT_OF_HOST_MEMORY: return "ZESORT_ERROR_OUT_OF_HOST_MEMORY";
    case ZESORT_ERROR_OUT_OF_DEVICE_MEMORY: return "ZESORT_ERROR_OUT_OF_DEVICE_MEMORY";
    case ZESORT_ERROR_UNSUPPORTED: return "ZESORT_ERROR_UNSUPPORTED";
    case ZESORT_ERROR_BACKEND: return "ZESORT_ERROR_BACKEND";
    case ZESORT_ERROR_TOO_LARGE: return "ZESORT_ERROR_TOO_LARGE";
    }
    return "ZESORT_ERROR_UNKNOWN";
}

static const char *const backend_names[] = {"auto", "level-zero", "opencl", "cpu"};
static const char *const algo_names[] = {"auto", "cm2", "cm4", "onesweep"};

const char *zesort_backend_name(zesort_backend b)
{
    return (unsigned)b < 4 ? backend_names[b] : "unknown";
}

const char *zesort_algo_name(zesort_algo a) { return (unsigned)a < 4 ? algo_names[a] : "unknown"; }

int zesort_parse_backend(const char *name, zesort_backend *out)
{
    for (int i = 0; name && out && i < 4; ++i)
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (zesort_backend)i;
            return 0;
        }
    return -1;
}

int zesort_parse_algo(const char *name, zesort_algo *out)
{
    for (int i = 0; name && out && i < 4; ++i)
        if (strcmp(name, algo_names[i]) == 0) {
            *out = (zesort_algo)i;
            return 0;
        }
    return -1;
}

const char *zesort_aot_targets(void) { return zs_aot_target_list; }
const char *zesort_spirv_flavors(void) { return "sg,portable"; }

const char *zesort_context_flavor(const zesort_context *ctx)
{
    if (!ctx)
        return "";
    return ctx->ops ? zs_flavor_name(ctx->ops->flavor(ctx->dev)) : "none";
}

zesort_backend zesort_context_backend(const zesort_context *ctx)
{
    return ctx ? ctx->backend : ZESORT_BACKEND_AUTO;
}

const char *zesort_context_device(const zesort_context *ctx)
{
    return ctx ? ctx->device_desc : "";
}

/* Opens one device backend into ctx; want_gpu as in device_backend.h. */
static zesort_status open_device(zesort_context *ctx, zesort_backend b, int want_gpu, char *msg,
                                 size_t msg_len)
{
    zesort_status st = b == ZESORT_BACKEND_LEVEL_ZERO
                           ? zs_level_zero_open(want_gpu, &ctx->dev, &ctx->ops, ctx->device_desc,
                                                sizeof ctx->device_desc, msg, msg_len)
                           : zs_opencl_open(want_gpu, &ctx->dev, &ctx->ops, ctx->device_desc,
                                            sizeof ctx->device_desc, msg, msg_len);
    if (st == ZESORT_OK)
        ctx->backend = b;
    return st;
}

zesort_status zesort_create(zesort_backend backend, zesort_context **out)
{
    if (!out)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "zesort_create: out is NULL");
    *out = NULL;
    if ((unsigned)backend > ZESORT_BACKEND_CPU)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "zesort_create: unknown backend %d",
                       (int)backend);
    zesort_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_OUT_OF_HOST_MEMORY, "zesort_create: out of host memory");
    char msg[512] = "";
    zesort_status st = ZESORT_OK;
    switch (backend) {
    case ZESORT_BACKEND_LEVEL_ZERO:
        st = open_device(ctx, backend, -1, msg, sizeof msg);
        break;
    case ZESORT_BACKEND_OPENCL:
        st = open_device(ctx, backend, -1, msg, sizeof msg);
        break;
    case ZESORT_BACKEND_CPU:
        break;
    case ZESORT_BACKEND_AUTO: {
        /* Level Zero GPU, then OpenCL GPU, then the C fallback. Missing devices
         * are skipped; a bad ZESORT_FLAVOR is not, even when no device reads it.
         * OpenCL CPU devices are not tried: the C fallback was faster than the
         * serial flavor on PoCL at every size measured (issue 13; 2 cores, PoCL
         * 3.1, wall time of zesort_sort on random u32 keys, AUTO algorithm:
         * `build/bench/auto_backend`, three runs: fallback faster by 1.35-1.85x
         * at 32K, 1.8-3.1x at 128K, 5.5-6.7x at 512K, 2.3-5.3x at 1M, 2.0-3.3x
         * at 4M, 4.8-7.4x at 16M). An OpenCL CPU device is used when asked for
         * (ZESORT_BACKEND_OPENCL); `zesort demo` and `bench` do so to
         * compare the kernel designs. */
        const char *forced = getenv("ZESORT_FLAVOR");
        zs_flavor unused;
        if (forced && *forced && zs_flavor_parse(forced, &unused, msg, sizeof msg) != 0) {
            st = ZESORT_ERROR_INVALID_ARGUMENT;
            break;
        }
        const struct { zesort_backend b; int want_gpu; } order[] = {
            {ZESORT_BACKEND_LEVEL_ZERO, 1}, {ZESORT_BACKEND_OPENCL, 1}};
        zesort_status tried = ZESORT_ERROR_NO_DEVICE;
        for (size_t i = 0; i < sizeof order / sizeof order[0] && tried != ZESORT_OK &&
                           tried != ZESORT_ERROR_INVALID_ARGUMENT; ++i)
            tried = open_device(ctx, order[i].b, order[i].want_gpu, msg, sizeof msg);
        if (tried == ZESORT_ERROR_INVALID_ARGUMENT)
            st = tried;
        else if (tried != ZESORT_OK)
            ctx->backend = ZESORT_BACKEND_CPU;
        break;
    }
    }
    if (st != ZESORT_OK) {
        zs_error_set(zs_ctx_error(NULL), st, "%s backend: %s", zesort_backend_name(backend), msg);
        free(ctx);
        return st;
    }
    if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
        if (ctx->ops)
            ctx->ops->destroy(ctx->dev);
        free(ctx);
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "zesort_create: cannot create a mutex");
    }
    ctx->id = zs_ctx_new_id();
    if (!ctx->ops) {
        ctx->backend = ZESORT_BACKEND_CPU;
        snprintf(ctx->device_desc, sizeof ctx->device_desc, "host CPU (C fallback)");
    }
    *out = ctx;
    return ZESORT_OK;
}

void zesort_destroy(zesort_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->ops)
        ctx->ops->destroy(ctx->dev);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}
