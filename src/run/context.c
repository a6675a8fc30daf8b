/*
 * context.c — a context's lock and error messages (see context.h), apart from
 * api_context.c so that the calls which need them (the sorts, the test hooks)
 * do not pull the backends' creation into a static link that does not use it.
 */
#include <stdatomic.h>

#include "run/context.h"

static _Thread_local zs_error create_error = {"no error"};

/* zesort_last_error(ctx) answers from the calling thread's own copies, never
 * from ctx->err, which another thread's call may be rewriting: `mine` is the
 * message of this thread's last call on the context `mine_id`, `other` a
 * copy of a context's message taken under its lock. */
static _Thread_local uint64_t mine_id;
static _Thread_local zs_error mine, other;

static atomic_uint_fast64_t next_ctx_id = 1;

uint64_t zs_ctx_new_id(void) { return atomic_fetch_add(&next_ctx_id, 1); }

zs_error *zs_ctx_error(zesort_context *ctx) { return ctx ? &ctx->err : &create_error; }

void zs_ctx_enter(zesort_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->launches = 0;
    for (uint32_t p = 0; p < ctx->peer_count; p++)
        ctx->peers[p]->launches = 0;
}

void zs_ctx_sorted(zesort_context *ctx, zesort_algo algo)
{
    zs_error_clear(&ctx->err); /* no stale message after a successful call */
    ctx->last_algo = algo;
    ctx->last_launches = ctx->launches;
    for (uint32_t p = 0; p < ctx->peer_count; p++)
        ctx->last_launches += ctx->peers[p]->launches;
}

zesort_status zs_ctx_leave(zesort_context *ctx, zesort_status status)
{
    mine = ctx->err;
    mine_id = ctx->id;
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

const char *zesort_last_error(const zesort_context *ctx)
{
    if (!ctx)
        return create_error.text;
    if (mine_id == ctx->id)
        return mine.text;
    /* this thread's last call was on another context (or it made none on
     * ctx): the message of the last call on ctx, by whichever thread. The
     * lock is state, not the context's value: taking it through a const
     * pointer is what lets this query be made safely. */
    zesort_context *c = (zesort_context *)ctx;
    pthread_mutex_lock(&c->lock);
    other = c->err;
    pthread_mutex_unlock(&c->lock);
    return other.text;
}
