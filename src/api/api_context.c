/*
 * api_context.c — creating and describing contexts; backend selection.
 * (A context's lock and messages: context.c; the enums' names: names.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_list.h"
#include "programs/kernel_blobs.h"
#include "programs/kernel_select.h"
#include "run/context.h"

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

uint32_t zesort_context_device_index(const zesort_context *ctx)
{
    return ctx ? ctx->device_index : 0;
}

/* ---- device lists ----------------------------------------------------- */

/* The one device of the cpu backend. */
static const char cpu_device_desc[] = "host CPU (C fallback)";

/* INVALID_ARGUMENT unless backend has a device list of its own (every
 * backend but AUTO, whose device depends on what is installed). */
static zesort_status check_listed_backend(const char *fn, zesort_backend backend)
{
    if (backend == ZESORT_BACKEND_AUTO)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: backend auto has no device list: name level-zero, opencl or cpu",
                            fn);
    if ((unsigned)backend > ZESORT_BACKEND_CPU)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: unknown backend %d", fn, (int)backend);
    return ZESORT_OK;
}

/* The backend's device count and, when name is not NULL, the description of
 * device index (NO_DEVICE, with the count in the message, if there is none). */
static zesort_status list_backend(zesort_backend backend, uint32_t index, uint32_t *count,
                                  char *name, size_t name_len)
{
    char msg[256] = "";
    zesort_status st = ZESORT_OK;
    switch (backend) {
    case ZESORT_BACKEND_LEVEL_ZERO:
        st = zs_level_zero_devices(index, count, name, name_len, msg, sizeof msg, NULL, 0);
        break;
    case ZESORT_BACKEND_OPENCL:
        st = zs_opencl_devices(index, count, name, name_len, msg, sizeof msg, NULL, 0);
        break;
    default: /* cpu */
        *count = 1;
        if (name && (st = zs_check_device_index("cpu", index, 1, msg, sizeof msg)) == ZESORT_OK)
            snprintf(name, name_len, "%s", cpu_device_desc);
        break;
    }
    if (st != ZESORT_OK)
        return zs_error_set(zs_ctx_error(NULL), st, "%s backend: %s", zesort_backend_name(backend),
                            msg);
    return ZESORT_OK;
}

zesort_status zesort_device_count(zesort_backend backend, uint32_t *count)
{
    if (!count)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_device_count: count is NULL");
    *count = 0;
    zesort_status st = check_listed_backend("zesort_device_count", backend);
    return st != ZESORT_OK ? st : list_backend(backend, 0, count, NULL, 0);
}

zesort_status zesort_device_name(zesort_backend backend, uint32_t index, char *buf, size_t size)
{
    if (!buf || size == 0)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_device_name: buf is NULL or size is 0");
    buf[0] = '\0';
    zesort_status st = check_listed_backend("zesort_device_name", backend);
    uint32_t count = 0;
    return st != ZESORT_OK ? st : list_backend(backend, index, &count, buf, size);
}

/* Opens one device backend into ctx, the device pick names. */
static zesort_status open_device(zesort_context *ctx, zesort_backend b, zs_device_pick pick,
                                 char *msg, size_t msg_len)
{
    zesort_status st = b == ZESORT_BACKEND_LEVEL_ZERO
                           ? zs_level_zero_open(&pick, &ctx->dev, &ctx->ops, ctx->device_desc,
                                                sizeof ctx->device_desc, msg, msg_len)
                           : zs_opencl_open(&pick, &ctx->dev, &ctx->ops, ctx->device_desc,
                                            sizeof ctx->device_desc, msg, msg_len);
    if (st == ZESORT_OK) {
        ctx->backend = b;
        ctx->device_index = pick.opened;
    }
    return st;
}

/* The default device of a device backend: GPUs first (want_gpu -1). */
static const zs_device_pick default_pick = {.index = -1, .want_gpu = -1};

