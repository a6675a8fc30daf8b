/*
 * segmented.c — the paths of zesort_sort_segments (segmented.h): every
 * segment by the device-side segmented plan on a device (the interop's:
 * segments classified by length on the device; runs of them when their keys
 * do not fit it at once), one too long for the device as a sort of its own
 * (by the sorter the dispatcher hands down), the C
 * fallback's in parallel on its threads, and on several devices runs of
 * whole segments dealt to them (segment_runs.h).
 */
#include "dispatch/segmented.h"

#include <stdint.h>
#include <stdlib.h>

#include "backends/cpu/backend_cpu.h"
#include "dispatch/fits.h"
#include "dispatch/group.h"
#include "dispatch/one_device.h"
#include "dispatch/part_runner.h"
#include "dispatch/segment_runs.h"
#include "dispatch/sort_report.h"

/* Few long segments (on a device, or beyond what the C fallback's sort takes
 * at once): each longer than `done` keys sorted as one zesort_sort of its
 * own, split if need be (shorter ones are sorted already, or trivially).
 * A failure leaves the segments before it sorted (zesort.h says so). */
static zesort_status long_segment_loop(zesort_context *ctx, const zs_sort_call *c,
                                       const zs_segmented *s, uint64_t done, double *device_ms,
                                       zesort_algo *ran, zesort_sort_report *report)
{
    const zs_plan_request *req = s->req;
    double total = device_ms ? *device_ms : 0;
    for (uint64_t i = 0; i < c->segments; i++) {
        const uint64_t b = c->offsets[i], len = c->offsets[i + 1] - b;
        if (len < 2 || len <= done)
            continue;
        char *k = (char *)c->io.keys_out + b * req->key_bytes;
        char *v = c->io.values_out ? (char *)c->io.values_out + b * req->value_bytes : NULL;
        const zs_host_arrays one = {k, v, k, v};
        double ms = 0;
        zesort_sort_report r;
        zesort_status st = s->sort_range(ctx, s->opts, &one, len, c->solo, &ms, ran,
                                         report ? &r : NULL);
        if (st != ZESORT_OK)
            return st;
        if (report)
            zs_report_add(report, &r);
        total += ms;
    }
    if (device_ms)
        *device_ms = total;
    return ZESORT_OK;
}

/* Every segment over [offsets[0], offsets[segments]) sorted on the device
 * by one device-side segmented plan (zs_plan_segments_device, the interop's
 * too): seg_check, seg_sort_ranges for the segments of up to
 * ZS_SEG_LARGE_MIN keys, the onesweep passes per segment for longer ones,
 * classified on the device, in place. The offsets go up rebased to
 * offsets[0], empty segments left out (at most min(S, m) < 2^32). *large:
 * whether a segment took the global passes. */
static zesort_status device_segment_kernel(zesort_context *ctx, const zs_sort_call *c,
                                           const zs_plan_request *req, double *device_ms,
                                           int *large)
{
    const uint64_t first = c->offsets[0], m = c->offsets[c->segments] - first;
    const uint64_t most = c->segments < m ? c->segments : m;
    uint64_t *rebased = malloc((size_t)(most + 1) * sizeof *rebased), count = 0;
    if (!rebased)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory for the offsets", c->fn);
    rebased[0] = 0;
    *large = 0;
    for (uint64_t i = 0; i < c->segments; i++)
        if (c->offsets[i + 1] > c->offsets[i]) {
            rebased[++count] = c->offsets[i + 1] - first;
            *large |= rebased[count] - rebased[count - 1] > ZS_SEG_LARGE_MIN(req->serial != 0);
        }
    zs_plan_request r = *req;
    r.n = m;
    r.out_of_place = 0;
    zs_plan plan;
    zesort_status st = ZESORT_OK;
    if (zs_plan_segments_device(&r, ZS_SEG_F_U64, (uint32_t)count, 0, &plan) != 0)
        st = zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "out of host memory planning the sort");
    char *k = (char *)c->io.keys_out + first * req->key_bytes;
    char *v = c->io.values_out ? (char *)c->io.values_out + first * req->value_bytes : NULL;
    const zs_host_arrays io = {k, v, k, v};
    double ms = 0;
    if (st == ZESORT_OK) {
        plan.host_init[ZS_BUF_SEG_OFFSETS] = rebased;
        st = zs_run_on_device(ctx, &plan, &io, &ms);
        zs_plan_free(&plan);
    }
    free(rebased);
    if (device_ms)
        *device_ms += ms;
    return st;
}

