/* ze_cl_driver: workers, the threads that execute commands.
 *
 * Each command queue and each immediate command list owns one worker: a
 * thread with its own in-order OpenCL queue (profiling on). It takes work
 * items in FIFO order and executes their commands one at a time: wait for
 * the command's wait events (sleeping on g.changed, so events signalled
 * later by the host or by another worker release it), run it on OpenCL and
 * wait for completion, then signal its event with the command's OpenCL
 * profiling timestamps. One command at a time makes in-order execution and
 * barriers trivially right. */
#include "zecl_internal.h"

#include <stdlib.h>
#include <string.h>

static void *worker_main(void *arg);

ze_result_t zecl_worker_start(ze_device_handle_t device, struct zecl_worker **out)
{
    *out = NULL;
    struct zecl_worker *w = calloc(1, sizeof *w);
    if (!w)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    w->queue = clCreateCommandQueueWithProperties(g.context, device->cl, props, &err);
    if (!w->queue) {
        free(w);
        return zecl_fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "clCreateCommandQueue failed (%d)", err);
    }
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        clReleaseCommandQueue(w->queue);
        free(w);
        return zecl_fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "cannot start a worker thread");
    }
    *out = w;
    return ZE_RESULT_SUCCESS;
}

void zecl_worker_stop(struct zecl_worker *w)
{
    pthread_mutex_lock(&g.lock);
    w->stop = 1; /* the worker drains its queue first */
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    pthread_join(w->thread, NULL);
    clReleaseCommandQueue(w->queue);
    free(w->items);
    free(w);
}

