/*
 * api_sort.c — argument validation and dispatch of a sort to the planner and
 * a device backend, or to the C fallback.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api_sort.h"
#include "backend_cpu.h"
#include "context.h"
#include "interop_common.h"
#include "multi/device_group.h"
#include "multi/split_sort.h"
#include "run_plan.h"
#include "segments.h"
#include "sort_request.h"
#include "test_hooks.h"

/* The flavor plans are made for: the cpu backend runs no kernels, any
 * flavor serves its request. */
static zs_flavor ctx_flavor(zesort_context *ctx)
{
    return ctx->ops ? ctx->ops->flavor(ctx->dev) : ZS_FLAVOR_PORTABLE;
}


/* The caller's arrays as every backend needs them, the rules of the interop
 * APIs: keys aligned to the key size and values to theirs (the C fallback
 * loads them as typed words; one rule for every backend, so that a program
 * that works on one works on all), and no byte shared by two arrays (the
 * sort scatters one while reading another: overlap corrupts the caller's
 * data and, on the C fallback, overflows its temporary buffer). An in-place
 * sort's input and output are the same array; an out-of-place sort's or an
 * argsort's output is never its input, not even the very same array (the
 * input is only read: zesort.h), which in place is zesort_sort's. */
static zesort_status check_arrays(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                                  unsigned key_bytes, unsigned value_bytes)
{
    const struct {
        const char *name;
        const void *p;
        uint64_t bytes;
        unsigned align;
    } a[4] = {
        {"keys", c->io.keys_in, n * key_bytes, key_bytes},
        {c->argsort ? "indices" : "values", c->argsort ? c->io.values_out : c->io.values_in,
         n * value_bytes, value_bytes},
        {"keys_out", c->copy || c->argsort ? c->io.keys_out : NULL, n * key_bytes, key_bytes},
        {"values_out", c->copy ? c->io.values_out : NULL, n * value_bytes, value_bytes},
    };
    for (int i = 0; i < 4; i++)
        if (a[i].p && (uintptr_t)a[i].p % a[i].align)
            return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: %s at %p must be aligned to %u bytes (keys to the key size, "
                                "values and indices to theirs)", c->fn, a[i].name, a[i].p,
                                a[i].align);
    zs_named_range r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (zs_named_range){a[i].name, zs_address_range(a[i].p, a[i].bytes)};
    const char *x, *y;
    if (zs_ranges_overlap(r, 4, &x, &y))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s and %s overlap: they must be separate arrays", c->fn, x, y);
    return ZESORT_OK;
}

/* zs_make_request for a host sort: any n (a sort beyond ZESORT_MAX_KEYS is
 * split into parts, multi/split_sort.h), options checked as for one of
 * ZESORT_MAX_KEYS keys. */
static zesort_status host_request(zesort_context *ctx, const zesort_options *opts, uint64_t n,
                                  int pairs, zs_plan_request *req, zesort_algo *algo)
{
    const uint64_t checked = n > ZESORT_MAX_KEYS ? ZESORT_MAX_KEYS : n;
    zesort_status st = zs_make_request(opts, checked, pairs, ctx_flavor(ctx), req, algo, &ctx->err);
    req->n = n;
    /* 2^57 bytes: more than any x86-64 or AArch64 address space (5-level
     * paging: 2^57), so such arrays cannot exist: refused before any access */
    if (st == ZESORT_OK && n > (UINT64_C(1) << 57) / (req->key_bytes + req->value_bytes))
        return zs_error_set(&ctx->err, ZESORT_ERROR_TOO_LARGE,
                            "n = %llu: arrays of that many keys do not fit an address space",
                            (unsigned long long)n);
    return st;
}

