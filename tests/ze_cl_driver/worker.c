/* ze_cl_driver: workers, the threads that execute commands.
 *
 * Each command queue and each immediate command list owns one worker: a
 * thread with its own in-order OpenCL queue (profiling on) that executes
 * commands one at a time: run on OpenCL, wait for completion, then signal
 * the command's event with its OpenCL profiling timestamps.
 *
 * Which command runs next. Like a GPU, the driver may run the commands of a
 * queue in any order that the Level Zero dependencies allow (README.md,
 * "Execution order", gives the rules and the spec text behind them). A
 * worker holds its pending commands ("nodes") in append order; a node is
 * ready when its wait events are signalled and no earlier pending node must
 * precede it (ordered_before). The worker runs a ready node chosen at random
 * (xorshift64 seeded from ZE_CL_DRIVER_SEED and the worker's creation
 * number), so one seed gives one order wherever host timing does not
 * interfere. A node waiting on an event never holds up unrelated ready
 * nodes. With ZE_CL_DRIVER_ORDER=in-order every earlier node precedes every
 * later one: strict append order, each command waiting for its events.
 *
 * Asynchronous immediate lists hold appended commands in a pending window
 * (released = the first seq not yet runnable) so that they too can be
 * reordered; the window is released when it holds WINDOW commands, and by
 * every host wait (zecl_host_wait_locked: event/fence/queue synchronisation
 * or query, list reset or destruction), which releases the windows of all
 * workers, since the awaited object may depend on any of them. */
#include "zecl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 32 };

static void *worker_main(void *arg);

/* ------------------------------------------------------------ settings */

static struct {
    pthread_once_t once;
    int random;
    uint64_t seed;
    uint64_t workers_started; /* g.lock */
    uint64_t next_group;      /* g.lock */
    struct zecl_worker *all;  /* g.lock */
} order = {.once = PTHREAD_ONCE_INIT, .random = 1, .seed = 1};

static void read_order_env(void)
{
    const char *mode = getenv("ZE_CL_DRIVER_ORDER"), *seed = getenv("ZE_CL_DRIVER_SEED");
    if (mode && strcmp(mode, "in-order") == 0)
        order.random = 0;
    else if (mode && *mode && strcmp(mode, "random") != 0)
        fprintf(stderr, "ze_cl_driver: ZE_CL_DRIVER_ORDER=%s unknown (random or in-order): random\n", mode);
    if (seed && *seed) {
        char *end;
        unsigned long long v = strtoull(seed, &end, 0);
        if (*end)
            fprintf(stderr, "ze_cl_driver: ZE_CL_DRIVER_SEED=%s is not a number: seed 1\n", seed);
        else
            order.seed = v;
    }
    if (g.debug)
        fprintf(stderr, "ze_cl_driver: commands run %s (seed %llu)\n",
                order.random ? "in random order" : "in order", (unsigned long long)order.seed);
}

int zecl_random_order(void)
{
    pthread_once(&order.once, read_order_env);
    return order.random;
}

uint64_t zecl_new_group_locked(void)
{
    return ++order.next_group;
}

/* splitmix64: spreads the seed and the worker number over the state. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static uint64_t next_random(struct zecl_worker *w)
{
    uint64_t x = w->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return w->rng = x;
}

/* ------------------------------------------------------- start and stop */

ze_result_t zecl_worker_start(ze_device_handle_t device, int windowed, struct zecl_worker **out)
{
    *out = NULL;
    int random = zecl_random_order();
    struct zecl_worker *w = calloc(1, sizeof *w);
    if (!w)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    w->windowed = windowed && random; /* in order: run as soon as appended, as always */
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    w->queue = clCreateCommandQueueWithProperties(g.context, device->cl, props, &err);
    if (!w->queue) {
        free(w);
        return zecl_fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "clCreateCommandQueue failed (%d)", err);
    }
    pthread_mutex_lock(&g.lock);
    w->rng = mix(order.seed ^ mix(++order.workers_started));
    if (w->rng == 0)
        w->rng = 1; /* xorshift never leaves 0 */
    w->next_worker = order.all;
    order.all = w;
    pthread_mutex_unlock(&g.lock);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_mutex_lock(&g.lock);
        order.all = w->next_worker; /* nothing was pushed in between: w is first */
        pthread_mutex_unlock(&g.lock);
        clReleaseCommandQueue(w->queue);
        free(w);
        return zecl_fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "cannot start a worker thread");
    }
    *out = w;
    return ZE_RESULT_SUCCESS;
}

