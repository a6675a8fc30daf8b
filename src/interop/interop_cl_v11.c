/*
 * interop_cl_v11.c — the 1.1 enqueues of the OpenCL interop API
 * (zesort_cl_enqueue_*, deprecated): each one descriptor (interop_shims.c)
 * and one sync for zs_cl_enqueue_desc (interop_cl.c), under its own name.
 * Their temp queries stay with the sorter in interop_cl.c.
 */
/* first: the library's OpenCL version, before <CL/cl.h> */
#include "backends/opencl/opencl_common.h"
#include "zesort_cl.h"

#include "common/error.h"
#include "interop/interop_cl_enqueue.h"
#include "interop/interop_shims.h"

static zesort_cl_sync sync_of(cl_uint nwait, const cl_event *wait, cl_event *event)
{
    return (zesort_cl_sync){.num_wait_events = nwait, .wait_events = wait, .event = event};
}

/* The indirect 1.1 forms must be given their count when max_n > 0. */
static zesort_status need_count(zesort_cl_sorter *s, cl_mem count, uint64_t max_n,
                                cl_event *event, const char *fn)
{
    if (count || max_n == 0)
        return ZESORT_OK;
    if (event)
        *event = NULL;
    zs_error e;
    return zs_cl_refused(s, &e, zs_error_set(&e, ZESORT_ERROR_INVALID_ARGUMENT,
                                             "%s: count is NULL", fn));
}

