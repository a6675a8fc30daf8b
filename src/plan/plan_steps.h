/*
 * plan_steps.h — the step builders of plan.c, for the planner's own files
 * that compose plans (plan_topk.c: a select, then a sort plan;
 * plan_segments.c: the segmented sorts). Not for the layers above: they
 * take whole plans (plan.h).
 */
#ifndef ZESORT_PLAN_STEPS_H
#define ZESORT_PLAN_STEPS_H

#include "plan/plan.h"

/* A kernel step's arguments: a buffer, a uint32 scalar. */
static inline zs_arg zs_buf(zs_buffer b) { return (zs_arg){1, (uint32_t)b}; }
static inline zs_arg zs_val(uint32_t v) { return (zs_arg){0, v}; }

/* A new zeroed step at the end of the plan; NULL when out of host memory. */
zs_step *zs_plan_push_step(zs_plan *plan);

/* A kernel launch of `groups` work-groups of `local` items; 0, or -1 out of
 * host memory. */
int zs_plan_push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                        const zs_arg *args);

/* A copy of `bytes` from buffer src to dst; 0, or -1. */
int zs_plan_push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes);

/* Sets a whole buffer of `words` uint32 to `value` with the onesweep
 * program's fill kernel `fill`; 0, or -1. */
int zs_plan_push_fill(zs_plan *plan, zs_kernel fill, zs_buffer b, uint32_t value,
                      uint64_t words);

/* The sizes of the buffers every sort plan of req has: keys, temporaries,
 * params, and the value and out-of-place input buffers it uses. */
void zs_plan_data_buffers(const zs_plan_request *req, zs_plan *out);

/* The buffers a pass reads and writes. Values ping-pong with the keys; in a
 * keys-only sort they name the key buffers, which the kernels then ignore. */
typedef struct zs_ping_pong {
    zs_buffer keys_in, keys_out, values_in, values_out;
    uint32_t first_flags; /* key_flags bits of the first pass only (ZS_IOTA_VALUES) */
} zs_ping_pong;

/* The buffers of the first of `passes` passes of req. */
zs_ping_pong zs_plan_ping_pong_start(const zs_plan_request *req, unsigned passes);

/* The next pass reads what this one wrote and writes the other buffer. */
void zs_plan_ping_pong_swap(zs_ping_pong *p, int pairs);

/* Mask of the digit at `shift`: `bits` wide, narrower at the top of the range. */
uint32_t zs_plan_digit_mask(const zs_plan_request *req, unsigned shift, unsigned bits);

/* The exclusive scan of TABLE (bins * chunks(plan->n) entries, bin-major)
 * on the device, reading n from PARAMS; 0, or -1. */
int zs_plan_device_scan(zs_plan *plan, unsigned bins);

/* The buffers of a small_sort launch (plan.h): its input, its sort's
 * buffers and partners, and where the first out_count keys go. */
typedef struct zs_small_buffers {
    zs_buffer keys_in, keys, tmp, values_in, values, values_tmp, out_keys, out_values, params;
} zs_small_buffers;

/* The one small_sort launch of req (n, widths, flags with iota_values,
 * bits, serial) over b; 0, or -1 out of host memory. */
int zs_plan_push_small(zs_plan *plan, const zs_plan_request *req, const zs_small_buffers *b,
                       uint32_t out_count);

#endif
