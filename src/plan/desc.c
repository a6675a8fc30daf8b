/*
 * desc.c — zesort_desc_init and the reading every API does first (desc.h),
 * below the host API and both interop APIs, which all start here.
 */
#include "plan/desc.h"

#include <stddef.h>
#include <string.h>

void zesort_desc_init(zesort_desc *d, zesort_kind kind)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->kind = kind;
    d->key_type = ZESORT_KEY_U32;
    d->algo = ZESORT_ALGO_AUTO;
    d->scan = ZESORT_SCAN_DEVICE;
    d->value_type = ZESORT_VALUES_NONE;
    d->index_type = ZESORT_INT_U32;
    d->n_type = ZESORT_INT_U32;
    d->offset_type = ZESORT_OFFSET_U64;
}

int zs_desc_indices(const zesort_desc *d)
{
    return d->kind == ZESORT_ARGSORT || (d->kind == ZESORT_TOPK && d->indices);
}

int zs_desc_pairs(const zesort_desc *d)
{
    return d->value_type != ZESORT_VALUES_NONE || zs_desc_indices(d);
}

zesort_options zs_desc_options(const zesort_desc *d)
{
    /* values and indices share one width (a top-k with both: checked equal) */
    const int wide = d->value_type != ZESORT_VALUES_NONE ? d->value_type == ZESORT_VALUES_U64
                                                         : d->index_type == ZESORT_INT_U64;
    return (zesort_options){.key_type = d->key_type, .algo = d->algo, .scan = d->scan,
                            .descending = d->descending, .bit_lo = d->bit_lo,
                            .bit_hi = d->bit_hi,
                            .value_type = wide ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32};
}

static const char *const kind_names[] = {"ZESORT_SORT", "ZESORT_SORT_COPY", "ZESORT_ARGSORT",
                                         "ZESORT_TOPK", "ZESORT_SEGMENTED"};

/* The first buffer field set that the kind has no use for, or NULL. */
static const char *unused_field(const zesort_desc *d)
{
    const int reads_input = d->kind == ZESORT_SORT_COPY || d->kind == ZESORT_ARGSORT ||
                            d->kind == ZESORT_TOPK;
    const int segmented = d->kind == ZESORT_SEGMENTED || d->kind == ZESORT_TOPK;
    if (!reads_input && d->keys_in)
        return "keys_in";
    if ((!reads_input || d->kind == ZESORT_ARGSORT) && d->values_in)
        return "values_in";
    if (!segmented && (d->offsets || d->begin_offsets || d->end_offsets))
        return d->offsets ? "offsets" : "begin_offsets";
    if (!segmented && (d->num_segments || d->num_segments_device))
        return d->num_segments ? "num_segments" : "num_segments_device";
    if (d->kind != ZESORT_SEGMENTED && d->status)
        return "status";
    if (d->kind != ZESORT_TOPK && d->k)
        return "k";
    return NULL;
}

/* What moves with the keys: values of value_type with their buffers, and
 * indices where a kind writes them, of index_type (the same width as the
 * values when a top-k writes both: one plan moves one width). */
