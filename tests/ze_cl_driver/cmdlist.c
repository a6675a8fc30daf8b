/* ze_cl_driver: command queues and command lists.
 *
 * A regular command list records commands (everything captured at append
 * time, kernel arguments included) and a command queue's worker runs them
 * on zeCommandQueueExecuteCommandLists. An immediate command list owns a
 * worker and hands it each command as it is appended: asynchronous, or
 * synchronous in ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS. In which order the
 * commands run is the worker's business (worker.c). */
#include "zecl_internal.h"

#include <stdlib.h>
#include <string.h>

/* The in-order flags of Level Zero 1.7, newer than the 1.4 headers this may
   be built with (bit values from the specification). */
#define ZECL_COMMAND_LIST_FLAG_IN_ORDER ((ze_command_list_flags_t)1u << 3)
#define ZECL_COMMAND_QUEUE_FLAG_IN_ORDER ((ze_command_queue_flags_t)1u << 1)

void zecl_cmd_free(struct zecl_cmd *c)
{
    free(c->waits);
    if (c->kind == ZECL_CMD_LAUNCH && c->u.launch.args) {
        for (uint32_t i = 0; i < c->u.launch.num_args; i++)
            free(c->u.launch.args[i].bytes);
        free(c->u.launch.args);
    }
    if (c->kind == ZECL_CMD_QUERY_TIMESTAMPS) {
        free(c->u.query.events);
        free(c->u.query.offsets);
    }
}

static ze_result_t check_queue_desc(const ze_command_queue_desc_t *desc, const char *who)
{
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "%s: pNext chain", who);
    if (desc->ordinal != 0 || desc->index != 0)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "%s: queue group %u index %u (only 0, 0 exist)", who,
                         desc->ordinal, desc->index);
    return ZE_RESULT_SUCCESS;
}

/* -------------------------------------------------------------- queues */

ze_result_t ZE_APICALL zecl_zeCommandQueueCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                                 const ze_command_queue_desc_t *desc,
                                                 ze_command_queue_handle_t *phQueue)
{
    (void)hContext;
    *phQueue = NULL;
    ze_result_t r = check_queue_desc(desc, "zeCommandQueueCreate");
    if (r != ZE_RESULT_SUCCESS)
        return r;
    ze_command_queue_handle_t q = calloc(1, sizeof *q);
    if (!q)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    q->device = hDevice;
    q->mode = desc->mode;
    r = zecl_worker_start(hDevice, 0, &q->worker);
    if (r != ZE_RESULT_SUCCESS) {
        free(q);
        return r;
    }
    *phQueue = q;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeCommandQueueDestroy(ze_command_queue_handle_t q)
{
    ze_result_t r = zecl_worker_stop(q->worker, "zeCommandQueueDestroy"); /* finishes what was submitted */
    free(q);
    return r;
}

/* Queues the commands of the lists, then the fence, all at once: the
   worker chooses among all of them (README.md, "Execution order": list
   boundaries order nothing; each submission of an in-order list is one
   group, in order within itself). */
static ze_result_t submit(ze_command_queue_handle_t q, uint32_t n, ze_command_list_handle_t *lists,
                          ze_fence_handle_t fence)
{
    size_t total = fence ? 1 : 0;
    for (uint32_t i = 0; i < n; i++)
        total += lists[i]->num_cmds;
    if (total == 0)
        return ZE_RESULT_SUCCESS;
    struct zecl_node *nodes = calloc(total, sizeof *nodes);
    if (!nodes)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    size_t k = 0;
    pthread_mutex_lock(&g.lock);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t group = lists[i]->in_order ? zecl_new_group_locked() : 0;
        for (size_t c = 0; c < lists[i]->num_cmds; c++)
            nodes[k++] = (struct zecl_node){.cmd = &lists[i]->cmds[c], .list = lists[i], .group = group};
    }
    pthread_mutex_unlock(&g.lock);
    if (fence)
        nodes[k++] = (struct zecl_node){.fence = fence};
    ze_result_t r = zecl_worker_push(q->worker, nodes, total);
    free(nodes);
    return r;
}

ze_result_t ZE_APICALL zecl_zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t q, uint32_t n,
                                                              ze_command_list_handle_t *lists,
                                                              ze_fence_handle_t fence)
{
    for (uint32_t i = 0; i < n; i++) {
        if (lists[i]->immediate)
            return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeCommandQueueExecuteCommandLists: list %u is "
                             "immediate", i);
        if (!lists[i]->closed)
            return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeCommandQueueExecuteCommandLists: list %u is "
                             "not closed", i);
    }
    if (g.device_lost)
        return ZE_RESULT_ERROR_DEVICE_LOST;
    ze_result_t r = submit(q, n, lists, fence);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
        return zecl_worker_sync(q->worker, UINT64_MAX, "zeCommandQueueExecuteCommandLists (synchronous queue)");
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeCommandQueueSynchronize(ze_command_queue_handle_t q, uint64_t timeout)
{
    return zecl_worker_sync(q->worker, timeout, "zeCommandQueueSynchronize");
}

