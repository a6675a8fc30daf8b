/*
 * interop_ze_v11.c — the 1.1 appends of the Level Zero interop API
 * (zesort_ze_append_*, deprecated): each one descriptor (interop_shims.c)
 * and one sync for zs_ze_append_desc (interop_ze.c), under its own name.
 * Their queries (temp bytes, chain events) stay with the sorter in
 * interop_ze.c.
 */
#include "zesort_ze.h"

#include "common/error.h"
#include "interop/interop_shims.h"
#include "interop/interop_ze_append.h"

/* The sync of a 1.1 entry point: its events, chained for the _chained forms
 * (their array, possibly of 0 events). */
static zesort_ze_sync sync_of(ze_event_handle_t signal, uint32_t nwait, ze_event_handle_t *wait,
                              int chained, uint32_t nchain, ze_event_handle_t *chain)
{
    return (zesort_ze_sync){.signal_event = signal, .num_wait_events = nwait,
                            .wait_events = wait, .chained = chained,
                            .num_chain_events = nchain, .chain_events = chain};
}

/* The indirect 1.1 forms must be given their count when max_n > 0. */
static zesort_status need_count(zesort_ze_sorter *s, const void *n_devptr, uint64_t max_n,
                                const char *fn)
{
    if (n_devptr || max_n == 0)
        return ZESORT_OK;
    zs_error e;
    return zs_ze_refused(s, &e, zs_error_set(&e, ZESORT_ERROR_INVALID_ARGUMENT,
                                             "%s: n_devptr is NULL", fn));
}

