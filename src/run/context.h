/*
 * context.h — the zesort_context: made and locked by the API layer files,
 * handed down to the dispatcher and the runner, so below both.
 */
#ifndef ZESORT_CONTEXT_H
#define ZESORT_CONTEXT_H

#include <pthread.h>
#include <stdint.h>

#include "backends/device_backend.h"
#include "common/error.h"
#include "run/buffer_cache.h"
#include "zesort.h"

/* Threads: a call that uses or changes ctx's state (a sort, a check, the
 * last error / algorithm) holds ctx->lock for the whole call, so calls on
 * one context from several threads run one after the other. backend, ops,
 * dev's identity, device_desc, device_index and id are set by zesort_create and only read
 * afterwards. */
struct zesort_context {
    zesort_backend backend;    /* never AUTO */
    const zs_device_ops *ops;  /* NULL for the cpu backend */
    zs_device *dev;
    char device_desc[256];
    uint32_t device_index;    /* in zesort_device_name(backend, ...)'s list */
    uint64_t id;              /* unique per process: tags the thread's copy of err */
    pthread_mutex_t lock;
    zs_error err;             /* of the call in progress / the last one; cleared on success */
    zesort_algo last_algo;    /* what the last successful sort ran (AUTO: none yet) */
    uint64_t launches;        /* kernel launches of the sort in progress on this device */
    uint64_t last_launches;   /* of the last successful sort, on all its devices */
    /* zesort_create_on_devices: contexts on its devices after the first
     * (this context's own device), owned; used only by calls holding this
     * context's lock, one thread per device (dispatch/group.h). */
    struct zesort_context **peers;
    uint32_t peer_count;
    zesort_sort_report report; /* of the last successful host sort */
    zs_buffer_cache cache;     /* device buffers kept for the next host sort (buffer_cache.h) */
};

/* The kernel flavor plans are made for on ctx's device: the cpu backend
 * runs no kernels, any flavor serves its request. */
static inline zs_flavor zs_ctx_flavor(const zesort_context *ctx)
{
    return ctx->ops ? ctx->ops->flavor(ctx->dev) : ZS_FLAVOR_PORTABLE;
}

/* The message a call on ctx sets: ctx's, or for ctx NULL the thread's
 * (zesort_last_error(NULL): the last failed zesort_create). */
zs_error *zs_ctx_error(zesort_context *ctx);

/* Brackets a call on ctx (not NULL): zs_ctx_enter takes ctx's lock;
 * zs_ctx_leave copies ctx->err for zesort_last_error on this thread, releases
 * the lock and returns status. zs_ctx_enter also zeroes the launches of ctx
 * and its peers, which zs_run_on_device counts. */
void zs_ctx_enter(zesort_context *ctx);
/* Notes a successful sort on ctx (under its lock): no message, its
 * algorithm, and the launches its devices counted since zs_ctx_enter. */
void zs_ctx_sorted(zesort_context *ctx, zesort_algo algo);
zesort_status zs_ctx_leave(zesort_context *ctx, zesort_status status);

/* A new context's id, never 0 and never reused in this process. */
uint64_t zs_ctx_new_id(void);

#endif