void zecl_flush_all_locked(void)
{
    for (struct zecl_worker *w = order.all; w; w = w->next_worker)
        if (w->released != w->next_seq) {
            w->released = w->next_seq;
            pthread_cond_broadcast(&g.changed);
        }
}

int zecl_host_wait_locked(uint64_t deadline_ns)
{
    zecl_flush_all_locked();
    return zecl_wait_until(deadline_ns);
}

/* ------------------------------------------------------------- stalls */

/* ZE_CL_DRIVER_HANG_TIMEOUT in ns (read at every wait: tests set it). */
static uint64_t hang_timeout_ns(void)
{
    const char *v = getenv("ZE_CL_DRIVER_HANG_TIMEOUT");
    double s = 60;
    if (v && *v) {
        char *end;
        double d = strtod(v, &end);
        if (*end || d < 0 || d != d)
            fprintf(stderr, "ze_cl_driver: ZE_CL_DRIVER_HANG_TIMEOUT=%s is not a number of seconds: 60\n", v);
        else
            s = d;
    }
    return s == 0 || s > 1e9 ? UINT64_MAX : (uint64_t)(s * 1e9);
}

void zecl_watch_begin_locked(struct zecl_watch *watch, uint64_t deadline_ns)
{
    watch->deadline = deadline_ns;
    watch->hang_ns = deadline_ns == UINT64_MAX ? hang_timeout_ns() : UINT64_MAX;
    watch->stall_deadline = zecl_deadline(watch->hang_ns);
    watch->progress = g.progress;
}

int zecl_watch_wait_locked(struct zecl_watch *watch)
{
    uint64_t until = watch->deadline < watch->stall_deadline ? watch->deadline : watch->stall_deadline;
    zecl_host_wait_locked(until);
    if (g.progress != watch->progress || g.running > 0) {
        /* Something moved, or a command is executing (however long). */
        watch->progress = g.progress;
        watch->stall_deadline = zecl_deadline(watch->hang_ns);
    }
    uint64_t now = zecl_deadline(0);
    if (now >= watch->deadline)
        return 0;
    return now >= watch->stall_deadline ? -1 : 1;
}

static const char *kind_name(const struct zecl_node *n)
{
    if (!n->cmd)
        return "fence";
    switch (n->cmd->kind) {
    case ZECL_CMD_LAUNCH: return "launch";
    case ZECL_CMD_COPY: return "copy";
    case ZECL_CMD_FILL: return "fill";
    case ZECL_CMD_BARRIER: return "barrier";
    case ZECL_CMD_SIGNAL: return "signal event";
    case ZECL_CMD_WAIT: return "wait on events";
    case ZECL_CMD_EVENT_RESET: return "event reset";
    case ZECL_CMD_WRITE_TIMESTAMP: return "write timestamp";
    case ZECL_CMD_QUERY_TIMESTAMPS: return "query timestamps";
    }
    return "command";
}

static int ordered_before(const struct zecl_node *a, const struct zecl_node *b);

