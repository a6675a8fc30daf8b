/*
 * backend_level_zero.c — the Level Zero device backend (zs_device_ops).
 *
 * One driver, one device (the one asked for by index, else the first GPU,
 * else the first device of any type: the test driver tests/ze_cl_driver
 * reports a CPU-type device; sub-devices only by index), one context,
 * one asynchronous immediate command list. Plan steps are appended by the
 * Level Zero recorder (ze_recorder.c) in event mode: every command waits on
 * the previous command's event and signals its own. Those events come from
 * kernel-timestamp pools here, so finish() can sum the device time of every
 * kernel and device-to-device copy of the region.
 * Host<->device transfers go through a host USM staging buffer (the portable
 * way: plain malloc'd memory is not guaranteed device-accessible) and are
 * synchronous. Which devices there are, and the one a pick names:
 * ze_devices.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/device_backend.h"
#include "backends/level_zero/ze_common.h"
#include "backends/level_zero/ze_devices.h"
#include "backends/level_zero/ze_recorder.h"

#define EVENTS_PER_POOL 256u
#define STAGING_MAX_BYTES (64u << 20) /* host USM staging buffer, at most */

struct zs_device {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_command_list_handle_t list;   /* immediate, asynchronous */
    uint32_t compute_ordinal;
    uint64_t max_alloc;              /* maxMemAllocSize */
    int relaxed;                     /* the driver offers relaxed allocation limits */
    uint64_t memory;                 /* sum of the device's memories' totalSize */
    double ns_per_tick;              /* kernel timestamp resolution */
    uint64_t ts_mask;                /* valid bits of kernel timestamps */

    zs_ze_kernels kernels;

    /* Timestamp events: pools of EVENTS_PER_POOL, created on demand. */
    ze_event_pool_handle_t *pools;
    ze_event_handle_t *events;       /* events[i] lives in pools[i / EVENTS_PER_POOL] */
    uint32_t npools, nevents;        /* created */
    uint32_t used;                   /* signalled (or pending) since the last drain */
    zs_ze_recorder rec;              /* appends plan steps; rec.last: the newest
                                        pending command's event, or NULL */

    /* Host synchronisation for transfers. */
    ze_event_pool_handle_t sync_pool;
    ze_event_handle_t sync_event;
    int transfer_pending;            /* sync_event may be signalled (a wait or reset failed) */
    void *staging;
    uint64_t staging_bytes;

    zs_error err;
};

static zs_flavor ze_flavor(zs_device *dev) { return zs_ze_flavor(&dev->kernels); }

static const char *ze_message(zs_device *dev)
{
    return dev ? dev->err.text : "no Level Zero device";
}

static zesort_status fail(zs_device *dev, const char *what, ze_result_t r)
{
    return zs_ze_fail(&dev->err, what, r);
}

/* ---- events ---------------------------------------------------------- */

/* The next free timestamp event, growing the pools when needed. */
static zesort_status next_event(zs_device *dev, ze_event_handle_t *out)
{
    if (dev->used == dev->nevents) {
        if (dev->nevents % EVENTS_PER_POOL == 0) {
            ze_event_pool_handle_t *pools = realloc(dev->pools, (dev->npools + 1) * sizeof *pools);
            if (!pools) {
                return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory for event pools");
            }
            dev->pools = pools;
            ze_event_pool_desc_t desc = {
                .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                .flags = ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
                .count = EVENTS_PER_POOL,
            };
            ze_event_pool_handle_t pool = NULL;
            ze_result_t r = zeEventPoolCreate(dev->context, &desc, 1, &dev->device, &pool);
            if (r != ZE_RESULT_SUCCESS)
                return fail(dev, "zeEventPoolCreate (kernel timestamps)", r);
            dev->pools[dev->npools++] = pool;
            ze_event_handle_t *events =
                realloc(dev->events, (size_t)dev->npools * EVENTS_PER_POOL * sizeof *events);
            if (!events) {
                return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory for events");
            }
            dev->events = events;
        }
        ze_event_desc_t desc = {
            .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
            .index = dev->nevents % EVENTS_PER_POOL,
            .signal = ZE_EVENT_SCOPE_FLAG_HOST,
            .wait = ZE_EVENT_SCOPE_FLAG_DEVICE,
        };
        ze_event_handle_t ev = NULL;
        ze_result_t r = zeEventCreate(dev->pools[dev->nevents / EVENTS_PER_POOL], &desc, &ev);
        if (r != ZE_RESULT_SUCCESS)
            return fail(dev, "zeEventCreate", r);
        dev->events[dev->nevents++] = ev;
    }
    *out = dev->events[dev->used++];
    return ZESORT_OK;
}

