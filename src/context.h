/*
 * context.h — the zesort_context shared by the API layer files.
 */
#ifndef ZESORT_CONTEXT_H
#define ZESORT_CONTEXT_H

#include "device_backend.h"
#include "zesort.h"

struct zesort_context {
    zesort_backend backend;    /* never AUTO */
    const zs_device_ops *ops;  /* NULL for the cpu backend */
    zs_device *dev;
    char device_desc[256];
    char err[1024];
};

/* Records a formatted message on ctx and returns status. */
zesort_status zs_fail(zesort_context *ctx, zesort_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