zesort_status zesort_ze_append_sort(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                    void *keys, void *values, uint64_t n,
                                    void *temp, uint64_t temp_bytes,
                                    const zesort_options *opts, ze_event_handle_t signal_event,
                                    uint32_t num_wait_events, ze_event_handle_t *wait_events)
{
    const zesort_desc d = zs_shim_sort(opts, keys, values, NULL, NULL, n, NULL, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort");
}

zesort_status zesort_ze_append_sort_indirect(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist, void *keys,
                                             void *values, const uint32_t *n_devptr,
                                             uint64_t max_n,
                                             void *temp, uint64_t temp_bytes,
                                             const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events)
{
    static const char fn[] = "zesort_ze_append_sort_indirect";
    const zesort_desc d =
        zs_shim_sort(opts, keys, values, NULL, NULL, max_n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zesort_status st = need_count(sorter, n_devptr, max_n, fn);
    return st != ZESORT_OK ? st : zs_ze_append_desc(sorter, cmdlist, &d, &y, fn);
}

zesort_status zesort_ze_append_sort_chained(zesort_ze_sorter *sorter,
                                            ze_command_list_handle_t cmdlist, void *keys,
                                            void *values, uint64_t n,
                                            const uint32_t *n_devptr, void *temp,
                                            uint64_t temp_bytes, const zesort_options *opts,
                                            ze_event_handle_t signal_event,
                                            uint32_t num_wait_events,
                                            ze_event_handle_t *wait_events,
                                            uint32_t num_chain_events,
                                            ze_event_handle_t *chain_events)
{
    const zesort_desc d =
        zs_shim_sort(opts, keys, values, NULL, NULL, n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 1,
                                     num_chain_events, chain_events);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_chained");
}

zesort_status zesort_ze_append_sort_segments(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist, void *keys,
                                             void *values, uint64_t n, const uint64_t *offsets,
                                             uint64_t num_segments, void *temp,
                                             uint64_t temp_bytes, const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events)
{
    const zesort_desc d =
        zs_shim_segments(opts, keys, values, n, NULL, offsets, num_segments, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_segments");
}

zesort_status zesort_ze_append_sort_segments_indirect(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, void *keys, void *values,
    const uint32_t *n_devptr, uint64_t max_n, const uint64_t *offsets, uint64_t num_segments,
    void *temp, uint64_t temp_bytes, const zesort_options *opts, ze_event_handle_t signal_event,
    uint32_t num_wait_events, ze_event_handle_t *wait_events)
{
    static const char fn[] = "zesort_ze_append_sort_segments_indirect";
    const zesort_desc d = zs_shim_segments(opts, keys, values, max_n, n_devptr, offsets,
                                           num_segments, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zesort_status st = need_count(sorter, n_devptr, max_n, fn);
    return st != ZESORT_OK ? st : zs_ze_append_desc(sorter, cmdlist, &d, &y, fn);
}

zesort_status zesort_ze_append_sort_segments_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, void *keys, void *values,
    uint64_t n, const uint32_t *n_devptr, const uint64_t *offsets, uint64_t num_segments,
    void *temp, uint64_t temp_bytes, const zesort_options *opts, ze_event_handle_t signal_event,
    uint32_t num_wait_events, ze_event_handle_t *wait_events, uint32_t num_chain_events,
    ze_event_handle_t *chain_events)
{
    const zesort_desc d = zs_shim_segments(opts, keys, values, n, n_devptr, offsets,
                                           num_segments, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 1,
                                     num_chain_events, chain_events);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_segments_chained");
}

zesort_status zesort_ze_append_sort_segmented(zesort_ze_sorter *sorter,
                                              ze_command_list_handle_t cmdlist, void *keys,
                                              void *values, uint64_t n,
                                              const zesort_ze_segments *segments, void *temp,
                                              uint64_t temp_bytes, const zesort_options *opts,
                                              ze_event_handle_t signal_event,
                                              uint32_t num_wait_events,
                                              ze_event_handle_t *wait_events)
{
    static const char fn[] = "zesort_ze_append_sort_segmented";
    zs_error e;
    if (!segments)
        return zs_ze_refused(sorter, &e, zs_error_set(&e, ZESORT_ERROR_INVALID_ARGUMENT,
                                                      "%s: segments is NULL", fn));
    zesort_desc d = zs_shim_segments(opts, keys, values, n, NULL, segments->offsets,
                                     segments->num_segments, temp, temp_bytes);
    d.offset_type = segments->offset_type;
    d.begin_offsets = segments->begin_offsets;
    d.end_offsets = segments->end_offsets;
    d.num_segments_device = segments->num_segments_devptr;
    d.status = segments->status;
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, fn);
}

zesort_status zesort_ze_append_sort_copy(zesort_ze_sorter *sorter,
                                         ze_command_list_handle_t cmdlist, const void *keys_in,
                                         const void *values_in, void *keys_out, void *values_out,
                                         uint64_t n, const uint32_t *n_devptr, void *temp,
                                         uint64_t temp_bytes, const zesort_options *opts,
                                         ze_event_handle_t signal_event, uint32_t num_wait_events,
                                         ze_event_handle_t *wait_events)
{
    const zesort_desc d = zs_shim_copy(opts, keys_in, values_in, keys_out, values_out, NULL,
                                       NULL, n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_copy");
}

zesort_status zesort_ze_append_sort_copy_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, const void *keys_in,
    const void *values_in, void *keys_out, void *values_out, uint64_t n,
    const uint32_t *n_devptr, void *temp, uint64_t temp_bytes, const zesort_options *opts,
    ze_event_handle_t signal_event, uint32_t num_wait_events, ze_event_handle_t *wait_events,
    uint32_t num_chain_events, ze_event_handle_t *chain_events)
{
    const zesort_desc d = zs_shim_copy(opts, keys_in, values_in, keys_out, values_out, NULL,
                                       NULL, n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 1,
                                     num_chain_events, chain_events);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_copy_chained");
}

zesort_status zesort_ze_append_argsort(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                       const void *keys, void *indices, void *keys_out,
                                       uint64_t n, const uint32_t *n_devptr, void *temp,
                                       uint64_t temp_bytes, const zesort_options *opts,
                                       ze_event_handle_t signal_event, uint32_t num_wait_events,
                                       ze_event_handle_t *wait_events)
{
    const zesort_desc d = zs_shim_argsort(opts, keys, indices, keys_out, NULL, NULL, n, n_devptr,
                                          temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_argsort");
}

zesort_status zesort_ze_append_argsort_chained(
    zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist, const void *keys, void *indices,
    void *keys_out, uint64_t n, const uint32_t *n_devptr, void *temp, uint64_t temp_bytes,
    const zesort_options *opts, ze_event_handle_t signal_event, uint32_t num_wait_events,
    ze_event_handle_t *wait_events, uint32_t num_chain_events, ze_event_handle_t *chain_events)
{
    const zesort_desc d = zs_shim_argsort(opts, keys, indices, keys_out, NULL, NULL, n, n_devptr,
                                          temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 1,
                                     num_chain_events, chain_events);
    return zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_argsort_chained");
}

zesort_status zesort_ze_append_sort_alt(zesort_ze_sorter *sorter,
                                        ze_command_list_handle_t cmdlist, void *keys,
                                        void *values, void *keys_alt, void *values_alt,
                                        uint64_t n, const uint32_t *n_devptr, void *temp,
                                        uint64_t temp_bytes, const zesort_options *opts,
                                        ze_event_handle_t signal_event,
                                        uint32_t num_wait_events,
                                        ze_event_handle_t *wait_events, int *result_in_alt)
{
    zesort_desc d = zs_shim_sort(opts, keys, values, keys_alt, values_alt, n, n_devptr, temp,
                                 temp_bytes);
    d.result_in_alt = result_in_alt;
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_ze_append_sort_alt");
    return st != ZESORT_OK
               ? zs_ze_refused(sorter, &e, st)
               : zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_alt");
}

zesort_status zesort_ze_append_sort_copy_alt(zesort_ze_sorter *sorter,
                                             ze_command_list_handle_t cmdlist,
                                             const void *keys_in, const void *values_in,
                                             void *keys_out, void *values_out, void *keys_alt,
                                             void *values_alt, uint64_t n,
                                             const uint32_t *n_devptr, void *temp,
                                             uint64_t temp_bytes, const zesort_options *opts,
                                             ze_event_handle_t signal_event,
                                             uint32_t num_wait_events,
                                             ze_event_handle_t *wait_events)
{
    const zesort_desc d = zs_shim_copy(opts, keys_in, values_in, keys_out, values_out, keys_alt,
                                       values_alt, n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_ze_append_sort_copy_alt");
    return st != ZESORT_OK
               ? zs_ze_refused(sorter, &e, st)
               : zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_sort_copy_alt");
}

zesort_status zesort_ze_append_argsort_alt(zesort_ze_sorter *sorter,
                                           ze_command_list_handle_t cmdlist, const void *keys,
                                           void *indices, void *keys_out, void *keys_alt,
                                           void *indices_alt, uint64_t n,
                                           const uint32_t *n_devptr, void *temp,
                                           uint64_t temp_bytes, const zesort_options *opts,
                                           ze_event_handle_t signal_event,
                                           uint32_t num_wait_events,
                                           ze_event_handle_t *wait_events)
{
    const zesort_desc d = zs_shim_argsort(opts, keys, indices, keys_out, keys_alt, indices_alt,
                                          n, n_devptr, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zs_error e;
    const zesort_status st = zs_shim_check_alt(keys_alt, n, &e, "zesort_ze_append_argsort_alt");
    return st != ZESORT_OK
               ? zs_ze_refused(sorter, &e, st)
               : zs_ze_append_desc(sorter, cmdlist, &d, &y, "zesort_ze_append_argsort_alt");
}

zesort_status zesort_ze_append_topk(zesort_ze_sorter *sorter, ze_command_list_handle_t cmdlist,
                                    const void *keys, const void *values_in, void *keys_out,
                                    void *values_out, void *indices_out, uint64_t n,
                                    const uint32_t *n_devptr, uint64_t k, void *temp,
                                    uint64_t temp_bytes, const zesort_options *opts,
                                    ze_event_handle_t signal_event, uint32_t num_wait_events,
                                    ze_event_handle_t *wait_events)
{
    static const char fn[] = "zesort_ze_append_topk";
    const zesort_desc d = zs_shim_topk(opts, keys, values_in, keys_out, values_out, indices_out,
                                       n, n_devptr, k, temp, temp_bytes);
    const zesort_ze_sync y = sync_of(signal_event, num_wait_events, wait_events, 0, 0, NULL);
    zs_error e;
    const zesort_status st = zs_shim_check_topk(values_out, indices_out, &e, fn);
    return st != ZESORT_OK ? zs_ze_refused(sorter, &e, st)
                           : zs_ze_append_desc(sorter, cmdlist, &d, &y, fn);
}