zesort_status zesort_cl_enqueue_sort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                     cl_mem keys, cl_mem values, uint64_t n, cl_mem temp,
                                     uint64_t temp_bytes, const zesort_options *opts,
                                     cl_uint num_wait_events, const cl_event *wait_events,
                                     cl_event *event)
{
    const zesort_desc d = zs_shim_sort(opts, keys, values, NULL, NULL, n, NULL, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    return zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_sort");
}

zesort_status zesort_cl_enqueue_sort_indirect(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, cl_mem count,
                                              uint64_t max_n, cl_mem temp, uint64_t temp_bytes,
                                              const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event)
{
    static const char fn[] = "zesort_cl_enqueue_sort_indirect";
    const zesort_desc d =
        zs_shim_sort(opts, keys, values, NULL, NULL, max_n, count, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zesort_status st = need_count(sorter, count, max_n, event, fn);
    return st != ZESORT_OK ? st : zs_cl_enqueue_desc(sorter, queue, &d, &y, fn);
}

zesort_status zesort_cl_enqueue_sort_segments(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys, cl_mem values, uint64_t n,
                                              cl_mem offsets, uint64_t num_segments, cl_mem temp,
                                              uint64_t temp_bytes, const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event)
{
    const zesort_desc d =
        zs_shim_segments(opts, keys, values, n, NULL, offsets, num_segments, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    return zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_sort_segments");
}

zesort_status zesort_cl_enqueue_sort_segments_indirect(
    zesort_cl_sorter *sorter, cl_command_queue queue, cl_mem keys, cl_mem values, cl_mem count,
    uint64_t max_n, cl_mem offsets, uint64_t num_segments, cl_mem temp, uint64_t temp_bytes,
    const zesort_options *opts, cl_uint num_wait_events, const cl_event *wait_events,
    cl_event *event)
{
    static const char fn[] = "zesort_cl_enqueue_sort_segments_indirect";
    const zesort_desc d = zs_shim_segments(opts, keys, values, max_n, count, offsets,
                                           num_segments, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zesort_status st = need_count(sorter, count, max_n, event, fn);
    return st != ZESORT_OK ? st : zs_cl_enqueue_desc(sorter, queue, &d, &y, fn);
}

zesort_status zesort_cl_enqueue_sort_segmented(zesort_cl_sorter *sorter, cl_command_queue queue,
                                               cl_mem keys, cl_mem values, uint64_t n,
                                               const zesort_cl_segments *segments, cl_mem temp,
                                               uint64_t temp_bytes, const zesort_options *opts,
                                               cl_uint num_wait_events,
                                               const cl_event *wait_events, cl_event *event)
{
    static const char fn[] = "zesort_cl_enqueue_sort_segmented";
    zs_error e;
    if (!segments) {
        if (event)
            *event = NULL;
        return zs_cl_refused(sorter, &e, zs_error_set(&e, ZESORT_ERROR_INVALID_ARGUMENT,
                                                      "%s: segments is NULL", fn));
    }
    zesort_desc d = zs_shim_segments(opts, keys, values, n, NULL, segments->offsets,
                                     segments->num_segments, temp, temp_bytes);
    d.offset_type = segments->offset_type;
    d.begin_offsets = segments->begin_offsets;
    d.end_offsets = segments->end_offsets;
    d.num_segments_device = segments->num_segments_mem;
    d.status = (uint32_t *)segments->status;
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    return zs_cl_enqueue_desc(sorter, queue, &d, &y, fn);
}

zesort_status zesort_cl_enqueue_sort_copy(zesort_cl_sorter *sorter, cl_command_queue queue,
                                          cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                          cl_mem values_out, uint64_t n, cl_mem count,
                                          cl_mem temp, uint64_t temp_bytes,
                                          const zesort_options *opts, cl_uint num_wait_events,
                                          const cl_event *wait_events, cl_event *event)
{
    const zesort_desc d = zs_shim_copy(opts, keys_in, values_in, keys_out, values_out, NULL,
                                       NULL, n, count, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    return zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_sort_copy");
}

zesort_status zesort_cl_enqueue_argsort(zesort_cl_sorter *sorter, cl_command_queue queue,
                                        cl_mem keys, cl_mem indices, cl_mem keys_out, uint64_t n,
                                        cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                        const zesort_options *opts, cl_uint num_wait_events,
                                        const cl_event *wait_events, cl_event *event)
{
    const zesort_desc d =
        zs_shim_argsort(opts, keys, indices, keys_out, NULL, NULL, n, count, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    return zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_argsort");
}

zesort_status zesort_cl_enqueue_sort_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                         cl_mem keys, cl_mem values, cl_mem keys_alt,
                                         cl_mem values_alt, uint64_t n, cl_mem count,
                                         cl_mem temp, uint64_t temp_bytes,
                                         const zesort_options *opts, cl_uint num_wait_events,
                                         const cl_event *wait_events, cl_event *event,
                                         int *result_in_alt)
{
    zesort_desc d =
        zs_shim_sort(opts, keys, values, keys_alt, values_alt, n, count, temp, temp_bytes);
    d.result_in_alt = result_in_alt;
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_cl_enqueue_sort_alt");
    if (st != ZESORT_OK && event)
        *event = NULL;
    return st != ZESORT_OK
               ? zs_cl_refused(sorter, &e, st)
               : zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_sort_alt");
}

zesort_status zesort_cl_enqueue_sort_copy_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                              cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
                                              cl_mem values_out, cl_mem keys_alt,
                                              cl_mem values_alt, uint64_t n, cl_mem count,
                                              cl_mem temp, uint64_t temp_bytes,
                                              const zesort_options *opts,
                                              cl_uint num_wait_events,
                                              const cl_event *wait_events, cl_event *event)
{
    const zesort_desc d = zs_shim_copy(opts, keys_in, values_in, keys_out, values_out, keys_alt,
                                       values_alt, n, count, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_cl_enqueue_sort_copy_alt");
    if (st != ZESORT_OK && event)
        *event = NULL;
    return st != ZESORT_OK
               ? zs_cl_refused(sorter, &e, st)
               : zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_sort_copy_alt");
}

zesort_status zesort_cl_enqueue_argsort_alt(zesort_cl_sorter *sorter, cl_command_queue queue,
                                            cl_mem keys, cl_mem indices, cl_mem keys_out,
                                            cl_mem keys_alt, cl_mem indices_alt, uint64_t n,
                                            cl_mem count, cl_mem temp, uint64_t temp_bytes,
                                            const zesort_options *opts, cl_uint num_wait_events,
                                            const cl_event *wait_events, cl_event *event)
{
    const zesort_desc d = zs_shim_argsort(opts, keys, indices, keys_out, keys_alt, indices_alt,
                                          n, count, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_cl_enqueue_argsort_alt");
    if (st != ZESORT_OK && event)
        *event = NULL;
    return st != ZESORT_OK
               ? zs_cl_refused(sorter, &e, st)
               : zs_cl_enqueue_desc(sorter, queue, &d, &y, "zesort_cl_enqueue_argsort_alt");
}

zesort_status zesort_cl_enqueue_topk(zesort_cl_sorter *sorter, cl_command_queue queue,
                                     cl_mem keys, cl_mem values_in, cl_mem keys_out,
                                     cl_mem values_out, cl_mem indices_out, uint64_t n,
                                     cl_mem count, uint64_t k, cl_mem temp, uint64_t temp_bytes,
                                     const zesort_options *opts, cl_uint num_wait_events,
                                     const cl_event *wait_events, cl_event *event)
{
    static const char fn[] = "zesort_cl_enqueue_topk";
    const zesort_desc d = zs_shim_topk(opts, keys, values_in, keys_out, values_out, indices_out,
                                       n, count, k, temp, temp_bytes);
    const zesort_cl_sync y = sync_of(num_wait_events, wait_events, event);
    zs_error e;
    const zesort_status st = zs_shim_check_topk(values_out, indices_out, &e, fn);
    if (st != ZESORT_OK && event)
        *event = NULL;
    return st != ZESORT_OK
               ? zs_cl_refused(sorter, &e, st)
               : zs_cl_enqueue_desc(sorter, queue, &d, &y, fn);
}
