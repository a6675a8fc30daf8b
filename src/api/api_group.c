/*
 * api_group.c — zesort_create_on_devices, zesort_context_devices and
 * zesort_context_query, what a context is and did (see
 * zesort.h and dispatch/group.h). Why a context per device rather than one
 * backend object over several devices: a device backend keeps per-sort
 * state (its plan's buffers, staging memory, command list or queue); one
 * context per device gives each concurrent part its own, with no change to
 * the backends or to the code that runs a plan, the same on every backend.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_backend.h"
#include "run/context.h"

uint32_t zesort_context_devices(const zesort_context *ctx, uint32_t *indices, uint32_t max)
{
    if (!ctx)
        return 0;
    const uint32_t d = 1u + ctx->peer_count;
    for (uint32_t i = 0; indices && i < d && i < max; i++)
        indices[i] = i == 0 ? ctx->device_index : ctx->peers[i - 1]->device_index;
    return d;
}

/* The kinds of the backend's devices (at most max of them), and how many
 * it has. */
static zesort_status list_kinds(zesort_backend backend, zs_device_kind *kinds, uint32_t max,
                                uint32_t *count)
{
    char msg[256] = "";
    zesort_status st = ZESORT_OK;
    *count = 0;
    if (backend == ZESORT_BACKEND_LEVEL_ZERO)
        st = zs_level_zero_devices(0, count, NULL, 0, msg, sizeof msg, kinds, max);
    else if (backend == ZESORT_BACKEND_OPENCL)
        st = zs_opencl_devices(0, count, NULL, 0, msg, sizeof msg, kinds, max);
    else
        *count = 1, kinds[0] = (zs_device_kind){0};
    if (st != ZESORT_OK)
        return zs_error_set(zs_ctx_error(NULL), st, "zesort_create_on_devices: %s", msg);
    if (*count == 0)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_NO_DEVICE,
                            "zesort_create_on_devices: %s backend has no device (%s)",
                            zesort_backend_name(backend), msg);
    return ZESORT_OK;
}

#define LIST_MAX (4u * ZESORT_MAX_DEVICES) /* root devices with their sub-devices */

/* "all": every root device of the kind zesort_create picks (GPUs when
 * there are any, else every device). */
static zesort_status all_devices(zesort_backend backend, uint32_t *idx, uint32_t *count)
{
    zs_device_kind kinds[LIST_MAX];
    uint32_t n;
    zesort_status st = list_kinds(backend, kinds, LIST_MAX, &n);
    if (st != ZESORT_OK)
        return st;
    n = n < LIST_MAX ? n : LIST_MAX;
    int any_gpu = 0;
    for (uint32_t i = 0; i < n; i++)
        any_gpu |= kinds[i].gpu && !kinds[i].sub;
    *count = 0;
    for (uint32_t i = 0; i < n && *count < ZESORT_MAX_DEVICES; i++)
        if (!kinds[i].sub && (kinds[i].gpu || !any_gpu))
            idx[(*count)++] = i;
    return ZESORT_OK;
}

/* A list of distinct indices, root devices and sub-devices not mixed. */
static zesort_status check_list(zesort_backend backend, const uint32_t *idx, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = 0; j < i; j++)
            if (idx[i] == idx[j])
                return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                                    "zesort_create_on_devices: %s device %u is listed twice",
                                    zesort_backend_name(backend), idx[i]);
    zs_device_kind kinds[LIST_MAX];
    uint32_t n;
    zesort_status st = list_kinds(backend, kinds, LIST_MAX, &n);
    int subs = 0;
    for (uint32_t i = 0; st == ZESORT_OK && i < count; i++)
        subs += idx[i] < n && idx[i] < LIST_MAX && kinds[idx[i]].sub;
    if (st == ZESORT_OK && subs && subs != (int)count)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                    "zesort_create_on_devices: %s devices: %u of %u are sub-devices: a list "
                    "is of root devices or of sub-devices, not both (a root device runs on "
                    "its sub-devices' engines)", zesort_backend_name(backend), (unsigned)subs,
                    count);
    return st;
}