ze_result_t zecl_worker_push(struct zecl_worker *w, struct zecl_work item)
{
    pthread_mutex_lock(&g.lock);
    if (w->head + w->count == w->cap) {
        if (w->head > 0) {
            memmove(w->items, w->items + w->head, w->count * sizeof *w->items);
            w->head = 0;
        } else {
            size_t cap = w->cap ? 2 * w->cap : 16;
            struct zecl_work *n = realloc(w->items, cap * sizeof *n);
            if (!n) {
                pthread_mutex_unlock(&g.lock);
                return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            }
            w->items = n;
            w->cap = cap;
        }
    }
    w->items[w->head + w->count++] = item;
    if (item.list)
        item.list->in_flight++;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t zecl_worker_sync(struct zecl_worker *w, uint64_t timeout_ns)
{
    uint64_t deadline = zecl_deadline(timeout_ns);
    pthread_mutex_lock(&g.lock);
    while ((w->count > 0 || w->busy) && zecl_wait_until(deadline))
        ;
    int idle = w->count == 0 && !w->busy;
    pthread_mutex_unlock(&g.lock);
    if (!idle)
        return ZE_RESULT_NOT_READY;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

/* Waits for an OpenCL command and reads its profiling interval. */
static cl_int finish(cl_event ev, uint64_t *start, uint64_t *end)
{
    cl_int err = clWaitForEvents(1, &ev), status = CL_COMPLETE;
    if (err == CL_SUCCESS)
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (err == CL_SUCCESS && status < 0)
        err = status;
    cl_ulong s = 0, e = 0;
    if (err == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) == CL_SUCCESS && e >= s) {
        *start = s;
        *end = e;
    }
    clReleaseEvent(ev);
    return err;
}

static cl_int run_launch(struct zecl_worker *w, struct zecl_cmd *c, uint64_t *start, uint64_t *end)
{
    ze_kernel_handle_t k = c->u.launch.kernel;
    /* Indirect launches read the group counts now, when every earlier
       command of the queue has completed. */
    ze_group_count_t groups = c->u.launch.indirect ? *c->u.launch.indirect : c->u.launch.groups;
    uint32_t counts[3] = {groups.groupCountX, groups.groupCountY, groups.groupCountZ};
    size_t global[3], local[3];
    for (int d = 0; d < 3; d++) {
        if (counts[d] == 0)
            return CL_SUCCESS; /* nothing to run */
        local[d] = c->u.launch.group_size[d];
        global[d] = (size_t)counts[d] * local[d];
    }
    cl_event ev = NULL;
    pthread_mutex_lock(&k->cl_lock);
    cl_int err = zecl_apply_args(k, c->u.launch.args);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(w->queue, k->cl, 3, NULL, global, local, 0, NULL, &ev);
    pthread_mutex_unlock(&k->cl_lock);
    if (err == CL_SUCCESS)
        err = finish(ev, start, end);
    if (err != CL_SUCCESS)
        zecl_fail(ZE_RESULT_ERROR_DEVICE_LOST, "kernel %s (%ux%ux%u groups of %zux%zux%zu) failed: %d", k->name,
                  counts[0], counts[1], counts[2], local[0], local[1], local[2], err);
    return err;
}

/* Fills [dst, dst + size) with the pattern repeated, the last one partial. */
static void host_fill(char *dst, const unsigned char *pattern, size_t ps, size_t size)
{
    size_t done = ps < size ? ps : size;
    memcpy(dst, pattern, done);
    while (done < size) { /* double the filled prefix */
        size_t n = done < size - done ? done : size - done;
        memcpy(dst + done, dst, n);
        done += n;
    }
}

static cl_int run_fill(struct zecl_worker *w, struct zecl_cmd *c, uint64_t *start, uint64_t *end)
{
    size_t ps = c->u.fill.pattern_size, whole = c->u.fill.size - c->u.fill.size % ps;
    cl_int err = CL_SUCCESS;
    /* OpenCL fills whole patterns at pattern-aligned addresses; Level Zero
       has neither restriction. The rest is filled by the host (all memory
       is host RAM). */
    if ((uintptr_t)c->u.fill.dst % ps != 0)
        whole = 0;
    if (whole > 0) {
        cl_event ev = NULL;
        err = clEnqueueSVMMemFill(w->queue, c->u.fill.dst, c->u.fill.pattern, ps, whole, 0, NULL, &ev);
        if (err == CL_SUCCESS)
            err = finish(ev, start, end);
    }
    if (err == CL_SUCCESS && whole < c->u.fill.size)
        host_fill((char *)c->u.fill.dst + whole, c->u.fill.pattern, ps, c->u.fill.size - whole);
    if (err != CL_SUCCESS)
        zecl_fail(ZE_RESULT_ERROR_DEVICE_LOST, "fill of %zu bytes at %p failed: %d", c->u.fill.size,
                  c->u.fill.dst, err);
    return err;
}

static cl_int run_copy(struct zecl_worker *w, struct zecl_cmd *c, uint64_t *start, uint64_t *end)
{
    if (c->u.copy.size == 0)
        return CL_SUCCESS;
    cl_event ev = NULL;
    cl_int err = clEnqueueSVMMemcpy(w->queue, CL_FALSE, c->u.copy.dst, c->u.copy.src, c->u.copy.size, 0, NULL,
                                    &ev);
    if (err == CL_SUCCESS)
        err = finish(ev, start, end);
    if (err != CL_SUCCESS)
        zecl_fail(ZE_RESULT_ERROR_DEVICE_LOST, "copy of %zu bytes %p -> %p failed: %d", c->u.copy.size,
                  c->u.copy.src, c->u.copy.dst, err);
    return err;
}

static void write_timestamps_locked(struct zecl_cmd *c)
{
    for (uint32_t i = 0; i < c->u.query.count; i++) {
        ze_event_handle_t e = c->u.query.events[i];
        ze_kernel_timestamp_result_t r;
        r.global.kernelStart = r.context.kernelStart = e->ts_start;
        r.global.kernelEnd = r.context.kernelEnd = e->ts_end;
        size_t off = c->u.query.offsets ? c->u.query.offsets[i] : i * sizeof r;
        memcpy((char *)c->u.query.dst + off, &r, sizeof r);
    }
}

static void execute(struct zecl_worker *w, struct zecl_cmd *c)
{
    pthread_mutex_lock(&g.lock);
    for (uint32_t i = 0; i < c->num_waits; i++)
        while (!c->waits[i]->signaled)
            pthread_cond_wait(&g.changed, &g.lock);
    pthread_mutex_unlock(&g.lock);

    uint64_t start = zecl_now_ns(), end = 0;
    cl_int err = CL_SUCCESS;
    switch (c->kind) {
    case ZECL_CMD_LAUNCH:
        err = run_launch(w, c, &start, &end);
        break;
    case ZECL_CMD_COPY:
        err = run_copy(w, c, &start, &end);
        break;
    case ZECL_CMD_FILL:
        err = run_fill(w, c, &start, &end);
        break;
    case ZECL_CMD_BARRIER:
        break;
    case ZECL_CMD_EVENT_RESET:
        pthread_mutex_lock(&g.lock);
        c->u.reset.event->signaled = 0;
        c->u.reset.event->ts_start = c->u.reset.event->ts_end = 0;
        pthread_cond_broadcast(&g.changed);
        pthread_mutex_unlock(&g.lock);
        break;
    case ZECL_CMD_WRITE_TIMESTAMP:
        *c->u.timestamp.dst = zecl_now_ns();
        break;
    case ZECL_CMD_QUERY_TIMESTAMPS:
        pthread_mutex_lock(&g.lock);
        write_timestamps_locked(c);
        pthread_mutex_unlock(&g.lock);
        break;
    }
    if (end == 0)
        end = zecl_now_ns(); /* commands without OpenCL profiling */
    pthread_mutex_lock(&g.lock);
    if (err != CL_SUCCESS)
        g.device_lost = 1; /* reported by every later synchronisation */
    /* Signal even after a failure, so that nothing waits forever. */
    if (c->signal)
        zecl_event_signal_locked(c->signal, start, end);
    pthread_mutex_unlock(&g.lock);
}

static void *worker_main(void *arg)
{
    struct zecl_worker *w = arg;
    pthread_mutex_lock(&g.lock);
    for (;;) {
        while (w->count == 0 && !w->stop)
            pthread_cond_wait(&g.changed, &g.lock);
        if (w->count == 0)
            break; /* stopped and drained */
        struct zecl_work item = w->items[w->head++];
        if (--w->count == 0)
            w->head = 0;
        w->busy = 1;
        pthread_mutex_unlock(&g.lock);

        if (item.list)
            for (size_t i = 0; i < item.list->num_cmds; i++)
                execute(w, &item.list->cmds[i]);
        if (item.cmd) {
            execute(w, item.cmd);
            zecl_cmd_free(item.cmd);
            free(item.cmd);
        }

        pthread_mutex_lock(&g.lock);
        if (item.list)
            item.list->in_flight--;
        if (item.fence)
            item.fence->signaled = 1;
        w->busy = 0;
        pthread_cond_broadcast(&g.changed);
    }
    pthread_mutex_unlock(&g.lock);
    return NULL;
}