/* The segments in runs that fit the device (max_keys: keys plus one per
 * segment, whose offset costs no more than a key's place in a plan), one
 * device-side plan per run; a segment that does not fit alone ends a run
 * (the loop sorts it). A run with nothing to sort (empty and one-key
 * segments only) is skipped: its plan would be one of 0 keys, whose buffers
 * are never made. */
static zesort_status device_segment_runs(zesort_context *ctx, const zs_sort_call *c,
                                         const zs_plan_request *req, uint64_t max_keys,
                                         double *device_ms, int *large)
{
    for (uint64_t i = 0; i < c->segments;) {
        uint64_t j = i, cost = 0;
        int sorts = 0;
        for (; j < c->segments; j++) {
            const uint64_t len = c->offsets[j + 1] - c->offsets[j];
            if (len + 1 > max_keys || cost + len + 1 > max_keys)
                break;
            cost += len + 1;
            sorts |= len >= 2;
        }
        if (!sorts) { /* a segment too long for the device (j == i), or nothing to sort */
            i = j > i ? j : i + 1;
            continue;
        }
        zs_sort_call run = *c;
        run.offsets = c->offsets + i, run.segments = j - i;
        int run_large;
        zesort_status st = device_segment_kernel(ctx, &run, req, device_ms, &run_large);
        if (st != ZESORT_OK)
            return st;
        *large |= run_large;
        i = j;
    }
    return ZESORT_OK;
}

/* A segmented sort (checked already) on a device: every segment, whatever
 * its length, by one device-side segmented plan that classifies them on
 * the device (by several when their keys do not fit the device at once),
 * then any segment too long for the device alone as a sort of its own
 * (split on the host). */
zesort_status zs_segments_on_device(zesort_context *ctx, const zs_sort_call *c,
                                    const zs_segmented *s, double *device_ms, zesort_algo *ran)
{
    const zs_plan_request *req = s->req;
    uint64_t sorts = 0, keys = 0; /* segments of 2 keys or more; keys plus one per segment */
    for (uint64_t i = 0; i < c->segments; i++) {
        const uint64_t len = c->offsets[i + 1] - c->offsets[i];
        sorts += len >= 2;
        keys += len + 1;
    }
    if (!sorts)
        return ZESORT_OK;
    zs_plan_request r = *req;
    r.n = keys < ZESORT_MAX_KEYS ? keys : ZESORT_MAX_KEYS;
    const uint64_t max_keys = zs_part_max_keys(ctx, &r);
    int large = 0;
    zesort_status st = keys <= max_keys
                           ? device_segment_kernel(ctx, c, req, device_ms, &large)
                           : device_segment_runs(ctx, c, req, max_keys, device_ms, &large);
    if (st == ZESORT_OK && large) /* the global passes: what the segments' sort ran */
        *ran = ZESORT_ALGO_ONESWEEP;
    if (st == ZESORT_OK && keys > max_keys)
        st = long_segment_loop(ctx, c, s, max_keys - 1, device_ms, ran, NULL);
    return st;
}

/* A segmented sort (checked already) on the C fallback: in place, the
 * segments sorted in parallel (zs_cpu_sort_segments), then each longer than
 * it takes at once (2^32 - 1 keys for the radix passes, or the test hooks'
 * limits: zs_part_max_keys) as a sort of its own, split as zesort_sort
 * splits so many keys. */