static zesort_status check_values(const zesort_desc *d, zs_error *err, const char *fn)
{
    if ((unsigned)d->value_type & ZS_DESC_BAD_OPTIONS_VALUE)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: invalid enum value in zesort_options (value type %d)", fn,
                            (int)((unsigned)d->value_type & ~ZS_DESC_BAD_OPTIONS_VALUE));
    if ((unsigned)d->value_type > ZESORT_VALUES_U64)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: value_type is %d: not a zesort_values", fn, (int)d->value_type);
    if ((unsigned)d->index_type > ZESORT_INT_U64)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: index_type is %d: ZESORT_INT_U32 or ZESORT_INT_U64", fn,
                            (int)d->index_type);
    if (d->value_type == ZESORT_VALUES_NONE && (d->values || d->values_in ||
                                                (d->values_alt && d->kind != ZESORT_ARGSORT)))
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s is given but value_type is ZESORT_VALUES_NONE", fn,
                            d->values ? "values" : d->values_in ? "values_in" : "values_alt");
    if (d->value_type != ZESORT_VALUES_NONE && d->kind == ZESORT_ARGSORT)
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s: value_type: an argsort moves its indices, not values", fn);
    if (d->indices && d->kind != ZESORT_ARGSORT && d->kind != ZESORT_TOPK)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: indices is set, but %s does not use it", fn,
                            kind_names[d->kind]);
    if (d->indices && d->value_type != ZESORT_VALUES_NONE &&
        (d->value_type == ZESORT_VALUES_U64) != (d->index_type == ZESORT_INT_U64))
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s: index_type: a top-k writing values and indices writes both at "
                            "one width: the values' (value_type)", fn);
    return ZESORT_OK;
}

zesort_status zs_desc_read(const zesort_desc *in, zesort_desc *out, zs_error *err,
                           const char *fn)
{
    if (!in)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: the descriptor is NULL", fn);
    /* every field of the first descriptor; later ones past a smaller size
     * keep the defaults */
    if (in->size < offsetof(zesort_desc, reserved) || in->size > 65536)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: size is %u: set it with zesort_desc_init (sizeof(zesort_desc) "
                            "is %zu)", fn, in->size, sizeof(zesort_desc));
    zesort_desc_init(out, in->kind);
    memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
    if ((unsigned)out->kind > ZESORT_SEGMENTED)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: kind is %d: not a zesort_kind", fn, (int)out->kind);
    for (size_t i = 0; i < sizeof out->reserved / sizeof out->reserved[0]; i++)
        if (out->reserved[i])
            return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: reserved[%zu] is not 0 (zesort_desc_init clears it)", fn, i);
    if ((unsigned)out->n_type > ZESORT_INT_U64)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: n_type is %d: ZESORT_INT_U32 or ZESORT_INT_U64", fn,
                            (int)out->n_type);
    if (out->offset_type != ZESORT_OFFSET_U64 && out->offset_type != ZESORT_OFFSET_U32)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: offset_type is %d: ZESORT_OFFSET_U64 (0) or ZESORT_OFFSET_U32 "
                            "(1)", fn, (int)out->offset_type);
    const char *unused = unused_field(out);
    if (unused)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %s is set, but %s does not use it", fn, unused,
                            kind_names[out->kind]);
    if (out->values_alt && !out->keys_alt)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: values_alt without keys_alt: the alternate buffers go together",
                            fn);
    return check_values(out, err, fn);
}

zesort_desc zs_desc_of_options(zesort_kind kind, const zesort_options *opts,
                               zs_shim_values values)
{
    zesort_desc d;
    zesort_desc_init(&d, kind);
    /* NULL options: zesort_options_default's, which are the descriptor's */
    zesort_options o = {d.key_type, d.algo, d.scan, d.descending, d.bit_lo, d.bit_hi,
                        ZESORT_VALUE_U32};
    if (opts)
        o = *opts;
    d.key_type = o.key_type;
    d.algo = o.algo;
    d.scan = o.scan;
    d.descending = o.descending;
    d.bit_lo = o.bit_lo;
    d.bit_hi = o.bit_hi;
    const int wide = o.value_type == ZESORT_VALUE_U64;
    d.index_type = wide ? ZESORT_INT_U64 : ZESORT_INT_U32;
    if ((unsigned)o.value_type > ZESORT_VALUE_U64)
        d.value_type = (zesort_values)(ZS_DESC_BAD_OPTIONS_VALUE | (unsigned)o.value_type);
    else if (values == ZS_SHIM_VALUES)
        d.value_type = wide ? ZESORT_VALUES_U64 : ZESORT_VALUES_U32;
    else
        d.value_type = ZESORT_VALUES_NONE;
    return d;
}
