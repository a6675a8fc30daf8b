/* ze_cl_driver: event pools, events and fences.
 *
 * An event is a flag plus the timestamps of the command that signalled it,
 * guarded by g.lock; every change is broadcast on g.changed, which is what
 * host waits and worker threads blocked on wait events sleep on. Host
 * waits and queries go through zecl_host_wait_locked, which first releases
 * the commands that asynchronous immediate lists hold back (worker.c); a
 * wait without timeout (UINT64_MAX) gives up with DEVICE_LOST when the
 * driver stalls (zecl_watch_wait_locked, ZE_CL_DRIVER_HANG_TIMEOUT).
 * Scopes (cache flushes) need nothing: all memory is coherent host RAM. */
#include "zecl_internal.h"

#include <stdlib.h>

void zecl_event_signal_locked(ze_event_handle_t e, uint64_t start, uint64_t end)
{
    e->signaled = 1;
    e->ts_start = start;
    e->ts_end = end;
    g.progress++;
    pthread_cond_broadcast(&g.changed);
}

ze_result_t ZE_APICALL zecl_zeEventPoolCreate(ze_context_handle_t hContext, const ze_event_pool_desc_t *desc,
                                              uint32_t numDevices, ze_device_handle_t *phDevices,
                                              ze_event_pool_handle_t *phEventPool)
{
    (void)hContext;
    (void)numDevices;
    (void)phDevices;
    *phEventPool = NULL;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeEventPoolCreate: pNext chain");
    if (desc->flags & ZE_EVENT_POOL_FLAG_IPC)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeEventPoolCreate: IPC event pools");
    if (desc->flags & ~(ze_event_pool_flags_t)(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeEventPoolCreate: flags 0x%x",
                         (unsigned)desc->flags);
    if (desc->count == 0)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_SIZE, "zeEventPoolCreate: count 0");
    ze_event_pool_handle_t p = calloc(1, sizeof *p);
    if (!p)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    p->flags = desc->flags;
    p->count = desc->count;
    *phEventPool = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventPoolDestroy(ze_event_pool_handle_t p)
{
    free(p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t *desc,
                                          ze_event_handle_t *phEvent)
{
    *phEvent = NULL;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeEventCreate: pNext chain");
    if (desc->index >= pool->count)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeEventCreate: index %u of a pool of %u",
                         desc->index, pool->count);
    ze_event_handle_t e = calloc(1, sizeof *e);
    if (!e)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->pool = pool;
    e->index = desc->index;
    *phEvent = e;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventDestroy(ze_event_handle_t e)
{
    free(e);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventHostSignal(ze_event_handle_t e)
{
    pthread_mutex_lock(&g.lock);
    uint64_t now = zecl_now_ns();
    zecl_event_signal_locked(e, now, now);
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventHostSynchronize(ze_event_handle_t e, uint64_t timeout)
{
    struct zecl_watch watch;
    pthread_mutex_lock(&g.lock);
    zecl_watch_begin_locked(&watch, zecl_deadline(timeout));
    int k = 1;
    while (!e->signaled && (k = zecl_watch_wait_locked(&watch)) > 0)
        ;
    if (!e->signaled && k < 0)
        zecl_stalled_locked("zeEventHostSynchronize");
    int signaled = e->signaled;
    pthread_mutex_unlock(&g.lock);
    if (!signaled && k < 0)
        return ZE_RESULT_ERROR_DEVICE_LOST;
    if (!signaled)
        return ZE_RESULT_NOT_READY;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventQueryStatus(ze_event_handle_t e)
{
    return zecl_zeEventHostSynchronize(e, 0);
}

ze_result_t ZE_APICALL zecl_zeEventHostReset(ze_event_handle_t e)
{
    pthread_mutex_lock(&g.lock);
    e->signaled = 0;
    e->ts_start = e->ts_end = 0;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeEventQueryKernelTimestamp(ze_event_handle_t e, ze_kernel_timestamp_result_t *r)
{
    if (!(e->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                         "zeEventQueryKernelTimestamp: pool lacks ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP");
    pthread_mutex_lock(&g.lock);
    zecl_flush_all_locked(); /* a query: whatever it waits for may be held in a window */
    int signaled = e->signaled;
    /* One device, one clock: global and context timestamps are the same. */
    r->global.kernelStart = r->context.kernelStart = e->ts_start;
    r->global.kernelEnd = r->context.kernelEnd = e->ts_end;
    pthread_mutex_unlock(&g.lock);
    return signaled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

/* ------------------------------------------------------------------ fences */

ze_result_t ZE_APICALL zecl_zeFenceCreate(ze_command_queue_handle_t q, const ze_fence_desc_t *desc,
                                          ze_fence_handle_t *phFence)
{
    *phFence = NULL;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeFenceCreate: pNext chain");
    ze_fence_handle_t f = calloc(1, sizeof *f);
    if (!f)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    f->queue = q;
    f->signaled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
    *phFence = f;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeFenceDestroy(ze_fence_handle_t f)
{
    free(f);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeFenceHostSynchronize(ze_fence_handle_t f, uint64_t timeout)
{
    struct zecl_watch watch;
    pthread_mutex_lock(&g.lock);
    zecl_watch_begin_locked(&watch, zecl_deadline(timeout));
    int k = 1;
    while (!f->signaled && (k = zecl_watch_wait_locked(&watch)) > 0)
        ;
    if (!f->signaled && k < 0)
        zecl_stalled_locked("zeFenceHostSynchronize");
    int signaled = f->signaled;
    pthread_mutex_unlock(&g.lock);
    if (!signaled && k < 0)
        return ZE_RESULT_ERROR_DEVICE_LOST;
    if (!signaled)
        return ZE_RESULT_NOT_READY;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeFenceQueryStatus(ze_fence_handle_t f)
{
    return zecl_zeFenceHostSynchronize(f, 0);
}

ze_result_t ZE_APICALL zecl_zeFenceReset(ze_fence_handle_t f)
{
    pthread_mutex_lock(&g.lock);
    f->signaled = 0;
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}