/* Checks what every sort needs and builds the plan request. */
static zesort_status validate(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                              const zesort_options *opts, zs_plan_request *req,
                              zesort_algo *algo)
{
    const int pairs = c->io.values_out != NULL;
    zesort_status st = host_request(ctx, opts, n, pairs, req, algo);
    if (st != ZESORT_OK)
        return st;
    /* indices up to n - 1: in u32 they would wrap (the split writes them
     * as its parts' offsets plus positions) */
    if (c->argsort && req->value_bytes == 4 && n > (UINT64_C(1) << 32))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %llu keys: their indices do not fit u32 indices; use the u64 "
                            "index type (ZESORT_VALUE_U64, zesort argsort --index-type u64)",
                            c->fn, (unsigned long long)n);
    if (n > 0 && (!c->io.keys_in || (c->argsort && !c->io.values_out)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %llu",
                            c->fn, c->io.keys_in ? "indices" : "keys", (unsigned long long)n);
    if (n > 0 && !c->argsort && (!c->io.keys_out || (!c->io.values_in) != (!c->io.values_out)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: keys_out is NULL, or only one of values_in and values_out is "
                            "given", c->fn);
    req->iota_values = c->argsort;
    if (c->segmented &&
        (st = zs_segments_check(c->offsets, c->segments, n, c->fn, &ctx->err)) != ZESORT_OK)
        return st;
    return n > 0 ? check_arrays(ctx, c, n, req->key_bytes, req->value_bytes) : ZESORT_OK;
}

/* The C fallback sorts in place: an out-of-place sort first copies its input
 * into the outputs (the indices of an argsort are counted out), an argsort
 * without keys_out sorts a copy of the keys of its own. */
static zesort_status cpu_sort(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                              const zs_plan_request *req)
{
    const uint64_t n = req->n;
    void *keys = io->keys_out, *own = NULL;
    if (!keys && !(keys = own = malloc((size_t)n * req->key_bytes)))
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory for a copy of %llu keys", (unsigned long long)n);
    if (keys != io->keys_in)
        memcpy(keys, io->keys_in, (size_t)n * req->key_bytes);
    if (argsort) {
        for (uint64_t i = 0; i < n; i++) {
            if (req->value_bytes == 8)
                ((uint64_t *)io->values_out)[i] = i;
            else
                ((uint32_t *)io->values_out)[i] = (uint32_t)i;
        }
    } else if (io->values_out && io->values_out != io->values_in) {
        memcpy(io->values_out, io->values_in, (size_t)n * req->value_bytes);
    }
    zesort_status st = zs_cpu_sort(keys, io->values_out, n, req->key_bytes, req->value_bytes,
                                   req->key_flags, req->bit_lo, req->bit_hi);
    free(own);
    return st == ZESORT_OK ? st : zs_error_set(&ctx->err, st, "out of host memory sorting %llu keys",
                                               (unsigned long long)n);
}

/* The device memory a plan of n keys of req allocates: its buffers' sum
 * and its biggest. 0 when out of host memory. */
static int plan_bytes(const zs_plan_request *req, uint64_t n, uint64_t *total, uint64_t *biggest)
{
    zs_plan_request r = *req;
    r.n = n;
    zs_plan plan;
    if (zs_plan_build(&r, &plan) != 0)
        return 0;
    *total = *biggest = 0;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        *total += plan.buffer_bytes[b];
        if (plan.buffer_bytes[b] > *biggest)
            *biggest = plan.buffer_bytes[b];
    }
    zs_plan_free(&plan);
    return 1;
}

/* Whether a sort of n keys fits the device: memory (0: unknown) and largest. */
static int fits_device(const zs_plan_request *req, uint64_t n, uint64_t memory, uint64_t largest)
{
    uint64_t total, biggest;
    return plan_bytes(req, n, &total, &biggest) && biggest <= largest && (!memory || total <= memory);
}

/* The most keys ctx sorts in one go for req (at least 1; req->n or more when
 * the whole sort fits): a device's memory and largest allocation (or the
 * test hook's budget, when smaller) and ZESORT_MAX_KEYS; the C fallback's
 * zs_cpu_max_keys (and the budget at 2 * (key + value bytes) a key). */
