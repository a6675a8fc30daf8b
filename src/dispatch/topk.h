/*
 * topk.h — how a checked host top-k (zesort_topk, zesort_topk_segments)
 * runs (topk.c): one top-k that fits a device runs the device's radix
 * select (topk_select.h); otherwise the candidates of each segment chosen
 * (on the C fallback by its radix select, backends/cpu/cpu_topk.h; on a
 * device backend every key of the segment), sorted with their input
 * positions by the dispatcher's sort (zs_dispatch), and the first k of each
 * written out.
 */
#ifndef ZESORT_DISPATCH_TOPK_H
#define ZESORT_DISPATCH_TOPK_H

#include <stdint.h>

#include "run/context.h"
#include "zesort.h"

/* One top-k's arrays, checked by the API. Outputs NULL when not wanted;
 * values_out exactly when values_in. segmented: rows of k per segment,
 * indices within the segment; else one segment [0, n), min(k, n) out. */
typedef struct zs_topk_call {
    const void *keys, *values_in;
    void *keys_out, *values_out, *indices_out;
    uint64_t n, k;
    int segmented;
    const uint64_t *offsets; /* segments + 1 (segmented only) */
    uint64_t segments;
    const char *fn;
} zs_topk_call;

/* Runs c with opts (checked; key_bytes, value_bytes, key_flags and the
 * resolved bit range from req, as zs_make_host_request made it for n keys).
 * ran: what the candidates' sort ran. Errors as zs_dispatch, with a message
 * on ctx; OUT_OF_HOST_MEMORY for the candidates' arrays. */
zesort_status zs_topk_dispatch(zesort_context *ctx, const zs_topk_call *c,
                               const zesort_options *opts, unsigned key_bytes,
                               unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                               unsigned bit_hi, zesort_algo *ran);

#endif