/* The recorder's event mode: the next timestamp event, and giving back one
 * whose command was never appended. */
static zesort_status recorder_next_event(void *user, ze_event_handle_t *out)
{
    return next_event(user, out);
}

static void recorder_unused_event(void *user) { ((zs_device *)user)->used--; }

/* zeEventHostSynchronize / zeEventHostReset, tried again when they fail:
 * after a failed call the event's state is unknown, and giving up at once
 * would leave commands running on memory that is about to be freed, or an
 * event signalled that the next command would take for its own (its wait
 * would return at once: a silently wrong sort). A lost device fails every
 * try, and the error is returned. */
#define SETTLE_TRIES 3

static ze_result_t sync_retry(ze_event_handle_t ev)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < SETTLE_TRIES; i++)
        if ((r = zeEventHostSynchronize(ev, UINT64_MAX)) == ZE_RESULT_SUCCESS)
            break;
    return r;
}

static ze_result_t reset_retry(ze_event_handle_t ev)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < SETTLE_TRIES; i++)
        if ((r = zeEventHostReset(ev)) == ZE_RESULT_SUCCESS)
            break;
    return r;
}

/* Waits for the newest pending command (hence, by the chain, all of them).
 * On failure rec.last stays set, so the next drain waits again. */
static zesort_status wait_last(zs_device *dev)
{
    if (!dev->rec.last)
        return ZESORT_OK;
    ze_result_t r = sync_retry(dev->rec.last);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeEventHostSynchronize", r);
    dev->rec.last = NULL;
    return ZESORT_OK;
}

/* Completes a transfer whose wait or reset failed: the transfer event must be
 * unsignalled before another transfer signals it. */
static zesort_status settle_transfer(zs_device *dev)
{
    if (!dev->transfer_pending)
        return ZESORT_OK;
    ze_result_t r = sync_retry(dev->sync_event);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeEventHostSynchronize (transfer)", r);
    r = reset_retry(dev->sync_event);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeEventHostReset (transfer)", r);
    dev->transfer_pending = 0;
    return ZESORT_OK;
}

/* Waits for everything pending and makes every timestamp event reusable.
 * Events stay counted as used until they are all reset (a failed reset is
 * tried again by the next drain, never handed out signalled). */
static zesort_status drain(zs_device *dev)
{
    zesort_status s = wait_last(dev);
    zesort_status t = settle_transfer(dev);
    if (s != ZESORT_OK || t != ZESORT_OK)
        return s != ZESORT_OK ? s : t;
    for (uint32_t i = 0; i < dev->used; i++) {
        ze_result_t r = reset_retry(dev->events[i]);
        if (r != ZE_RESULT_SUCCESS)
            return fail(dev, "zeEventHostReset", r);
    }
    dev->used = 0;
    return ZESORT_OK;
}

/* ---- memory ---------------------------------------------------------- */

static zesort_status ze_alloc(zs_device *dev, uint64_t bytes, zs_devptr *out)
{
    *out = NULL;
    if (bytes == 0)
        bytes = 4;
#if SIZE_MAX < UINT64_MAX
    if (bytes > SIZE_MAX) {
        return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY, "allocation of %llu bytes exceeds the address space",
                 (unsigned long long)bytes);
    }
#endif
    ze_device_mem_alloc_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    /* Above maxMemAllocSize the allocation needs the relaxed-limits extension
     * (Intel GPUs cap single allocations at 4 GiB without it), asked for
     * where the driver offers it; elsewhere ze_memory gave maxMemAllocSize
     * as the largest allocation, and the sort was split by it. */
    ze_relaxed_allocation_limits_exp_desc_t relaxed = {
        .stype = ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC,
        .flags = ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE,
    };
    int big = dev->max_alloc && bytes > dev->max_alloc;
    if (big && dev->relaxed)
        desc.pNext = &relaxed;
    void *ptr = NULL;
    ze_result_t r = zeMemAllocDevice(dev->context, &desc, (size_t)bytes, 0, dev->device, &ptr);
    if (r == ZE_RESULT_SUCCESS && ptr) {
        *out = ptr;
        return ZESORT_OK;
    }
    if (big) {
        return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                            "device allocation of %llu bytes exceeds the device's largest "
                            "allocation (%llu bytes%s; %s)", (unsigned long long)bytes,
                            (unsigned long long)dev->max_alloc,
                            dev->relaxed ? ", relaxed limits asked for" : "",
                            zs_ze_result_name(r));
    }
    if (r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY || r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE) {
        return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY, "out of device memory allocating %llu bytes (%s)",
                 (unsigned long long)bytes, zs_ze_result_name(r));
    }
    return fail(dev, "zeMemAllocDevice", r);
}

