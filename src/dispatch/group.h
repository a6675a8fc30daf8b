/*
 * group.h — a context over several devices of one backend
 * (zesort_create_on_devices, api_group.c): the context is opened on the
 * first device and owns one context per further device (ctx->peers), each
 * with its own device objects and error message, so that one thread per
 * device can sort a part on it while the calling thread holds the group's
 * lock. What the dispatcher asks of the group (group.c).
 */
#ifndef ZESORT_DISPATCH_GROUP_H
#define ZESORT_DISPATCH_GROUP_H

#include "run/context.h"

/* Device i of ctx's group (0: ctx itself). */
zesort_context *zs_group_device(zesort_context *ctx, unsigned i);

/* The devices a sort of n keys runs on: ctx's group, or 1 below
 * ZESORT_MULTI_MIN_KEYS keys per device. */
unsigned zs_group_devices_for(const zesort_context *ctx, uint64_t n);

/* After a split on `devices` devices failed on device `device` (-1: not on
 * a device): ctx's message names the device and gives its context's. */
void zs_group_name_failure(zesort_context *ctx, zesort_status st, int device, unsigned devices);

#endif
