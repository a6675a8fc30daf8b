/*
 * group.c — a sort over the devices of a context's group (group.h): which
 * device is which, how many a sort runs on, and the message of a failed
 * part. The group itself is made by zesort_create_on_devices (api_group.c).
 */
#include "dispatch/group.h"

#include <stdio.h>

zesort_context *zs_group_device(zesort_context *ctx, unsigned i)
{
    return i == 0 ? ctx : ctx->peers[i - 1];
}

unsigned zs_group_devices_for(const zesort_context *ctx, uint64_t n)
{
    const unsigned d = 1u + ctx->peer_count;
    return d > 1 && n >= (uint64_t)d * ZESORT_MULTI_MIN_KEYS ? d : 1;
}

/* A failed part of a sort over several devices: ctx's message names the
 * device, with the message that device's context has. */
void zs_group_name_failure(zesort_context *ctx, zesort_status st, int device, unsigned devices)
{
    if (devices < 2 || device < 0)
        return;
    const zesort_context *d = zs_group_device(ctx, (unsigned)device);
    char text[sizeof d->err.text];
    snprintf(text, sizeof text, "%s", d->err.text[0] ? d->err.text : zesort_status_name(st));
    zs_error_set(&ctx->err, st, "device %u of %u (%s index %u, %s): %s", (unsigned)device + 1,
                 devices, zesort_backend_name(d->backend), d->device_index, d->device_desc, text);
}