/* The peers of ctx: a context on each of idx[1..count). */
static zesort_status open_peers(zesort_context *ctx, zesort_backend backend, const uint32_t *idx,
                                uint32_t count)
{
    ctx->peers = calloc(count - 1, sizeof *ctx->peers);
    if (!ctx->peers)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "zesort_create_on_devices: out of host memory");
    for (uint32_t i = 1; i < count; i++) {
        zesort_context *peer;
        zesort_status st = zesort_create_on_device(backend, idx[i], &peer);
        if (st != ZESORT_OK)
            return st; /* its message is the thread's already */
        ctx->peers[ctx->peer_count++] = peer;
        if (strcmp(zesort_context_flavor(peer), zesort_context_flavor(ctx)) != 0)
            return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                                "zesort_create_on_devices: %s device %u runs the %s kernel "
                                "flavor, device %u the %s one: one sort's devices must run "
                                "the same", zesort_backend_name(backend), idx[i],
                                zesort_context_flavor(peer), idx[0], zesort_context_flavor(ctx));
    }
    return ZESORT_OK;
}

zesort_status zesort_create_on_devices(zesort_backend backend, const uint32_t *indices,
                                       uint32_t count, zesort_context **out)
{
    if (out)
        *out = NULL;
    if (!out || (!indices && count) || count > ZESORT_MAX_DEVICES)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_create_on_devices: out NULL, indices NULL with count %u, "
                            "or count above %u", count, ZESORT_MAX_DEVICES);
    if (backend == ZESORT_BACKEND_AUTO || (unsigned)backend > ZESORT_BACKEND_CPU)
        return zesort_create_on_device(backend, 0, out); /* its message for these */
    uint32_t idx[ZESORT_MAX_DEVICES];
    zesort_status st = ZESORT_OK;
    if (count == 0)
        st = all_devices(backend, idx, &count);
    else
        memcpy(idx, indices, count * sizeof *idx);
    if (st == ZESORT_OK && count > 1)
        st = check_list(backend, idx, count);
    zesort_context *ctx = NULL;
    if (st == ZESORT_OK)
        st = zesort_create_on_device(backend, idx[0], &ctx);
    if (st == ZESORT_OK && count > 1)
        st = open_peers(ctx, backend, idx, count);
    if (st != ZESORT_OK) {
        zesort_destroy(ctx);
        return st;
    }
    *out = ctx;
    return ZESORT_OK;
}

zesort_status zesort_context_query(const zesort_context *ctx, zesort_context_info *info)
{
    if (!ctx || !info || info->size < offsetof(zesort_context_info, reserved))
        return ZESORT_ERROR_INVALID_ARGUMENT;
    zesort_context_info all = {.size = info->size};
    all.backend = zesort_context_backend(ctx);
    all.device = zesort_context_device(ctx);
    all.device_index = zesort_context_device_index(ctx);
    all.flavor = zesort_context_flavor(ctx);
    all.devices = zesort_context_devices(ctx, all.device_indices, ZESORT_MAX_DEVICES);
    all.last_algo = zesort_last_algo(ctx);
    zesort_context *c = (zesort_context *)ctx; /* the lock is state, not value */
    pthread_mutex_lock(&c->lock);
    all.last_launches = c->last_launches;
    pthread_mutex_unlock(&c->lock);
    if (ctx->ops) { /* the C fallback launches nothing */
        const int serial = zs_ctx_flavor(ctx) == ZS_FLAVOR_SERIAL;
        all.small_max = zs_small_max(serial, 4, 0);
        all.small_max_wide = zs_small_max(serial, 8, 0);
    }
    memcpy(info, &all, info->size < sizeof all ? info->size : sizeof all);
    return ZESORT_OK;
}