ze_result_t zecl_stalled_locked(const char *who)
{
    size_t pending = 0;
    for (struct zecl_worker *w = order.all; w; w = w->next_worker)
        pending += w->count;
    uint64_t ns = hang_timeout_ns();
    fprintf(stderr,
            "ze_cl_driver: %s: no command executing and nothing completed, signalled or appended for %.3g s "
            "(ZE_CL_DRIVER_HANG_TIMEOUT): the wait can never end; device lost (ZE_RESULT_ERROR_DEVICE_LOST), "
            "%zu pending command%s dropped%s\n",
            who, ns == UINT64_MAX ? 0.0 : (double)ns / 1e9, pending, pending == 1 ? "" : "s",
            pending ? ":" : " (nothing that could signal what it waits for)");
    /* What each pending command waits for (the first few of each worker). */
    for (struct zecl_worker *w = order.all; w; w = w->next_worker)
        for (size_t j = 0; j < w->count && j < 4; j++) {
            const struct zecl_node *n = &w->nodes[j];
            const char *list = n->list ? "a regular list" : "an immediate list";
            ze_event_handle_t e = NULL;
            for (uint32_t i = 0; n->cmd && i < n->cmd->num_waits && !e; i++)
                if (!n->cmd->waits[i]->signaled)
                    e = n->cmd->waits[i];
            size_t earlier = 0;
            for (size_t i = 0; i < j; i++)
                earlier += ordered_before(&w->nodes[i], n);
            if (e)
                fprintf(stderr, "ze_cl_driver:   %s of %s waits on event %u of pool %p, not signalled\n",
                        kind_name(n), list, e->index, (void *)e->pool);
            else
                fprintf(stderr, "ze_cl_driver:   %s of %s waits for %zu earlier command%s\n", kind_name(n), list,
                        earlier, earlier == 1 ? "" : "s");
        }
    g.device_lost = 1;
    /* Drop everything pending (nothing executes: g.running is 0), as a
       failed command: its event and fence signalled, its list no longer
       in flight. */
    uint64_t now = zecl_now_ns();
    for (struct zecl_worker *w = order.all; w; w = w->next_worker) {
        for (size_t j = 0; j < w->count; j++) {
            struct zecl_node *n = &w->nodes[j];
            if (n->cmd && n->cmd->signal)
                zecl_event_signal_locked(n->cmd->signal, now, now);
            if (n->fence)
                n->fence->signaled = 1;
            if (n->list)
                n->list->in_flight--;
            if (n->owned) {
                zecl_cmd_free(n->cmd);
                free(n->cmd);
            }
        }
        w->count = 0;
        w->released = w->next_seq;
    }
    g.progress++;
    pthread_cond_broadcast(&g.changed);
    return ZE_RESULT_ERROR_DEVICE_LOST;
}

ze_result_t zecl_worker_stop(struct zecl_worker *w, const char *who)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&g.lock);
    /* Drain first, as a host wait: commands may wait on events of others. */
    struct zecl_watch watch;
    zecl_watch_begin_locked(&watch, UINT64_MAX);
    while (w->count > 0)
        if (zecl_watch_wait_locked(&watch) < 0)
            r = zecl_stalled_locked(who); /* drops every pending command */
    w->stop = 1;
    struct zecl_worker **p = &order.all;
    while (*p != w)
        p = &(*p)->next_worker;
    *p = w->next_worker;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    pthread_join(w->thread, NULL);
    clReleaseCommandQueue(w->queue);
    free(w->nodes);
    free(w);
    return r;
}

