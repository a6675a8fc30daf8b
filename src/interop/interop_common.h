/*
 * interop_common.h — what the Level Zero (interop_ze.c) and OpenCL
 * (interop_cl.c) interop APIs share: the plan of a sort recorded on the
 * caller's list or queue, the layout of the caller's temporary memory,
 * building every kernel ahead of time, the checks of the caller's wait list (the overlap of the caller's buffers: ranges.h). Each API
 * keeps only what is its own: handles, locking, commands.
 */
#ifndef ZESORT_INTEROP_COMMON_H
#define ZESORT_INTEROP_COMMON_H

#include "backends/device_backend.h"
#include "common/error.h"
#include "common/ranges.h"
#include "plan/plan.h"
#include "programs/kernel_blobs.h"
#include "zesort.h"

/* What a recorded sort reads and writes: the interop entry points. */
typedef enum zs_sort_kind {
    ZS_SORT_IN_PLACE, /* keys (and values) sorted where they are */
    ZS_SORT_COPY,     /* keys_in (values_in), never written, into keys_out (values_out) */
    ZS_SORT_ARGSORT,  /* keys_in into indices (the plan's VALUES) and keys_out: KEYS, the
                         caller's or, without keys_out, temp memory */
    ZS_SORT_SEGMENTS_DEVICE, /* each segment of keys (and values) in place; the offsets
                               are the caller's device memory, read on the device only
                               (seg_check, seg_sort_ranges): a zs_seg_shape (below) */
    ZS_SORT_TOPK, /* the top k (plan/plan_topk.h): keys_in (values_in), never written,
                     to min(k, n) sorted keys_out (values_out); k in `segments` */
    ZS_SORT_TOPK_INDICES /* the same with the input positions (indices_out) as values */
} zs_sort_kind;

/* A sort's shape: the with_values argument of the temp-size queries,
 * prepare and chain-event counts (ZESORT_KEYS_ONLY, ZESORT_WITH_VALUES,
 * ZESORT_ARGSORT_NO_KEYS_OUT of zesort.h), or an append's arguments. */
typedef struct zs_sort_shape {
    zs_sort_kind kind;
    int pairs;        /* values (argsort: indices) move with the keys */
    int keys_in_temp; /* argsort without keys_out: KEYS is temp memory */
    uint64_t segments; /* ZS_SORT_SEGMENTS_DEVICE: how many (or the most a count says);
                          ZS_SORT_TOPK(_INDICES): k, the keys wanted (ZS_TOPK_ANY_K: the
                          temp of any k) */
    int alt;           /* the caller's alternate buffers (keys_alt, values_alt) are
                          the plan's TMP and VALUES_TMP: temp holds neither; in
                          place, the result stays where the last pass wrote it
                          (the plan's `result`) */
} zs_sort_shape;

/* A top-k shape's k that plans the largest temp any k needs (temp sizes). */
#define ZS_TOPK_ANY_K UINT64_MAX

/* A segmented sort of kind ZS_SORT_SEGMENTS_DEVICE: its shape (base.segments:
 * the segments, or the most a device-side count may say) and the segments'
 * form. A shape of that kind is always the `base` of one of these, which the
 * functions below reach from the shape's address (a pointer to a struct's
 * first member converts to one to the struct, C11 6.7.2.1). */
typedef struct zs_seg_shape {
    zs_sort_shape base;
    uint32_t flags;     /* ZS_SEG_F_* (plan.h): width, begin/end arrays, device count */
    int status_callers; /* 1: SEG_STATUS is the caller's; 0: a word of temp */
} zs_seg_shape;

/* The shape of a segments descriptor (zesort_ze_segments, zesort_cl_segments:
 * given; offset_type ZESORT_OFFSET_U64 or U32; either offsets or begin/end
 * arrays, not both; the count on the device or not; num_segments < 2^32 - 1)
 * in *out, status_callers 0 (the caller's entry point sets it):
 * INVALID_ARGUMENT naming fn otherwise. */
zesort_status zs_interop_seg_shape(zs_error *err, const char *fn, int given, int offset_type,
                                   int offsets_given, int begin_end_given, int count_given,
                                   uint64_t num_segments, int pairs, zs_seg_shape *out);

/* The shape of the S + 1 uint64 offsets form (zesort_*_sort_segments and
 * their indirect and chained forms: the status word in temp), with
 * ZS_SEG_F_N_COUNT when the key count is on the device (key_count_on_device). */
zs_seg_shape zs_interop_seg_offsets_shape(uint64_t num_segments, int pairs,
                                          int key_count_on_device);

