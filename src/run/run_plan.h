/*
 * run_plan.h — executes a plan on a device backend for keys in host memory.
 */
#ifndef ZESORT_RUN_PLAN_H
#define ZESORT_RUN_PLAN_H

#include "backends/device_backend.h"
#include "common/error.h"
#include "run/buffer_cache.h"

/* Called after step `index` has completed (the device is idle), for tests
 * that inspect intermediate buffers with zs_run_read(). Returns 0 to go on. */
typedef int (*zs_step_hook)(void *user, size_t index, const zs_step *step);

typedef struct zs_run {
    const zs_device_ops *ops;
    zs_device *dev;
    zs_devptr buffers[ZS_BUF_COUNT];
    uint64_t buffer_sizes[ZS_BUF_COUNT]; /* of buffers[]: a kept one may be bigger */
    zs_error *err;   /* the caller's message */
    zs_buffer_cache *cache; /* the context's kept buffers (NULL: none kept) */
} zs_run;

/* The caller's host arrays of a plan run: the plan's input, uploaded to KEYS
 * (and VALUES), and where KEYS (and VALUES) are downloaded. In place, the in
 * and out pointers are the same arrays. */
typedef struct zs_host_arrays {
    const void *keys_in;
    const void *values_in; /* NULL: nothing uploaded to VALUES (argsort: the plan makes them) */
    void *keys_out;        /* NULL: KEYS is not downloaded (argsort without the keys) */
    void *values_out;      /* where VALUES goes when the plan has one */
} zs_host_arrays;

/* 1 when the device reads the caller's host memory in place (ops->borrow):
 * an out-of-place plan then needs no upload of its input. */
int zs_run_borrows(const zs_device_ops *ops, zs_device *dev);

/* Uploads the input (an out-of-place plan's to KEYS_IN, VALUES_IN, borrowed
 * where zs_run_borrows), runs every step, downloads the results. On failure the
 * outputs are unchanged unless the final copy into them itself failed.
 * device_ms may be NULL; it receives device time of all steps plus host
 * scan time. */
zesort_status zs_run_plan(zs_run *run, const zs_plan *plan, const zs_host_arrays *io,
                          double *device_ms, zs_step_hook hook, void *hook_user);

/* Reads `bytes` of plan buffer `b` during a hook. */
zesort_status zs_run_read(zs_run *run, zs_buffer b, void *dst, uint64_t bytes);

/* Monotonic host clock in milliseconds. */
double zs_now_ms(void);

#endif