zesort_status zs_segments_on_cpu(zesort_context *ctx, const zs_sort_call *c,
                                 const zs_segmented *s, double *device_ms, zesort_algo *ran)
{
    const zs_plan_request *req = s->req;
    const double t0 = zs_now_ms();
    const uint64_t max_len = zs_part_max_keys(ctx, req);
    zesort_status st = zs_cpu_sort_segments(c->io.keys_out, c->io.values_out, c->offsets,
                                            c->segments, req->key_bytes, req->value_bytes,
                                            req->key_flags, req->bit_lo, req->bit_hi, max_len);
    if (device_ms)
        *device_ms = zs_now_ms() - t0;
    if (st != ZESORT_OK)
        return zs_error_set(&ctx->err, st, "%s: out of host memory sorting the segments of %llu "
                            "keys", c->fn, (unsigned long long)req->n);
    return long_segment_loop(ctx, c, s, max_len, device_ms, ran, NULL);
}

/* A run of segments (segment_runs.h) on device `device` of the group:
 * the one-device path on its segments, its offsets those of the caller's
 * arrays, on that device alone. */
typedef struct segment_user {
    zesort_context *ctx;
    const zs_sort_call *c;
    const zs_segmented *s;
    /* Per device, written by its thread alone: what its last segment sorted
     * on its own ran (AUTO: none yet), and the end of that segment's run. */
    zesort_algo ran[ZS_SPLIT_MAX_DEVICES];
    uint64_t ran_end[ZS_SPLIT_MAX_DEVICES];
} segment_user;

static zesort_status sort_segment_run(void *user, unsigned device, const zs_split_part *run)
{
    segment_user *u = user;
    zs_sort_call c = *u->c;
    c.offsets = u->c->offsets + run->off, c.segments = run->end - run->off, c.solo = 1;
    zesort_algo ran = ZESORT_ALGO_AUTO;
    const zesort_status st = zs_segments_on_device(zs_group_device(u->ctx, device), &c, u->s,
                                                   NULL, &ran);
    if (ran != ZESORT_ALGO_AUTO && run->end > u->ran_end[device])
        u->ran[device] = ran, u->ran_end[device] = run->end;
    return st;
}

/* What the group's last segment sorted on its own ran (zesort_last_algo),
 * into *ran; unchanged if the runs sorted none on its own. */
static void merge_ran(const segment_user *u, unsigned devices, zesort_algo *ran)
{
    uint64_t last = 0;
    for (unsigned d = 0; d < devices; d++)
        if (u->ran[d] != ZESORT_ALGO_AUTO && u->ran_end[d] > last)
            *ran = u->ran[d], last = u->ran_end[d];
}

/* A segmented sort on the group's `devices` devices: the runs of segments
 * dealt to them and sorted at once (part_runner.h), then each segment
 * longer than a device's share by the whole group (split over them, as a
 * zesort_sort of its own). report: the runs are its parts, then every part
 * of the long segments' sorts. On a failure each segment is sorted or as it
 * was (a run's segments are, as on one device), the message naming the
 * device. */
zesort_status zs_segments_on_group(zesort_context *ctx, const zs_sort_call *c,
                                   const zs_segmented *s, unsigned devices, zesort_algo *ran,
                                   zesort_sort_report *report)
{
    const double t0 = zs_now_ms();
    zs_split_part *runs;
    uint64_t long_segments;
    const uint64_t count = zs_segment_runs(c->offsets, c->segments, devices, &runs, &long_segments);
    if (count == UINT64_MAX)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory for the runs of %llu segments", c->fn,
                            (unsigned long long)c->segments);
    zs_split_report r = {.failed_device = -1, .partition_ms = zs_now_ms() - t0};
    segment_user u = {ctx, c, s, {ZESORT_ALGO_AUTO}, {0}};
    zesort_status st = zs_run_parts(sort_segment_run, &u, devices, runs, count, &r);
    free(runs);
    if (st != ZESORT_OK && r.failed_device < 0)
        return zs_error_set(&ctx->err, st, "%s: out of host memory for the devices of %llu runs",
                            c->fn, (unsigned long long)count);
    if (st != ZESORT_OK) {
        zs_group_name_failure(ctx, st, r.failed_device, devices);
        return st;
    }
    zs_group_report(report, &r, devices, 0);
    merge_ran(&u, devices, ran);
    if (long_segments)
        st = long_segment_loop(ctx, c, s, zs_segment_share(c->offsets, c->segments, devices),
                               NULL, ran, report);
    report->sort_ms = zs_now_ms() - t0 - r.partition_ms;
    return st;
}
