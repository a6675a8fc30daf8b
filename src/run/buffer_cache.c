/*
 * buffer_cache.c — device buffers kept from one plan run to the next
 * (buffer_cache.h says why and how far).
 */
#include "run/buffer_cache.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "common/test_hooks.h"

static atomic_ullong allocations; /* zs_test_device_allocations (test_hooks.h) */

uint64_t zs_test_device_allocations(void)
{
    return atomic_load(&allocations);
}

static zesort_status alloc_counted(const zs_device_ops *ops, zs_device *dev, uint64_t bytes,
                                   zs_devptr *out)
{
    atomic_fetch_add(&allocations, 1);
    return ops->alloc(dev, bytes, out);
}

static void drop_slot(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev, int b)
{
    if (cache->buffers[b])
        ops->release(dev, cache->buffers[b]);
    cache->buffers[b] = NULL;
    cache->bytes[b] = 0;
}

void zs_cache_release(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev)
{
    if (!cache)
        return;
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        drop_slot(cache, ops, dev, b);
    free(cache->staging);
    cache->staging = NULL;
    cache->staging_bytes = 0;
}

zesort_status zs_cache_take(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev,
                            int b, uint64_t bytes, zs_devptr *out, uint64_t *size)
{
    *out = NULL;
    *size = bytes;
    if (!cache)
        return alloc_counted(ops, dev, bytes, out);
    if (cache->buffers[b] && cache->bytes[b] >= bytes) {
        *out = cache->buffers[b];
        *size = cache->bytes[b];
        cache->buffers[b] = NULL;
        cache->bytes[b] = 0;
        return ZESORT_OK;
    }
    drop_slot(cache, ops, dev, b);
    zesort_status st = alloc_counted(ops, dev, bytes, out);
    if (st == ZESORT_ERROR_OUT_OF_DEVICE_MEMORY) {
        /* what the cache holds must never make a sort fail that would run
         * without it: give it all back and try once more */
        for (int i = 0; i < ZS_BUF_COUNT; i++)
            drop_slot(cache, ops, dev, i);
        st = alloc_counted(ops, dev, bytes, out);
    }
    return st;
}

void *zs_cache_staging(zs_buffer_cache *cache, uint64_t bytes)
{
    if (!bytes)
        bytes = 1;
    if (!cache)
        return malloc(bytes);
    if (cache->staging_bytes >= bytes)
        return cache->staging;
    free(cache->staging);
    cache->staging_bytes = 0;
    cache->staging = malloc(bytes);
    if (cache->staging)
        cache->staging_bytes = bytes;
    return cache->staging;
}

/* What a context may keep: ZS_CACHE_MAX_BYTES, and a quarter of the device's
 * memory when the device says how much it has. */
static uint64_t cache_limit(const zs_device_ops *ops, zs_device *dev)
{
    uint64_t memory = 0, largest = 0;
    ops->memory(dev, &memory, &largest);
    return memory && memory / 4 < ZS_CACHE_MAX_BYTES ? memory / 4 : ZS_CACHE_MAX_BYTES;
}

static uint64_t cache_bytes(const zs_buffer_cache *cache)
{
    uint64_t total = cache->staging_bytes;
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        total += cache->bytes[b];
    return total;
}

void zs_cache_give_back(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev,
                        zs_devptr *buffers, const uint64_t *sizes, int succeeded)
{
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        if (!buffers[b])
            continue;
        if (cache && succeeded) {
            drop_slot(cache, ops, dev, b); /* empty after zs_cache_take; never leak */
            cache->buffers[b] = buffers[b];
            cache->bytes[b] = sizes[b];
        } else {
            ops->release(dev, buffers[b]);
        }
        buffers[b] = NULL;
    }
    if (cache && (!succeeded || cache_bytes(cache) > cache_limit(ops, dev)))
        zs_cache_release(cache, ops, dev);
}