static void ze_release(zs_device *dev, zs_devptr buf)
{
    /* Level Zero: memory must not be freed while commands may still use it
     * (after a failed step, earlier steps can still be running). When even
     * the retried wait fails the device is lost: nothing runs any more. */
    if (buf) {
        drain(dev);
        zeMemFree(dev->context, buf);
    }
}

static zesort_status ensure_staging(zs_device *dev, uint64_t bytes)
{
    uint64_t want = bytes < STAGING_MAX_BYTES ? bytes : STAGING_MAX_BYTES;
    if (want < 4096)
        want = 4096;
    if (dev->staging && dev->staging_bytes >= want)
        return ZESORT_OK;
    if (dev->staging) {
        drain(dev);
        zeMemFree(dev->context, dev->staging);
        dev->staging = NULL;
        dev->staging_bytes = 0;
    }
    ze_host_mem_alloc_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    ze_result_t r = zeMemAllocHost(dev->context, &desc, (size_t)want, 64, &dev->staging);
    if (r != ZE_RESULT_SUCCESS || !dev->staging) {
        dev->staging = NULL;
        if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY) {
            return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory for a %llu-byte staging buffer",
                     (unsigned long long)want);
        }
        return fail(dev, "zeMemAllocHost (staging buffer)", r);
    }
    dev->staging_bytes = want;
    return ZESORT_OK;
}

/* Appends one copy after every pending command and waits for it. */
static zesort_status copy_sync(zs_device *dev, void *dst, const void *src, size_t bytes)
{
    zesort_status s = settle_transfer(dev);
    if (s != ZESORT_OK)
        return s;
    ze_event_handle_t wait = dev->rec.last;
    ze_result_t r = zeCommandListAppendMemoryCopy(dev->list, dst, src, bytes, dev->sync_event,
                                                  wait ? 1 : 0, wait ? &wait : NULL);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeCommandListAppendMemoryCopy", r);
    dev->transfer_pending = 1;
    r = sync_retry(dev->sync_event);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeEventHostSynchronize (transfer)", r);
    dev->rec.last = NULL; /* everything before the copy completed too */
    r = reset_retry(dev->sync_event);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeEventHostReset (transfer)", r);
    dev->transfer_pending = 0;
    return ZESORT_OK;
}

static zesort_status ze_write(zs_device *dev, zs_devptr dst, const void *src, uint64_t bytes)
{
    zesort_status s = ensure_staging(dev, bytes);
    if (s != ZESORT_OK)
        return s;
    for (uint64_t off = 0; off < bytes;) {
        size_t part = (size_t)(bytes - off < dev->staging_bytes ? bytes - off : dev->staging_bytes);
        memcpy(dev->staging, (const char *)src + off, part);
        s = copy_sync(dev, (char *)dst + off, dev->staging, part);
        if (s != ZESORT_OK)
            return s;
        off += part;
    }
    return ZESORT_OK;
}

static zesort_status ze_read(zs_device *dev, zs_devptr src, void *dst, uint64_t bytes)
{
    zesort_status s = ensure_staging(dev, bytes);
    if (s != ZESORT_OK)
        return s;
    for (uint64_t off = 0; off < bytes;) {
        size_t part = (size_t)(bytes - off < dev->staging_bytes ? bytes - off : dev->staging_bytes);
        s = copy_sync(dev, dev->staging, (const char *)src + off, part);
        if (s != ZESORT_OK)
            return s;
        memcpy((char *)dst + off, dev->staging, part);
        off += part;
    }
    return ZESORT_OK;
}

/* ---- timed region ---------------------------------------------------- */

