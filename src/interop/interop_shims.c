/*
 * interop_shims.c — the 1.1 interop entry points as descriptors
 * (interop_shims.h).
 */
#include "interop/interop_shims.h"

static void set_count(zesort_desc *d, uint64_t n, const void *count, void *temp,
                      uint64_t temp_bytes)
{
    d->n = n;
    d->max_n = n;
    d->n_device = count;
    d->temp = temp;
    d->temp_bytes = temp_bytes;
}

static zs_shim_values moved(int pairs)
{
    return pairs ? ZS_SHIM_VALUES : ZS_SHIM_KEYS;
}

zesort_desc zs_shim_sort(const zesort_options *opts, void *keys, void *values, void *keys_alt,
                         void *values_alt, uint64_t n, const void *count, void *temp,
                         uint64_t temp_bytes)
{
    zesort_desc d = zs_desc_of_options(ZESORT_SORT, opts, moved(values || values_alt));
    d.keys = keys;
    d.values = values;
    d.keys_alt = keys_alt;
    d.values_alt = values_alt;
    set_count(&d, n, count, temp, temp_bytes);
    return d;
}

zesort_desc zs_shim_copy(const zesort_options *opts, const void *keys_in, const void *values_in,
                         void *keys_out, void *values_out, void *keys_alt, void *values_alt,
                         uint64_t n, const void *count, void *temp, uint64_t temp_bytes)
{
    zesort_desc d =
        zs_desc_of_options(ZESORT_SORT_COPY, opts, moved(values_in || values_out || values_alt));
    d.keys_in = keys_in;
    d.values_in = values_in;
    d.keys = keys_out;
    d.values = values_out;
    d.keys_alt = keys_alt;
    d.values_alt = values_alt;
    set_count(&d, n, count, temp, temp_bytes);
    return d;
}

zesort_desc zs_shim_argsort(const zesort_options *opts, const void *keys, void *indices,
                            void *keys_out, void *keys_alt, void *indices_alt, uint64_t n,
                            const void *count, void *temp, uint64_t temp_bytes)
{
    zesort_desc d = zs_desc_of_options(ZESORT_ARGSORT, opts, ZS_SHIM_KEYS);
    d.keys_in = keys;
    d.indices = indices;
    d.keys = keys_out;
    d.keys_alt = keys_alt;
    d.values_alt = indices_alt;
    set_count(&d, n, count, temp, temp_bytes);
    return d;
}

zesort_desc zs_shim_segments(const zesort_options *opts, void *keys, void *values, uint64_t n,
                             const void *count, const void *offsets, uint64_t num_segments,
                             void *temp, uint64_t temp_bytes)
{
    zesort_desc d = zs_desc_of_options(ZESORT_SEGMENTED, opts, moved(values != NULL));
    d.keys = keys;
    d.values = values;
    d.offsets = offsets;
    d.num_segments = num_segments;
    set_count(&d, n, count, temp, temp_bytes);
    return d;
}

zesort_desc zs_shim_topk(const zesort_options *opts, const void *keys, const void *values_in,
                         void *keys_out, void *values_out, void *indices_out, uint64_t n,
                         const void *count, uint64_t k, void *temp, uint64_t temp_bytes)
{
    zesort_desc d =
        zs_desc_of_options(ZESORT_TOPK, opts, moved(values_in || values_out));
    d.keys_in = keys;
    d.values_in = values_in;
    d.keys = keys_out;
    d.values = values_out;
    d.indices = indices_out;
    d.k = k;
    set_count(&d, n, count, temp, temp_bytes);
    return d;
}

zesort_status zs_shim_check_alt(const void *keys_alt, uint64_t n, zs_error *err, const char *fn)
{
    if (keys_alt || n == 0)
        return ZESORT_OK;
    return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: keys_alt is NULL for %llu keys",
                        fn, (unsigned long long)n);
}

zesort_status zs_shim_check_topk(const void *values_out, const void *indices_out, zs_error *err,
                                 const char *fn)
{
    if (!values_out || !indices_out)
        return ZESORT_OK;
    return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                        "%s: values_in and values_out go together, not with indices_out, and at "
                        "least one output is needed", fn);
}