/* --------------------------------------------------------- command lists */

ze_result_t ZE_APICALL zecl_zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                                const ze_command_list_desc_t *desc,
                                                ze_command_list_handle_t *phList)
{
    (void)hContext;
    *phList = NULL;
    if (desc->pNext)
        return zecl_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeCommandListCreate: pNext chain");
    if (desc->commandQueueGroupOrdinal != 0)
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeCommandListCreate: queue group %u (only 0 exists)",
                         desc->commandQueueGroupOrdinal);
    ze_command_list_handle_t l = calloc(1, sizeof *l);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l->device = hDevice;
    l->in_order = (desc->flags & ZECL_COMMAND_LIST_FLAG_IN_ORDER) != 0;
    *phList = l;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                                         const ze_command_queue_desc_t *desc,
                                                         ze_command_list_handle_t *phList)
{
    (void)hContext;
    *phList = NULL;
    ze_result_t r = check_queue_desc(desc, "zeCommandListCreateImmediate");
    if (r != ZE_RESULT_SUCCESS)
        return r;
    ze_command_list_handle_t l = calloc(1, sizeof *l);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l->device = hDevice;
    l->immediate = 1;
    l->mode = desc->mode;
    l->in_order = (desc->flags & ZECL_COMMAND_QUEUE_FLAG_IN_ORDER) != 0;
    if (l->in_order) {
        pthread_mutex_lock(&g.lock);
        l->group = zecl_new_group_locked();
        pthread_mutex_unlock(&g.lock);
    }
    /* Synchronous lists wait for each command: nothing to hold back. */
    r = zecl_worker_start(hDevice, desc->mode != ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, &l->worker);
    if (r != ZE_RESULT_SUCCESS) {
        free(l);
        return r;
    }
    *phList = l;
    return ZE_RESULT_SUCCESS;
}

/* Regular lists: wait until no command of l is queued or executing (a
   host wait: they may wait on commands held in a window); DEVICE_LOST
   when that stalled (zecl_watch_wait_locked). */
static ze_result_t wait_not_in_flight(ze_command_list_handle_t l, const char *who)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    struct zecl_watch watch;
    pthread_mutex_lock(&g.lock);
    zecl_watch_begin_locked(&watch, UINT64_MAX);
    while (l->in_flight > 0)
        if (zecl_watch_wait_locked(&watch) < 0)
            r = zecl_stalled_locked(who); /* drops every pending command */
    pthread_mutex_unlock(&g.lock);
    return r;
}

static void clear_cmds(ze_command_list_handle_t l)
{
    for (size_t i = 0; i < l->num_cmds; i++)
        zecl_cmd_free(&l->cmds[i]);
    free(l->cmds);
    l->cmds = NULL;
    l->num_cmds = l->cap_cmds = 0;
}

ze_result_t ZE_APICALL zecl_zeCommandListDestroy(ze_command_list_handle_t l)
{
    /* Never waits forever: a drain that stalls is DEVICE_LOST, the list
       destroyed all the same. */
    ze_result_t r = l->immediate ? zecl_worker_stop(l->worker, "zeCommandListDestroy")
                                 : wait_not_in_flight(l, "zeCommandListDestroy");
    clear_cmds(l);
    free(l);
    return r;
}