/* AUTO: Level Zero GPU, then OpenCL GPU, then the C fallback (ctx->ops
 * stays NULL). Missing devices are skipped; a bad ZESORT_FLAVOR is not,
 * even when no device reads it. OpenCL CPU devices are not tried: the C
 * fallback was faster than the serial flavor on PoCL at every size measured
 * (docs/results.md, "The C fallback against PoCL, and what auto picks"). An
 * OpenCL CPU device is used when asked for (ZESORT_BACKEND_OPENCL); `zesort
 * demo` and `bench` do so to compare the kernel designs. */
static zesort_status open_auto(zesort_context *ctx, char *msg, size_t msg_len)
{
    const char *forced = getenv("ZESORT_FLAVOR");
    zs_flavor unused;
    if (forced && *forced && zs_flavor_parse(forced, &unused, msg, msg_len) != 0)
        return ZESORT_ERROR_INVALID_ARGUMENT;
    const zs_device_pick gpu = {.index = -1, .want_gpu = 1};
    const zesort_backend order[] = {ZESORT_BACKEND_LEVEL_ZERO, ZESORT_BACKEND_OPENCL};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        zesort_status st = open_device(ctx, order[i], gpu, msg, msg_len);
        if (st == ZESORT_OK || st == ZESORT_ERROR_INVALID_ARGUMENT)
            return st;
    }
    ctx->backend = ZESORT_BACKEND_CPU;
    return ZESORT_OK;
}

/* zesort_create and zesort_create_on_device: index -1 is the backend's
 * default device (AUTO: its choice of backend and device). */
static zesort_status create(const char *fn, zesort_backend backend, int64_t index,
                            zesort_context **out)
{
    if (!out)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "%s: out is NULL",
                            fn);
    *out = NULL;
    if ((unsigned)backend > ZESORT_BACKEND_CPU)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: unknown backend %d", fn, (int)backend);
    zesort_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory", fn);
    char msg[512] = "";
    zesort_status st = ZESORT_OK;
    zs_device_pick pick = default_pick;
    pick.index = index;
    switch (backend) {
    case ZESORT_BACKEND_LEVEL_ZERO:
    case ZESORT_BACKEND_OPENCL:
        st = open_device(ctx, backend, pick, msg, sizeof msg);
        break;
    case ZESORT_BACKEND_CPU:
        /* one device: the host */
        st = zs_check_device_index("cpu", index < 0 ? 0 : (uint32_t)index, 1, msg, sizeof msg);
        break;
    case ZESORT_BACKEND_AUTO:
        st = open_auto(ctx, msg, sizeof msg);
        break;
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
                            "%s: cannot create a mutex", fn);
    }
    ctx->id = zs_ctx_new_id();
    if (!ctx->ops) {
        ctx->backend = ZESORT_BACKEND_CPU;
        ctx->device_index = 0;
        snprintf(ctx->device_desc, sizeof ctx->device_desc, "%s", cpu_device_desc);
    }
    *out = ctx;
    return ZESORT_OK;
}

zesort_status zesort_create(zesort_backend backend, zesort_context **out)
{
    return create("zesort_create", backend, -1, out);
}

zesort_status zesort_create_on_device(zesort_backend backend, uint32_t index,
                                      zesort_context **out)
{
    if (out)
        *out = NULL;
    zesort_status st = check_listed_backend("zesort_create_on_device", backend);
    return st != ZESORT_OK ? st : create("zesort_create_on_device", backend, index, out);
}

void zesort_destroy(zesort_context *ctx)
{
    if (!ctx)
        return;
    for (uint32_t i = 0; i < ctx->peer_count; i++)
        zesort_destroy(ctx->peers[i]);
    free(ctx->peers);
    if (ctx->ops) {
        zs_cache_release(&ctx->cache, ctx->ops, ctx->dev);
        ctx->ops->destroy(ctx->dev);
    }
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}
