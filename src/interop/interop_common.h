/*
 * interop_common.h — what the Level Zero (interop_ze.c) and OpenCL
 * (interop_cl.c) interop APIs share: the plan of a sort recorded on the
 * caller's list or queue, the layout of the caller's temporary memory,
 * building every kernel ahead of time, the checks of the caller's offsets
 * and wait list (the overlap of the caller's buffers: ranges.h). Each API
 * keeps only what is its own: handles, locking, commands.
 */
#ifndef ZESORT_INTEROP_COMMON_H
#define ZESORT_INTEROP_COMMON_H

#include "backends/device_backend.h"
#include "common/error.h"
#include "common/ranges.h"
#include "kernels/kernel_blobs.h"
#include "plan/plan.h"
#include "zesort.h"

/* What a recorded sort reads and writes: the interop entry points. */
typedef enum zs_sort_kind {
    ZS_SORT_IN_PLACE, /* keys (and values) sorted where they are */
    ZS_SORT_COPY,     /* keys_in (values_in), never written, into keys_out (values_out) */
    ZS_SORT_ARGSORT,  /* keys_in into indices (the plan's VALUES) and keys_out: KEYS, the
                         caller's or, without keys_out, temp memory */
    ZS_SORT_SEGMENTS  /* each segment of keys (and values) in place; the offsets are the
                         caller's device memory (the plan's SEG_OFFSETS) */
} zs_sort_kind;

/* A sort's shape: the with_values argument of the temp-size queries,
 * prepare and chain-event counts (ZESORT_KEYS_ONLY, ZESORT_WITH_VALUES,
 * ZESORT_ARGSORT_NO_KEYS_OUT of zesort.h), or an append's arguments. */
typedef struct zs_sort_shape {
    zs_sort_kind kind;
    int pairs;        /* values (argsort: indices) move with the keys */
    int keys_in_temp; /* argsort without keys_out: KEYS is temp memory */
    uint64_t segments; /* ZS_SORT_SEGMENTS: how many (segments + 1 offsets) */
    int alt;           /* the caller's alternate buffers (keys_alt, values_alt) are
                          the plan's TMP and VALUES_TMP: temp holds neither; in
                          place, the result stays where the last pass wrote it
                          (the plan's `result`) */
} zs_sort_shape;

/* The shape a with_values argument names (0, 1, or 2: an argsort without
 * keys_out); INVALID_ARGUMENT for any other value. */
zesort_status zs_sort_shape_of(int with_values, zs_sort_shape *shape, zs_error *err,
                               const char *fn);

/* Validates the options for n keys of this shape as zesort_sort does and
 * builds the plan; refuses the host scan (UNSUPPORTED: a recorded sort
 * cannot make a host round trip). *algo (may be NULL): what AUTO chose.
 * A segmented sort is one seg_sort launch whatever the segments' lengths
 * (zs_plan_segments, max_len ~0: the offsets stay on the device, so no
 * segment gets a plan of its own), for fewer than 2^32 - 1 segments; its
 * options' algorithm and scan are ignored. fn: the caller, named in the
 * messages of refusals of its own. */
zesort_status zs_interop_plan(const zesort_options *opts, uint64_t n, const zs_sort_shape *shape,
                              zs_flavor flavor, zs_plan *plan, zesort_algo *algo, zs_error *err,
                              const char *fn);

/* 1 when plan buffer b is the caller's memory (KEYS, VALUES, KEYS_IN,
 * VALUES_IN, SEG_OFFSETS; not KEYS when shape->keys_in_temp; TMP and
 * VALUES_TMP when shape->alt), not temp memory. */
int zs_interop_is_callers(const zs_sort_shape *shape, int b);

/* Offsets in the caller's temp memory of the plan's buffers (not the
 * caller's own, zs_interop_is_callers; UINT64_MAX for those and unused
 * ones), each a multiple of `align`; returns the bytes temp must have. */
uint64_t zs_interop_temp_layout(const zs_plan *plan, const zs_sort_shape *shape, uint64_t align,
                                uint64_t offsets[ZS_BUF_COUNT]);

/* The body of both APIs' temp_requirements (the caller holds the sorter's
 * lock): INVALID_ARGUMENT naming `fn` when bytes is NULL; else in *bytes the
 * bytes of temp memory a sort of n keys with these options and this
 * with_values (zs_sort_shape_of) needs, its plan's layout with `align` (0 on
 * error), in *alignment (when not NULL) min_align, and err cleared on
 * success. */
zesort_status zs_interop_temp_requirements(const char *fn, const zesort_options *opts, uint64_t n,
                                           int with_values, zs_flavor flavor, uint64_t align,
                                           uint64_t min_align, uint64_t *bytes,
                                           uint64_t *alignment, zs_error *err);

/* zs_interop_temp_requirements for a sort given the caller's alternate
 * buffers (shape->alt): temp without the ping-pong partners; and, in
 * *result_in_alt (when not NULL), 1 when an in-place sort of this shape
 * leaves its result in the alternate buffers (an odd number of passes),
 * else 0 (the copy forms always end in their outputs). */
zesort_status zs_interop_alt_requirements(const char *fn, const zesort_options *opts, uint64_t n,
                                          int with_values, zs_flavor flavor, uint64_t align,
                                          uint64_t min_align, uint64_t *bytes,
                                          uint64_t *alignment, int *result_in_alt,
                                          zs_error *err);

/* The name of a caller buffer in messages: "keys", "values" (in place, and
 * a segmented sort's), "keys_in", "values_in", "indices" (an argsort's
 * VALUES), "keys_out", "values_out" (out of place), "offsets" (a segmented
 * sort's), "keys_alt", "values_alt", "indices_alt" (shape->alt: TMP and
 * VALUES_TMP). */
const char *zs_interop_buffer_name(const zs_sort_shape *shape, int b);

/* A segmented sort's offsets, read back by the API from the caller's device
 * memory (shape->segments + 1 of them, for n > 0 keys): INVALID_ARGUMENT
 * (message naming fn) unless non-decreasing and at most n. */
zesort_status zs_interop_check_offsets(const uint64_t *host_copy, const zs_sort_shape *shape,
                                       uint64_t n, zs_error *err, const char *fn);

/* Builds, through build(user, kernel), every kernel a sort with these
 * options (NULL: defaults; AUTO: every algorithm AUTO may pick) and
 * with_values (zs_sort_shape_of) needs, in place, out of place, argsort or
 * (with_values 0 or 1) segmented (what zesort_*_prepare promise). */
zesort_status zs_interop_prepare(const zesort_options *opts, int with_values, zs_flavor flavor,
                                 zesort_status (*build)(void *user, zs_kernel kernel), void *user,
                                 zs_error *err);

/* The wait list of an append or an enqueue (nwait events at wait, wait_given
 * 0 when wait is NULL; first_null: the index of the first NULL event, nwait
 * when none is): INVALID_ARGUMENT naming fn unless every event is given. */
zesort_status zs_interop_check_waits(zs_error *err, const char *fn, uint32_t nwait, int wait_given,
                                     uint32_t first_null);

/* The device of ctx when ctx sorts on `backend` (its first device: the one
 * zesort_context_device names), for zesort_ze/cl_context_handles; NULL with
 * INVALID_ARGUMENT (ctx NULL) or UNSUPPORTED (another backend). */
zesort_status zs_interop_context_device(const zesort_context *ctx, zesort_backend backend,
                                        zs_device **dev);

#endif