ze_result_t ZE_APICALL zecl_zeCommandListClose(ze_command_list_handle_t l)
{
    l->closed = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeCommandListReset(ze_command_list_handle_t l)
{
    /* DEVICE_LOST only when the device was lost meanwhile (the wait
       stalled), as for a destroy. */
    int lost = g.device_lost;
    ze_result_t r = l->immediate ? zecl_worker_sync(l->worker, UINT64_MAX, "zeCommandListReset")
                                 : wait_not_in_flight(l, "zeCommandListReset");
    clear_cmds(l);
    l->closed = 0;
    return r == ZE_RESULT_ERROR_DEVICE_LOST && !lost ? r : ZE_RESULT_SUCCESS;
}

/* Adds a command to l (taking ownership of what it points to): recorded in
   a regular list, handed to the worker of an immediate list. */
static ze_result_t append(ze_command_list_handle_t l, struct zecl_cmd *c, ze_event_handle_t signal,
                          uint32_t num_waits, ze_event_handle_t *waits)
{
    c->signal = signal;
    c->num_waits = waits ? num_waits : 0;
    c->waits = NULL;
    ze_result_t r = ZE_RESULT_SUCCESS;
    if (c->num_waits > 0) {
        c->waits = malloc(c->num_waits * sizeof *c->waits);
        if (!c->waits) {
            zecl_cmd_free(c);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(c->waits, waits, c->num_waits * sizeof *c->waits);
    }
    if (l->immediate) {
        if (g.device_lost) {
            zecl_cmd_free(c);
            return ZE_RESULT_ERROR_DEVICE_LOST;
        }
        struct zecl_cmd *owned = malloc(sizeof *owned);
        if (!owned) {
            zecl_cmd_free(c);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        *owned = *c;
        struct zecl_node node = {.cmd = owned, .owned = 1, .group = l->group};
        r = zecl_worker_push(l->worker, &node, 1);
        if (r != ZE_RESULT_SUCCESS) {
            zecl_cmd_free(owned);
            free(owned);
            return r;
        }
        if (l->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
            r = zecl_worker_sync(l->worker, UINT64_MAX, "append to a synchronous immediate list");
        return r;
    }
    if (l->closed) {
        zecl_cmd_free(c);
        return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "append to a closed command list");
    }
    if (l->num_cmds == l->cap_cmds) {
        size_t cap = l->cap_cmds ? 2 * l->cap_cmds : 16;
        struct zecl_cmd *n = realloc(l->cmds, cap * sizeof *n);
        if (!n) {
            zecl_cmd_free(c);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        l->cmds = n;
        l->cap_cmds = cap;
    }
    l->cmds[l->num_cmds++] = *c;
    return ZE_RESULT_SUCCESS;
}

/* Captures the kernel's arguments and group size as they are now. */
static ze_result_t launch_cmd(ze_kernel_handle_t k, struct zecl_cmd *c)
{
    memset(c, 0, sizeof *c);
    c->kind = ZECL_CMD_LAUNCH;
    c->u.launch.kernel = k;
    c->u.launch.args = calloc(k->num_args + 1, sizeof *c->u.launch.args);
    if (!c->u.launch.args)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    c->u.launch.num_args = k->num_args;
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&k->cl_lock);
    memcpy(c->u.launch.group_size, k->group_size, sizeof k->group_size);
    for (uint32_t i = 0; i < k->num_args && r == ZE_RESULT_SUCCESS; i++) {
        const struct zecl_arg *a = &k->args[i];
        if (!a->set) {
            r = zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "launch of %s: argument %u not set", k->name, i);
            break;
        }
        c->u.launch.args[i] = *a;
        c->u.launch.args[i].bytes = NULL;
        if (a->bytes) {
            if (!(c->u.launch.args[i].bytes = malloc(a->size ? a->size : 1)))
                r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            else
                memcpy(c->u.launch.args[i].bytes, a->bytes, a->size);
        }
    }
    pthread_mutex_unlock(&k->cl_lock);
    if (r != ZE_RESULT_SUCCESS)
        zecl_cmd_free(c);
    return r;
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendLaunchKernel(ze_command_list_handle_t l, ze_kernel_handle_t k,
                                                            const ze_group_count_t *groups,
                                                            ze_event_handle_t signal, uint32_t num_waits,
                                                            ze_event_handle_t *waits)
{
    struct zecl_cmd c;
    ze_result_t r = launch_cmd(k, &c);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    c.u.launch.groups = *groups;
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendLaunchKernelIndirect(ze_command_list_handle_t l,
                                                                    ze_kernel_handle_t k,
                                                                    const ze_group_count_t *groups_buffer,
                                                                    ze_event_handle_t signal, uint32_t num_waits,
                                                                    ze_event_handle_t *waits)
{
    struct zecl_cmd c;
    ze_result_t r = launch_cmd(k, &c);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    c.u.launch.indirect = groups_buffer;
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendMemoryCopy(ze_command_list_handle_t l, void *dst, const void *src,
                                                          size_t size, ze_event_handle_t signal,
                                                          uint32_t num_waits, ze_event_handle_t *waits)
{
    const char *d = dst, *s = src;
    if (size > 0 && d < s + size && s < d + size)
        return zecl_fail(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "zeCommandListAppendMemoryCopy: overlap");
    struct zecl_cmd c = {.kind = ZECL_CMD_COPY};
    c.u.copy.dst = dst;
    c.u.copy.src = src;
    c.u.copy.size = size;
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendMemoryCopyFromContext(ze_command_list_handle_t l, void *dst,
                                                                     ze_context_handle_t hContextSrc,
                                                                     const void *src, size_t size,
                                                                     ze_event_handle_t signal,
                                                                     uint32_t num_waits, ze_event_handle_t *waits)
{
    (void)hContextSrc; /* all contexts share one OpenCL context */
    return zecl_zeCommandListAppendMemoryCopy(l, dst, src, size, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendMemoryFill(ze_command_list_handle_t l, void *ptr,
                                                          const void *pattern, size_t pattern_size, size_t size,
                                                          ze_event_handle_t signal, uint32_t num_waits,
                                                          ze_event_handle_t *waits)
{
    if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)))
        return zecl_fail(ZE_RESULT_ERROR_INVALID_SIZE, "zeCommandListAppendMemoryFill: pattern of %zu bytes",
                         pattern_size);
    struct zecl_cmd c = {.kind = ZECL_CMD_FILL};
    c.u.fill.dst = ptr;
    memcpy(c.u.fill.pattern, pattern, pattern_size);
    c.u.fill.pattern_size = pattern_size;
    c.u.fill.size = size;
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendBarrier(ze_command_list_handle_t l, ze_event_handle_t signal,
                                                       uint32_t num_waits, ze_event_handle_t *waits)
{
    struct zecl_cmd c = {.kind = ZECL_CMD_BARRIER};
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendMemoryRangesBarrier(ze_command_list_handle_t l, uint32_t n,
                                                                   const size_t *sizes, const void **ranges,
                                                                   ze_event_handle_t signal, uint32_t num_waits,
                                                                   ze_event_handle_t *waits)
{
    (void)n;
    (void)sizes;
    (void)ranges; /* ordered as a full barrier (same execution rules); memory is coherent */
    return zecl_zeCommandListAppendBarrier(l, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendSignalEvent(ze_command_list_handle_t l, ze_event_handle_t e)
{
    struct zecl_cmd c = {.kind = ZECL_CMD_SIGNAL};
    return append(l, &c, e, 0, NULL);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t l, uint32_t n,
                                                            ze_event_handle_t *events)
{
    struct zecl_cmd c = {.kind = ZECL_CMD_WAIT};
    return append(l, &c, NULL, n, events);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendEventReset(ze_command_list_handle_t l, ze_event_handle_t e)
{
    struct zecl_cmd c = {.kind = ZECL_CMD_EVENT_RESET};
    c.u.reset.event = e;
    return append(l, &c, NULL, 0, NULL);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t l, uint64_t *dst,
                                                                    ze_event_handle_t signal, uint32_t num_waits,
                                                                    ze_event_handle_t *waits)
{
    struct zecl_cmd c = {.kind = ZECL_CMD_WRITE_TIMESTAMP};
    c.u.timestamp.dst = dst;
    return append(l, &c, signal, num_waits, waits);
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendQueryKernelTimestamps(ze_command_list_handle_t l, uint32_t n,
                                                                     ze_event_handle_t *events, void *dst,
                                                                     const size_t *offsets,
                                                                     ze_event_handle_t signal, uint32_t num_waits,
                                                                     ze_event_handle_t *waits)
{
    for (uint32_t i = 0; i < n; i++)
        if (!(events[i]->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
            return zecl_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeCommandListAppendQueryKernelTimestamps: event "
                             "%u is not a timestamp event", i);
    struct zecl_cmd c = {.kind = ZECL_CMD_QUERY_TIMESTAMPS};
    c.u.query.count = n;
    c.u.query.dst = dst;
    c.u.query.events = malloc((n + 1) * sizeof *c.u.query.events);
    c.u.query.offsets = offsets ? malloc((n + 1) * sizeof *c.u.query.offsets) : NULL;
    if (!c.u.query.events || (offsets && !c.u.query.offsets)) {
        zecl_cmd_free(&c);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(c.u.query.events, events, n * sizeof *events);
    if (offsets)
        memcpy(c.u.query.offsets, offsets, n * sizeof *offsets);
    return append(l, &c, signal, num_waits, waits);
}

/* Prefetch and advice are hints about migration; memory is host RAM and
   never migrates, so ignoring them is exact. */
ze_result_t ZE_APICALL zecl_zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t l, const void *ptr,
                                                              size_t size)
{
    (void)l; (void)ptr; (void)size;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zecl_zeCommandListAppendMemAdvise(ze_command_list_handle_t l, ze_device_handle_t d,
                                                         const void *ptr, size_t size, ze_memory_advice_t advice)
{
    (void)l; (void)d; (void)ptr; (void)size; (void)advice;
    return ZE_RESULT_SUCCESS;
}
