/*
 * context.h — the zesort_context shared by the API layer files.
 */
#ifndef ZESORT_CONTEXT_H
#define ZESORT_CONTEXT_H

#include "device_backend.h"
#include "error.h"
#include "zesort.h"

struct zesort_context {
    zesort_backend backend;    /* never AUTO */
    const zs_device_ops *ops;  /* NULL for the cpu backend */
    zs_device *dev;
    char device_desc[256];
    zs_error err;             /* cleared by every successful call */
    zesort_algo last_algo;    /* what the last successful sort ran (AUTO: none yet) */
};

/* The message a call on ctx sets: ctx's, or for ctx NULL the thread's
 * (zesort_last_error(NULL): the last failed zesort_create). */
zs_error *zs_ctx_error(zesort_context *ctx);

#endif