static zesort_status ze_begin(zs_device *dev)
{
    /* A region abandoned after an error may still have commands in flight. */
    return drain(dev);
}

static zesort_status ze_launch(zs_device *dev, const zs_step *step, zs_devptr const *buffers)
{
    return zs_ze_record_kernel(&dev->rec, step, (void *const *)buffers);
}

static zesort_status ze_copy(zs_device *dev, zs_devptr dst, zs_devptr src, uint64_t bytes)
{
    return zs_ze_record_copy(&dev->rec, dst, src, bytes);
}

/* Ticks between start and end, modulo the timestamp's valid bits. */
static uint64_t ticks(const zs_device *dev, uint64_t start, uint64_t end)
{
    return (end - start) & dev->ts_mask;
}

static zesort_status ze_finish(zs_device *dev, double *device_ms)
{
    zesort_status s = wait_last(dev);
    if (s != ZESORT_OK) {
        drain(dev);
        return s;
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < dev->used; i++) {
        ze_kernel_timestamp_result_t ts;
        memset(&ts, 0, sizeof ts);
        ze_result_t r = zeEventQueryKernelTimestamp(dev->events[i], &ts);
        if (r != ZE_RESULT_SUCCESS) {
            /* Timestamps of copies are not promised by the specification. */
            continue;
        }
        total += ticks(dev, ts.global.kernelStart, ts.global.kernelEnd);
    }
    if (device_ms)
        *device_ms += (double)total * dev->ns_per_tick * 1e-6;
    return drain(dev);
}

/* ---- lifetime -------------------------------------------------------- */

static void ze_destroy(zs_device *dev)
{
    if (!dev)
        return;
    if (dev->list)
        drain(dev);
    zs_ze_kernels_release(&dev->kernels);
    for (uint32_t i = 0; i < dev->nevents; i++)
        zeEventDestroy(dev->events[i]);
    for (uint32_t i = 0; i < dev->npools; i++)
        zeEventPoolDestroy(dev->pools[i]);
    free(dev->events);
    free(dev->pools);
    if (dev->sync_event)
        zeEventDestroy(dev->sync_event);
    if (dev->sync_pool)
        zeEventPoolDestroy(dev->sync_pool);
    if (dev->staging)
        zeMemFree(dev->context, dev->staging);
    if (dev->list)
        zeCommandListDestroy(dev->list);
    if (dev->context)
        zeContextDestroy(dev->context);
    free(dev);
}

static void ze_memory(zs_device *dev, uint64_t *total, uint64_t *largest)
{
    *total = dev->memory;
    /* with relaxed limits ze_alloc asks for them above maxMemAllocSize */
    *largest = dev->relaxed || !dev->max_alloc ? UINT64_MAX : dev->max_alloc;
}

void zs_level_zero_handles(zs_device *dev, ze_driver_handle_t *driver,
                           ze_context_handle_t *context, ze_device_handle_t *device)
{
    if (driver)
        *driver = dev->driver;
    if (context)
        *context = dev->context;
    if (device)
        *device = dev->device;
}

static const zs_device_ops level_zero_ops = {
    .name = "level-zero",
    .alloc = ze_alloc,
    .release = ze_release,
    .write = ze_write,
    .read = ze_read,
    .begin = ze_begin,
    .launch = ze_launch,
    .copy = ze_copy,
    .finish = ze_finish,
    .destroy = ze_destroy,
    .message = ze_message,
    .flavor = ze_flavor,
    .memory = ze_memory,
};

