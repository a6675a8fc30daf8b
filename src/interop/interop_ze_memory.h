/*
 * interop_ze_memory.h — the checks of a Level Zero append's caller memory
 * (interop_ze_memory.c), for interop_ze.c. Both set err and return
 * INVALID_ARGUMENT naming fn, or the status of a failed driver call.
 *
 * Internal to the library; not installed.
 */
#ifndef ZESORT_INTEROP_ZE_MEMORY_H
#define ZESORT_INTEROP_ZE_MEMORY_H

#include <level_zero/ze_api.h>
#include <stdint.h>

#include "common/error.h"
#include "interop/interop_common.h"
#include "zesort.h"

/* The caller's buffers of a sort, checked before any driver call: given,
 * aligned to their element size, temp large enough and 8-byte aligned, and
 * no two of them (temp and the count included) sharing a byte. caller[]:
 * the caller's pointer by plan buffer (t says which are the caller's). */
zesort_status zs_ze_check_arguments(zs_error *err, const zs_buffer_table *t,
                                    void *const *caller, uint64_t n, const uint32_t *n_devptr,
                                    void *temp, uint64_t temp_bytes, const char *fn);

/* Every caller buffer of a sort: keys and values (in and out), temp (the
 * bytes the caller gave) and the device-side count, each a Level Zero
 * device or shared allocation of context that holds its bytes: a GPU faults
 * on anything else (malloc'd memory, a host allocation, another context's
 * memory), long after the append returned. */
zesort_status zs_ze_check_memory(zs_error *err, ze_context_handle_t context,
                                 const zs_buffer_table *t, void *const *caller, void *temp,
                                 uint64_t temp_bytes, const uint32_t *n_devptr, const char *fn);

#endif