/* The form of a segmented shape's segments (ZS_SEG_F_*). */
uint32_t zs_interop_seg_flags(const zs_sort_shape *shape);

/* The first two of `count` named ranges that share a byte, except two that
 * are both read-only (ro[i]): 1 with their names in *a and *b, or 0. */
int zs_interop_ranges_overlap(const zs_named_range *r, const int *ro, int count, const char **a,
                              const char **b);

/* The shape a with_values argument names (0, 1, or 2: an argsort without
 * keys_out); INVALID_ARGUMENT for any other value. */
zesort_status zs_sort_shape_of(int with_values, zs_sort_shape *shape, zs_error *err,
                               const char *fn);

/* The shape of a top-k's arguments (which outputs are given; k), both
 * APIs' append/enqueue: INVALID_ARGUMENT naming fn for values_in without
 * values_out or the reverse, values with indices, or no output while
 * min(k, n) > 0. */
zesort_status zs_interop_topk_shape(zs_error *err, const char *fn, uint64_t n, uint64_t k,
                                    int values_in, int keys_out, int values_out, int indices_out,
                                    zs_sort_shape *out);

/* The bytes of temp memory of a top-k of n keys (with_values: values or
 * indices wanted): its plan's layout for the k that needs the most (the
 * select planned for k = n), the outputs' KEYS in temp (indices without
 * keys_out); 0 for n == 0. Errors as zs_interop_temp_requirements. */
zesort_status zs_interop_topk_temp(const zesort_options *opts, uint64_t n, int with_values,
                                   zs_flavor flavor, uint64_t align, uint64_t *bytes,
                                   zs_error *err);

/* Validates the options for n keys of this shape as zesort_sort does and
 * builds the plan; refuses the host scan (UNSUPPORTED: a recorded sort
 * cannot make a host round trip). *algo (may be NULL): what AUTO chose.
 * A segmented sort is a seg_check and a seg_sort_ranges launch whatever
 * the segments (zs_plan_segments_device: the offsets are only read on the
 * device), for fewer than 2^32 - 1 segments and n < 2^32; its options'
 * algorithm and scan are ignored. fn: the caller, named in the
 * messages of refusals of its own. */
zesort_status zs_interop_plan(const zesort_options *opts, uint64_t n, const zs_sort_shape *shape,
                              zs_flavor flavor, zs_plan *plan, zesort_algo *algo, zs_error *err,
                              const char *fn);

/* What the checks, the temp layout and the recording read of one plan
 * buffer of a recorded sort, worked out once per append (the buffer table). */
typedef struct zs_buffer_entry {
    const char *name; /* as the caller knows it, in messages: "keys", "values" (in place),
                         "keys_in", "values_in", "keys_out", "values_out" (out of place),
                         "indices", "indices_out", "offsets", "begin_offsets",
                         "end_offsets", "the segment count", "status", "keys_alt",
                         "values_alt", "indices_alt"; "temp" for temp's own */
    uint64_t bytes;   /* the plan's (0: unused) */
    uint64_t elem;    /* its element size: the alignment the caller's buffer needs */
    uint64_t offset;  /* in temp; UINT64_MAX: the caller's memory, or unused */
    int callers;      /* the caller's memory (KEYS, VALUES, the inputs, the segment
                         arrays, the status when the caller gives it, TMP and
                         VALUES_TMP with alternate buffers), else temp */
    int read_only;    /* only read, and may share bytes with another read-only buffer
                         (a segmented sort's offsets, begins, ends and count: a caller
                         may pass ends = begins + 1, as CUB allows) */
} zs_buffer_entry;

typedef struct zs_buffer_table {
    zs_buffer_entry buf[ZS_BUF_COUNT];
    uint64_t temp_bytes; /* the bytes temp must have: every temp buffer at `align` */
} zs_buffer_table;

/* The buffer table of a plan of this shape for n keys; temp buffers laid
 * out in zs_buffer order, each at a multiple of align. */
void zs_interop_buffer_table(const zs_sort_shape *shape, const zs_plan *plan, uint64_t n,
                             uint64_t align, zs_buffer_table *t);

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

/* Builds, through build(user, kernel), every kernel a sort with these
 * options (NULL: defaults; AUTO: every algorithm AUTO may pick) and
 * with_values (zs_sort_shape_of) needs, in place, out of place, argsort or
 * (with_values 0 or 1) segmented or top-k (what zesort_*_prepare promise;
 * a top-k's candidates' sort under AUTO: the algorithm AUTO picks for 2^20
 * keys' room). */
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