ze_result_t zecl_worker_push(struct zecl_worker *w, struct zecl_node *nodes, size_t n)
{
    pthread_mutex_lock(&g.lock);
    if (w->count + n > w->cap) {
        size_t cap = w->cap ? w->cap : 16;
        while (cap < w->count + n)
            cap *= 2;
        struct zecl_node *grown = realloc(w->nodes, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&g.lock);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        w->nodes = grown;
        w->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        nodes[i].seq = w->next_seq++;
        w->nodes[w->count++] = nodes[i];
        if (nodes[i].list)
            nodes[i].list->in_flight++;
    }
    if (!w->windowed || w->next_seq - w->released >= WINDOW)
        w->released = w->next_seq;
    g.progress++;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t zecl_worker_sync(struct zecl_worker *w, uint64_t timeout_ns, const char *who)
{
    struct zecl_watch watch;
    pthread_mutex_lock(&g.lock);
    zecl_watch_begin_locked(&watch, zecl_deadline(timeout_ns));
    int k = 1;
    while (w->count > 0 && (k = zecl_watch_wait_locked(&watch)) > 0)
        ;
    if (w->count > 0 && k < 0)
        zecl_stalled_locked(who);
    int idle = w->count == 0;
    pthread_mutex_unlock(&g.lock);
    if (!idle)
        return ZE_RESULT_NOT_READY;
    return g.device_lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

/* ------------------------------------------------------------ ordering */

/* Must every earlier command of the queue complete before n starts? A
   barrier without wait events, AppendSignalEvent and AppendEventReset (as
   vkCmdSetEvent / vkCmdResetEvent: their signal covers the work before
   them), a fence. */
static int after_all_earlier(const struct zecl_node *n)
{
    if (!n->cmd)
        return 1;
    switch (n->cmd->kind) {
    case ZECL_CMD_BARRIER:
        return n->cmd->num_waits == 0;
    case ZECL_CMD_SIGNAL:
    case ZECL_CMD_EVENT_RESET:
        return 1;
    default:
        return 0;
    }
}

/* Must n complete before any later command starts? Barriers ("blocks all
   following commands from beginning until the execution of the barrier
   completes", with or without wait events), AppendWaitOnEvents (gates what
   follows) and AppendEventReset (so that a later command signalling the
   event cannot be undone by it). */
static int before_all_later(const struct zecl_node *n)
{
    if (!n->cmd)
        return 0;
    switch (n->cmd->kind) {
    case ZECL_CMD_BARRIER:
    case ZECL_CMD_WAIT:
    case ZECL_CMD_EVENT_RESET:
        return 1;
    default:
        return 0;
    }
}

/* Must a (appended earlier) complete before b starts? */
static int ordered_before(const struct zecl_node *a, const struct zecl_node *b)
{
    return !order.random || (b->group && a->group == b->group) || after_all_earlier(b) ||
           before_all_later(a);
}

static int ready_locked(const struct zecl_worker *w, size_t j)
{
    const struct zecl_node *n = &w->nodes[j];
    if (n->seq >= w->released)
        return 0;
    for (size_t i = 0; i < j; i++)
        if (ordered_before(&w->nodes[i], n))
            return 0;
    for (uint32_t i = 0; n->cmd && i < n->cmd->num_waits; i++)
        if (!n->cmd->waits[i]->signaled)
            return 0;
    return 1;
}

/* The index of the node to run next, or -1 when none is ready. */
static long pick_locked(struct zecl_worker *w)
{
    /* In order: the first ready node, usually the first node (counting
       every ready node first made each pick quadratic in the queue). */
    if (!order.random) {
        for (size_t j = 0; j < w->count; j++)
            if (ready_locked(w, j))
                return (long)j;
        return -1;
    }
    size_t ready = 0;
    for (size_t j = 0; j < w->count; j++)
        ready += ready_locked(w, j);
    if (ready == 0)
        return -1;
    size_t k = (size_t)(next_random(w) % ready);
    for (size_t j = 0; j < w->count; j++)
        if (ready_locked(w, j) && k-- == 0)
            return (long)j;
    return -1; /* not reached */
}

static void remove_locked(struct zecl_worker *w, uint64_t seq)
{
    size_t i = 0;
    while (w->nodes[i].seq != seq)
        i++;
    memmove(w->nodes + i, w->nodes + i + 1, (w->count - i - 1) * sizeof *w->nodes);
    w->count--;
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
    /* Its wait events were signalled when the command was picked. */
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
    case ZECL_CMD_SIGNAL:
    case ZECL_CMD_WAIT:
        break; /* ordering only: see ordered_before */
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
        long i = pick_locked(w);
        if (i < 0) {
            if (w->stop && w->count == 0)
                break; /* stopped and drained */
            pthread_cond_wait(&g.changed, &g.lock);
            continue;
        }
        /* A copy: pushes may move the array while the command runs. The
           node stays queued until it completed, so that it still orders
           the nodes after it and the worker counts as busy. */
        struct zecl_node n = w->nodes[i];
        g.running++;
        pthread_mutex_unlock(&g.lock);

        if (n.cmd)
            execute(w, n.cmd);
        if (n.owned) {
            zecl_cmd_free(n.cmd);
            free(n.cmd);
        }

        pthread_mutex_lock(&g.lock);
        if (n.fence)
            n.fence->signaled = 1;
        if (n.list)
            n.list->in_flight--;
        remove_locked(w, n.seq);
        g.running--;
        g.progress++;
        pthread_cond_broadcast(&g.changed);
    }
    pthread_mutex_unlock(&g.lock);
    return NULL;
}
