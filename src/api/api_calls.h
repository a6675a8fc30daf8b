/*
 * api_calls.h — the host sorts behind zesort_run (api_run.c): a checked
 * sort or top-k under the context's lock, dispatched.
 */
#ifndef ZESORT_API_CALLS_H
#define ZESORT_API_CALLS_H

#include "dispatch/dispatch.h"
#include "dispatch/topk.h"

/* A sort, copy, argsort or segmented sort of n keys (c), its arguments
 * checked; device_ms (may be NULL): the devices' time. */
zesort_status zs_api_sort(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                          const zesort_options *opts, double *device_ms);

/* A top-k, of one array or per segment, its arguments checked. */
zesort_status zs_api_topk(zesort_context *ctx, const zs_topk_call *c, const zesort_options *opts);

/* zesort_run under the name of the entry point it stands for (fn). */
zesort_status zs_api_run(zesort_context *ctx, const zesort_desc *d, const char *fn);

#endif /* ZESORT_API_CALLS_H */
