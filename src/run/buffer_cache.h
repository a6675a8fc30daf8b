/*
 * buffer_cache.h — the buffers a device context keeps from one plan run to
 * the next. Both device backends run host sorts through
 * zs_run_plan (run_plan.c), which takes its buffers from here and gives them
 * back: one mechanism for OpenCL and Level Zero, none in the backends.
 *
 * Why: a fresh buffer costs every call its allocation and, on CPU devices
 * (PoCL), a page fault per 4 KiB page on first touch: for 16M u32 keys the
 * keys, the ping-pong buffer and the host staging of the results were
 * about 200 MB of fresh pages per call, more time than seg_sort itself
 * (perf, docs/design.md §1.5). Kept buffers are reused as they are: no plan
 * relies on a buffer's initial contents (clCreateBuffer and zeMemAllocDevice
 * promise none either; what a plan needs set, its host_init uploads).
 *
 * Bounded: a run's buffers are kept only when they total at most
 * ZS_CACHE_MAX_BYTES (host staging included) and at most a quarter of the
 * device's memory; a bigger run releases its own at its end. A failed run
 * releases everything the cache holds (a device that failed once may have
 * lost its memory), and an allocation that fails for lack of device memory
 * empties the cache and is tried once more, so the cache never makes a
 * sort fail that would have run without it. zs_cache_release frees it all
 * (zesort_destroy).
 */
#ifndef ZESORT_BUFFER_CACHE_H
#define ZESORT_BUFFER_CACHE_H

#include <stdint.h>

#include "backends/device_backend.h"

#define ZS_CACHE_MAX_BYTES (1ull << 30)

/* Slot b holds plan buffer b of an earlier run (NULL: none), `bytes` its size. */
typedef struct zs_buffer_cache {
    zs_devptr buffers[ZS_BUF_COUNT];
    uint64_t bytes[ZS_BUF_COUNT];
    void *staging; /* host memory for the results (run_plan.c) */
    uint64_t staging_bytes;
} zs_buffer_cache;

/* Plan buffer b of `bytes` (> 0) into *out, its actual size into *size: the
 * cached one when it is big enough, else a new one (a smaller cached one
 * released first). cache may be NULL (every buffer new). Statuses as
 * ops->alloc. */
zesort_status zs_cache_take(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev,
                            int b, uint64_t bytes, zs_devptr *out, uint64_t *size);

/* Host staging of at least `bytes`, owned by the cache (NULL: out of host
 * memory; the caller frees it only when cache is NULL). */
void *zs_cache_staging(zs_buffer_cache *cache, uint64_t bytes);

/* The end of a run: its buffers (buffers[b] of sizes[b] bytes, NULL where
 * the plan had none) go back to the cache when the run succeeded and they fit
 * the bound, else are released, and on failure the cache is emptied too.
 * buffers[] is cleared. */
void zs_cache_give_back(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev,
                        zs_devptr *buffers, const uint64_t *sizes, int succeeded);

/* Releases everything the cache holds (cache may be NULL). */
void zs_cache_release(zs_buffer_cache *cache, const zs_device_ops *ops, zs_device *dev);

#endif