uint64_t zs_part_max_keys(zesort_context *ctx, const zs_plan_request *req)
{
    const uint64_t budget = zs_test_budget();
    if (!ctx->ops) {
        uint64_t max = zs_cpu_max_keys(req->value_bytes != 0, req->key_bytes, req->bit_lo,
                                       req->bit_hi);
        const uint64_t per_key = 2u * (req->key_bytes + req->value_bytes);
        if (budget && budget / per_key < max)
            max = budget / per_key ? budget / per_key : 1;
        return max;
    }
    uint64_t memory = 0, largest = UINT64_MAX;
    ctx->ops->memory(ctx->dev, &memory, &largest);
    if (budget && (!memory || budget < memory))
        memory = budget;
    if (req->n <= ZESORT_MAX_KEYS && fits_device(req, req->n, memory, largest))
        return req->n;
    uint64_t lo = 1, hi = req->n < ZESORT_MAX_KEYS ? req->n : ZESORT_MAX_KEYS; /* fits(lo) */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (fits_device(req, mid, memory, largest))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* One sort that fits ctx's device (or the C fallback) in one go. */
static zesort_status sort_one(zesort_context *ctx, const zs_host_arrays *io, int argsort,
                              const zs_plan_request *req, double *device_ms)
{
    if (!ctx->ops) {
        /* the host is the device here: its wall time is the sort's time */
        double t0 = zs_now_ms();
        zesort_status st = cpu_sort(ctx, io, argsort, req);
        if (device_ms)
            *device_ms += zs_now_ms() - t0;
        return st;
    }
    /* Where the device reads the caller's memory where it is (zs_run_borrows)
     * the plan reads the input as KEYS_IN (VALUES_IN), borrowed: no upload.
     * Elsewhere the device sorts in its own buffers: out of place on the
     * host is an in-place plan whose upload and download use different
     * arrays. */
    zs_plan_request r = *req;
    r.out_of_place = zs_run_borrows(ctx->ops, ctx->dev);
    zs_plan plan;
    if (zs_plan_build(&r, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory planning the sort");
    zs_run run = {.ops = ctx->ops, .dev = ctx->dev, .err = &ctx->err, .cache = &ctx->cache};
    zs_error_clear(&ctx->err);
    double ms = 0;
    zesort_status st = zs_run_plan(&run, &plan, io, &ms, NULL, NULL);
    zs_plan_free(&plan);
    if (device_ms)
        *device_ms += ms;
    /* run_plan words its own failures (host memory) on ctx; any other
     * failure was the backend's, whatever its status. */
    if (st != ZESORT_OK && !ctx->err.text[0])
        zs_error_set(&ctx->err, st, "%s: %s", ctx->ops->name, ctx->ops->message(ctx->dev));
    return st;
}

/* The host memory of this machine (0: unknown). */
static uint64_t host_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* The host memory a sort of req in `parts` parts of at most part_keys keys
 * needs, checked against the host's before anything is read (zesort_check
 * says the same): the caller's arrays, the split's copy of them (parts >
 * 1), and the C fallback's scratch for a part's radix passes (a balanced
 * part's keys and values; none beyond 2^32 - 1 keys: vqsort, in place). */
static zesort_status check_host(zesort_context *ctx, const zs_plan_request *req, uint64_t parts,
                                uint64_t part_keys)
{
    const uint64_t per_key = req->key_bytes + req->value_bytes, host = host_memory();
    const uint64_t arrays = req->n * per_key, copy = parts > 1 ? arrays : 0;
    const uint64_t share = (req->n + parts - 1) / parts;
    const uint64_t part = share < part_keys ? share : part_keys;
    const uint64_t scratch = !ctx->ops && part <= UINT32_MAX ? part * per_key : 0;
    if (!host || arrays + copy + scratch <= host)
        return ZESORT_OK;
    const double gib = 1u << 30;
    char what[200];
    int len = snprintf(what, sizeof what, "its arrays %.2f GiB", (double)arrays / gib);
    if (copy)
        len += snprintf(what + len, sizeof what - (size_t)len,
                        ", the split's copy %.2f GiB (%llu parts of about %llu keys)",
                        (double)copy / gib, (unsigned long long)parts, (unsigned long long)part);
    if (scratch)
        snprintf(what + len, sizeof what - (size_t)len, ", the C fallback's scratch %.2f GiB",
                 (double)scratch / gib);
    return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                        "a sort of %llu keys needs %.2f GiB of host memory, more than the host "
                        "has (%.2f GiB): %s", (unsigned long long)req->n,
                        (double)(arrays + copy + scratch) / gib, (double)host / gib, what);
}

/* A part of a split sort (multi/split_sort.h): sort_one on the part, on
 * device `device` of ctx's group (its own thread: its own device time). */
typedef struct split_user {
    zesort_context *ctx;
    double device_ms[ZS_SPLIT_MAX_DEVICES];
} split_user;

static zesort_status sort_split_part(void *user, unsigned device, const zs_host_arrays *io,
                                     const zs_plan_request *req)
{
    split_user *u = user;
    return sort_one(zs_group_device(u->ctx, device), io, req->iota_values, req,
                    &u->device_ms[device]);
}

/* The most keys one part may have on the first `devices` devices of ctx's
 * group: the smallest device's. */
static uint64_t group_max_keys(zesort_context *ctx, const zs_plan_request *req, unsigned devices)
{
    uint64_t max = UINT64_MAX;
    for (unsigned d = 0; d < devices; d++) {
        const uint64_t m = zs_part_max_keys(zs_group_device(ctx, d), req);
        max = m < max ? m : max;
    }
    return max;
}

/* A sort that does not fit one device in one go, or runs on several: split
 * on the host (multi/split_sort.h), the parts on the group's devices. */
static zesort_status split_sort(zesort_context *ctx, const zs_sort_call *c, const zs_plan_request *req,
                                unsigned devices, uint64_t max_keys, double *device_ms,
                                zesort_sort_report *report)
{
    const double t0 = zs_now_ms();
    const uint64_t parts = zs_split_parts_estimate(req->n, max_keys, devices);
    zesort_status st = check_host(ctx, req, parts, max_keys);
    if (st != ZESORT_OK)
        return st;
    split_user u = {ctx, {0}};
    const zs_split_target t = {sort_split_part, &u, max_keys, devices};
    zs_split_report r;
    st = zs_split_sort(&t, &c->io, req, &ctx->err, &r);
    if (st != ZESORT_OK)
        zs_group_name_failure(ctx, st, r.failed_device, devices);
    for (unsigned d = 0; device_ms && d < devices; d++)
        *device_ms += u.device_ms[d];
    if (report)
        zs_group_report(report, &r, devices, zs_now_ms() - t0);
    return st;
}

/* The report of one sort (zesort_sort_report) of n keys on one device,
 * in one go, that took ms. */
void zs_report_one(zesort_sort_report *report, uint64_t n, double ms)
{
    *report = (zesort_sort_report){.devices = 1, .parts = 1, .sort_ms = ms, .total_ms = ms};
    report->device_parts[0] = 1, report->device_keys[0] = n, report->device_ms[0] = ms;
}

/* report (may be NULL): how the sort ran, filled on success. */
zesort_status zs_sort_timed(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                                const zesort_options *opts, double *device_ms, zesort_algo *ran,
                                zesort_sort_report *report)
{
    zs_plan_request req;
    zesort_status st = validate(ctx, c, n, opts, &req, ran);
    if (st != ZESORT_OK)
        return st;
    if (device_ms)
        *device_ms = 0;
    if (n == 0)
        return ZESORT_OK;
    if (c->segmented)
        return zs_sort_segments(ctx, c, &req, opts, device_ms, ran, report);
    const unsigned devices = c->solo ? 1 : zs_group_devices_for(ctx, n);
    const uint64_t max_keys = group_max_keys(ctx, &req, devices);
    if (devices > 1 || n > max_keys)
        return split_sort(ctx, c, &req, devices, max_keys, device_ms, report);
    if ((st = check_host(ctx, &req, 1, n)) != ZESORT_OK)
        return st;
    const double t0 = zs_now_ms();
    st = sort_one(ctx, &c->io, c->argsort, &req, device_ms);
    if (report)
        zs_report_one(report, n, zs_now_ms() - t0);
    return st;
}

/* Every host sort: under ctx's lock, the last algorithm noted on success. */
static zesort_status sort_call_run(zesort_context *ctx, const zs_sort_call *c, uint64_t n,
                                   const zesort_options *opts, double *device_ms)
{
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL",
                            c->fn);
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zesort_sort_report report = {0};
    zs_ctx_enter(ctx); /* one sort at a time per context: backends keep per-sort state */
    zesort_status st = zs_sort_timed(ctx, c, n, opts, device_ms, &algo, &report);
    if (st == ZESORT_OK) {
        zs_error_clear(&ctx->err); /* no stale message after a successful call */
        ctx->last_algo = algo;
        ctx->report = report;
    }
    return zs_ctx_leave(ctx, st);
}

zesort_status zesort_sort_timed(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                const zesort_options *opts, double *device_ms)
{
    const zs_sort_call c = {{keys, values, keys, values}, 0, "zesort_sort", 0, NULL, 0, 0, 0};
    return sort_call_run(ctx, &c, n, opts, device_ms);
}

zesort_status zesort_sort(zesort_context *ctx, void *keys, void *values, uint64_t n,
                          const zesort_options *opts)
{
    return zesort_sort_timed(ctx, keys, values, n, opts, NULL);
}

zesort_status zesort_sort_copy(zesort_context *ctx, const void *keys_in, const void *values_in,
                               void *keys_out, void *values_out, uint64_t n,
                               const zesort_options *opts)
{
    const zs_sort_call c = {{keys_in, values_in, keys_out, values_out}, 0, "zesort_sort_copy", 0,
                            NULL, 0, 0, 1};
    return sort_call_run(ctx, &c, n, opts, NULL);
}

zesort_status zesort_argsort(zesort_context *ctx, const void *keys, void *indices, void *keys_out,
                             uint64_t n, const zesort_options *opts)
{
    const zs_sort_call c = {{keys, NULL, keys_out, indices}, 1, "zesort_argsort", 0, NULL, 0, 0,
                            0};
    return sort_call_run(ctx, &c, n, opts, NULL);
}

zesort_status zesort_sort_segments(zesort_context *ctx, void *keys, void *values, uint64_t n,
                                   const uint64_t *offsets, uint64_t num_segments,
                                   const zesort_options *opts)
{
    const zs_sort_call c = {{keys, values, keys, values}, 0, "zesort_sort_segments", 1, offsets,
                            num_segments, 0, 0};
    return sort_call_run(ctx, &c, n, opts, NULL);
}

zesort_status zesort_last_sort_report(const zesort_context *ctx, zesort_sort_report *report)
{
    if (!ctx || !report)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_last_sort_report: ctx or report is NULL");
    zesort_context *c = (zesort_context *)ctx; /* the lock is state, not value */
    pthread_mutex_lock(&c->lock);
    *report = c->report;
    pthread_mutex_unlock(&c->lock);
    return ZESORT_OK;
}

zesort_algo zesort_last_algo(const zesort_context *ctx)
{
    if (!ctx)
        return ZESORT_ALGO_AUTO;
    zesort_context *c = (zesort_context *)ctx; /* the lock is state, not value */
    pthread_mutex_lock(&c->lock);
    zesort_algo a = c->last_algo;
    pthread_mutex_unlock(&c->lock);
    return a;
}

static zesort_status check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, zesort_split_info *info)
{
    zs_plan_request req;
    zesort_status st = host_request(ctx, opts, n, with_values != 0, &req, NULL);
    if (st != ZESORT_OK || n == 0) {
        if (st == ZESORT_OK)
            zs_error_clear(&ctx->err);
        return st;
    }
    info->devices = zs_group_devices_for(ctx, n);
    const uint64_t part = group_max_keys(ctx, &req, info->devices);
    info->parts = part >= n && info->devices == 1 ? 1
                                                  : zs_split_parts_estimate(n, part, info->devices);
    /* one device: the most it takes; several: their balanced share */
    const uint64_t share = (n + info->parts - 1) / info->parts;
    info->part_keys = part < n ? part : n;
    if (info->devices > 1 && share < info->part_keys)
        info->part_keys = share;
    /* the split's host copy of the keys and values, at every level of it */
    info->host_bytes = info->parts > 1 ? n * (req.key_bytes + req.value_bytes) : 0;
    uint64_t biggest = 0;
    if (ctx->ops && !plan_bytes(&req, info->part_keys, &info->device_bytes, &biggest))
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory planning the sort");
    uint64_t memory = 0, largest = UINT64_MAX;
    if (ctx->ops)
        ctx->ops->memory(ctx->dev, &memory, &largest);
    if (ctx->ops && info->part_keys == 1 && !fits_device(&req, 1, memory, largest))
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_DEVICE_MEMORY,
                            "the device cannot hold even one key's sort (%.2f GiB of memory, "
                            "largest allocation %.2f GiB)", (double)memory / (1u << 30),
                            (double)largest / (1u << 30));
    if ((st = check_host(ctx, &req, info->parts, info->part_keys)) != ZESORT_OK)
        return st;
    zs_error_clear(&ctx->err);
    return ZESORT_OK;
}

zesort_status zesort_check_split(zesort_context *ctx, uint64_t n, int with_values,
                                 const zesort_options *opts, zesort_split_info *info)
{
    zesort_split_info unused;
    if (!info)
        info = &unused;
    memset(info, 0, sizeof *info);
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_check_split: ctx is NULL");
    zs_ctx_enter(ctx);
    zesort_status st = check(ctx, n, with_values, opts, info);
    if (st != ZESORT_OK)
        memset(info, 0, sizeof *info);
    return zs_ctx_leave(ctx, st);
}

zesort_status zesort_check(zesort_context *ctx, uint64_t n, int with_values,
                           const zesort_options *opts, uint64_t *device_bytes)
{
    if (device_bytes)
        *device_bytes = 0;
    if (!ctx)
        return zs_error_set(zs_ctx_error(NULL), ZESORT_ERROR_INVALID_ARGUMENT,
                            "zesort_check: ctx is NULL");
    zesort_split_info info = {0};
    zs_ctx_enter(ctx);
    zesort_status st = check(ctx, n, with_values, opts, &info);
    if (device_bytes)
        *device_bytes = info.device_bytes;
    return zs_ctx_leave(ctx, st);
}
