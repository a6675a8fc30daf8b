/*
 * A stand-in for release 1.1.0's libzesort.so.1 to link against: the 82
 * functions 1.1.0 exports (nm -D --defined-only of its libzesort.so.1.1.0,
 * the ZESORT_1.0 node of src/libzesort.map), unversioned as 1.1.0's were, so
 * that a program linked with it refers to them without a version, exactly
 * like a program linked with 1.1.0. Never run: its file name is not its
 * soname (libzesort.so.1), so at run time the loader finds the library being
 * tested; if a stub is ever reached, it aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#define STUB(name)                                                                    \
    void name(void);                                                                  \
    void name(void)                                                                   \
    {                                                                                 \
        fprintf(stderr, "stub110: %s called: the 1.1.0 link stub, not libzesort\n", #name); \
        abort();                                                                      \
    }

STUB(zesort_algo_name)
STUB(zesort_aot_targets)
STUB(zesort_argsort)
STUB(zesort_backend_name)
STUB(zesort_check)
STUB(zesort_check_split)
STUB(zesort_cl_alt_temp_requirements)
STUB(zesort_cl_context_handles)
STUB(zesort_cl_create)
STUB(zesort_cl_destroy)
STUB(zesort_cl_enqueue_argsort)
STUB(zesort_cl_enqueue_argsort_alt)
STUB(zesort_cl_enqueue_sort)
STUB(zesort_cl_enqueue_sort_alt)
STUB(zesort_cl_enqueue_sort_copy)
STUB(zesort_cl_enqueue_sort_copy_alt)
STUB(zesort_cl_enqueue_sort_indirect)
STUB(zesort_cl_enqueue_sort_segmented)
STUB(zesort_cl_enqueue_sort_segments)
STUB(zesort_cl_enqueue_sort_segments_indirect)
STUB(zesort_cl_enqueue_topk)
STUB(zesort_cl_last_algo)
STUB(zesort_cl_last_error)
STUB(zesort_cl_last_result)
STUB(zesort_cl_prepare)
STUB(zesort_cl_temp_bytes)
STUB(zesort_cl_temp_requirements)
STUB(zesort_cl_topk_temp_bytes)
STUB(zesort_context_backend)
STUB(zesort_context_device)
STUB(zesort_context_device_index)
STUB(zesort_context_devices)
STUB(zesort_context_flavor)
STUB(zesort_create)
STUB(zesort_create_on_device)
STUB(zesort_create_on_devices)
STUB(zesort_destroy)
STUB(zesort_device_count)
STUB(zesort_device_name)
STUB(zesort_last_algo)
STUB(zesort_last_error)
STUB(zesort_last_sort_report)
STUB(zesort_options_default)
STUB(zesort_parse_algo)
STUB(zesort_parse_backend)
STUB(zesort_sort)
STUB(zesort_sort_copy)
STUB(zesort_sort_segments)
STUB(zesort_sort_timed)
STUB(zesort_spirv_flavors)
STUB(zesort_status_name)
STUB(zesort_topk)
STUB(zesort_topk_segments)
STUB(zesort_version)
STUB(zesort_ze_alt_temp_requirements)
STUB(zesort_ze_append_argsort)
STUB(zesort_ze_append_argsort_alt)
STUB(zesort_ze_append_argsort_chained)
STUB(zesort_ze_append_sort)
STUB(zesort_ze_append_sort_alt)
STUB(zesort_ze_append_sort_chained)
STUB(zesort_ze_append_sort_copy)
STUB(zesort_ze_append_sort_copy_alt)
STUB(zesort_ze_append_sort_copy_chained)
STUB(zesort_ze_append_sort_indirect)
STUB(zesort_ze_append_sort_segmented)
STUB(zesort_ze_append_sort_segments)
STUB(zesort_ze_append_sort_segments_chained)
STUB(zesort_ze_append_sort_segments_indirect)
STUB(zesort_ze_append_topk)
STUB(zesort_ze_chain_events)
STUB(zesort_ze_chain_events_for)
STUB(zesort_ze_context_handles)
STUB(zesort_ze_create)
STUB(zesort_ze_destroy)
STUB(zesort_ze_last_algo)
STUB(zesort_ze_last_error)
STUB(zesort_ze_last_result)
STUB(zesort_ze_prepare)
STUB(zesort_ze_temp_bytes)
STUB(zesort_ze_temp_requirements)
STUB(zesort_ze_topk_temp_bytes)
