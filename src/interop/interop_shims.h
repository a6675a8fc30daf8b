/*
 * interop_shims.h — the descriptors of the 1.1 interop entry points
 * (zesort_ze_append_* and zesort_cl_enqueue_*, deprecated): each 1.1 call is
 * one of these descriptors passed to the API's one call. Buffers are void *:
 * device pointers for Level Zero, cl_mem for OpenCL. A device-side count
 * (count, NULL for none) makes n its most.
 */
#ifndef ZESORT_INTEROP_SHIMS_H
#define ZESORT_INTEROP_SHIMS_H

#include "plan/desc.h"

/* In place, with alternate buffers or not (keys_alt NULL). */
zesort_desc zs_shim_sort(const zesort_options *opts, void *keys, void *values, void *keys_alt,
                         void *values_alt, uint64_t n, const void *count, void *temp,
                         uint64_t temp_bytes);

/* Out of place. */
zesort_desc zs_shim_copy(const zesort_options *opts, const void *keys_in, const void *values_in,
                         void *keys_out, void *values_out, void *keys_alt, void *values_alt,
                         uint64_t n, const void *count, void *temp, uint64_t temp_bytes);

/* Argsort: indices of opts->value_type. */
zesort_desc zs_shim_argsort(const zesort_options *opts, const void *keys, void *indices,
                            void *keys_out, void *keys_alt, void *indices_alt, uint64_t n,
                            const void *count, void *temp, uint64_t temp_bytes);

/* Segmented, S + 1 uint64 offsets. */
zesort_desc zs_shim_segments(const zesort_options *opts, void *keys, void *values, uint64_t n,
                             const void *count, const void *offsets, uint64_t num_segments,
                             void *temp, uint64_t temp_bytes);

/* Top-k: values_out, indices_out or both (the device APIs refuse both). */
zesort_desc zs_shim_topk(const zesort_options *opts, const void *keys, const void *values_in,
                         void *keys_out, void *values_out, void *indices_out, uint64_t n,
                         const void *count, uint64_t k, void *temp, uint64_t temp_bytes);

/* The _alt entry points take their alternate buffers as given: keys_alt
 * NULL with keys to sort is INVALID_ARGUMENT naming fn (a descriptor
 * without keys_alt is simply not one of alternate buffers). */
zesort_status zs_shim_check_alt(const void *keys_alt, uint64_t n, zs_error *err, const char *fn);

/* The 1.1 top-k took values_out or indices_out: both is INVALID_ARGUMENT
 * naming fn, as it always was. */
zesort_status zs_shim_check_topk(const void *values_out, const void *indices_out, zs_error *err,
                                 const char *fn);

#endif /* ZESORT_INTEROP_SHIMS_H */