/* Ordinal of a queue group with compute (kernel launches need one). */
static zesort_status compute_ordinal(zs_device *dev)
{
    uint32_t n = 0;
    ze_result_t r = zeDeviceGetCommandQueueGroupProperties(dev->device, &n, NULL);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeDeviceGetCommandQueueGroupProperties", r);
    ze_command_queue_group_properties_t *g = calloc(n ? n : 1, sizeof *g);
    if (!g) {
        return zs_error_set(&dev->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    for (uint32_t i = 0; i < n; i++)
        g[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    r = zeDeviceGetCommandQueueGroupProperties(dev->device, &n, g);
    zesort_status s = ZESORT_OK;
    if (r != ZE_RESULT_SUCCESS) {
        s = fail(dev, "zeDeviceGetCommandQueueGroupProperties", r);
    } else {
        s = ZESORT_ERROR_NO_DEVICE;
        zs_error_set(&dev->err, s, "the Level Zero device has no compute queue group");
        for (uint32_t i = 0; i < n; i++) {
            if (g[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
                dev->compute_ordinal = i;
                s = ZESORT_OK;
                break;
            }
        }
    }
    free(g);
    return s;
}

static zesort_status setup(zs_device *dev, char *desc, size_t desc_len)
{
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_result_t r = zeDeviceGetProperties(dev->device, &p);
    if (r != ZE_RESULT_SUCCESS)
        return fail(dev, "zeDeviceGetProperties", r);
    dev->max_alloc = p.maxMemAllocSize;
    dev->relaxed = zs_ze_offers_relaxed_limits(dev->driver);
    dev->memory = zs_ze_device_memory(dev->device);
    zs_ze_read_timer(dev->device, &p, &dev->ns_per_tick, &dev->ts_mask);
    if (desc && desc_len)
        zs_ze_describe(dev->device, desc, desc_len);

    zesort_status s = compute_ordinal(dev);
    if (s != ZESORT_OK)
        return s;

    ze_context_desc_t cdesc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    r = zeContextCreate(dev->driver, &cdesc, &dev->context);
    if (r != ZE_RESULT_SUCCESS) {
        dev->context = NULL;
        return fail(dev, "zeContextCreate", r);
    }
    ze_command_queue_desc_t qdesc = {
        .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
        .ordinal = dev->compute_ordinal,
        .index = 0,
        .flags = 0,
        .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        .priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
    };
    r = zeCommandListCreateImmediate(dev->context, dev->device, &qdesc, &dev->list);
    if (r != ZE_RESULT_SUCCESS) {
        dev->list = NULL;
        return fail(dev, "zeCommandListCreateImmediate", r);
    }
    ze_event_pool_desc_t pdesc = {
        .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
        .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
        .count = 1,
    };
    r = zeEventPoolCreate(dev->context, &pdesc, 1, &dev->device, &dev->sync_pool);
    if (r != ZE_RESULT_SUCCESS) {
        dev->sync_pool = NULL;
        return fail(dev, "zeEventPoolCreate", r);
    }
    ze_event_desc_t edesc = {
        .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
        .index = 0,
        .signal = ZE_EVENT_SCOPE_FLAG_HOST,
        .wait = ZE_EVENT_SCOPE_FLAG_HOST,
    };
    r = zeEventCreate(dev->sync_pool, &edesc, &dev->sync_event);
    if (r != ZE_RESULT_SUCCESS) {
        dev->sync_event = NULL;
        return fail(dev, "zeEventCreate", r);
    }
    dev->rec = (zs_ze_recorder){.kernels = &dev->kernels, .list = dev->list,
                                .next_event = recorder_next_event,
                                .unused_event = recorder_unused_event, .user = dev,
                                .err = &dev->err};
    return zs_ze_kernels_init(&dev->kernels, dev->context, dev->device, &dev->err);
}

zesort_status zs_level_zero_open(zs_device_pick *pick, zs_device **out, const zs_device_ops **ops,
                                 char *desc, size_t desc_len, char *msg, size_t msg_len)
{
    if (out)
        *out = NULL;
    if (!pick || !out || !ops) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "zs_level_zero_open: NULL output pointer");
        return ZESORT_ERROR_INVALID_ARGUMENT;
    }
    char scratch[256];
    if (!msg || !msg_len) {
        msg = scratch;
        msg_len = sizeof scratch;
    }
    if (zs_ze_init_driver(msg, msg_len) != 0)
        return ZESORT_ERROR_NO_DEVICE;
    zs_device *dev = calloc(1, sizeof *dev);
    if (!dev) {
        snprintf(msg, msg_len, "out of host memory");
        return ZESORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    zesort_status s = zs_ze_pick_device(pick, &dev->driver, &dev->device, msg, msg_len);
    if (s == ZESORT_OK) {
        s = setup(dev, desc, desc_len);
        if (s != ZESORT_OK)
            snprintf(msg, msg_len, "%s", dev->err.text);
    }
    if (s != ZESORT_OK) {
        ze_destroy(dev);
        return s;
    }
    zs_error_clear(&dev->err);
    msg[0] = '\0';
    *out = dev;
    *ops = &level_zero_ops;
    return ZESORT_OK;
}
