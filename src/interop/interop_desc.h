/*
 * interop_desc.h — a zesort_desc resolved once for a sort recorded on a
 * caller's list or queue (zesort_ze_append, zesort_cl_enqueue): its shape,
 * the caller's buffers by plan buffer, the count and the options. Both
 * interop APIs resolve here and only here; what follows (checks, plan,
 * recording) reads the result.
 */
#ifndef ZESORT_INTEROP_DESC_H
#define ZESORT_INTEROP_DESC_H

#include <pthread.h>

#include "interop/interop_common.h"

typedef struct zs_interop_call {
    zs_seg_shape shape;          /* shape.base: the shape (segmented sorts: all of it) */
    void *caller[ZS_BUF_COUNT];  /* the caller's buffers by plan buffer (pointers or cl_mem) */
    uint64_t n;                  /* the keys, or with n_device the most (max_n) */
    const void *n_device;        /* NULL, or the device-side count (uint32) */
    zesort_options opts;
    void *temp;
    uint64_t temp_bytes;
    int *result_in_alt;          /* the descriptor's: set after a sort with keys_alt */
} zs_interop_call;

/* Resolves *d for a recorded sort into *out. INVALID_ARGUMENT or
 * UNSUPPORTED naming fn and the field otherwise (zs_desc_read's checks,
 * then what a recorded sort cannot do: the host scan is the planner's
 * refusal, top-k per segment and a 64-bit device-side count are refused
 * here). */
zesort_status zs_interop_resolve(const zesort_desc *d, zs_interop_call *out, zs_error *err,
                                 const char *fn);

/* The reserved words of an API's sync struct (NULL sync: none): all zero,
 * else INVALID_ARGUMENT naming fn. */
zesort_status zs_interop_check_reserved(const uint64_t *reserved, size_t count, zs_error *err,
                                        const char *fn);

/* A refusal found before the sorter's lock was taken: its message becomes
 * the sorter's last error (sorter_err, set under lock: other threads may be
 * recording), or, with no sorter (lock NULL), the thread's (thread_err). */
zesort_status zs_interop_refuse(pthread_mutex_t *lock, zs_error *sorter_err, zs_error *thread_err,
                                const zs_error *refusal, zesort_status st);

/* What the recorded sort needs (zesort_*_requirements), from its plan: temp
 * bytes (the layout at `align`), the alignment the caller's temp must have
 * (min_align), whether the result lands in keys_alt, the algorithm. The
 * plan is left in *plan for the API's own counts (zs_plan_free it). */
zesort_status zs_interop_requirements(const zs_interop_call *c, zs_flavor flavor, uint64_t align,
                                      uint64_t min_align, zesort_requirements *req,
                                      zs_plan *plan, zs_error *err, const char *fn);

#endif /* ZESORT_INTEROP_DESC_H */
