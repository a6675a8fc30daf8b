/*
 * desc.h — reading a zesort_desc (zesort.h) the same way for every API: its
 * size and reserved words, its enums, and the zesort_options it implies.
 * The host API (api_run.c) and both interop APIs (interop_desc.c) start here.
 */
#ifndef ZESORT_PLAN_DESC_H
#define ZESORT_PLAN_DESC_H

#include "common/error.h"
#include "zesort.h"

/* Copies *in into *out, the fields past in->size (a program built against
 * an older header) at their defaults, and checks what every API checks:
 * the size, the kind, the values enum, the count width, zero reserved
 * words, and that each buffer field the kind does not use is NULL.
 * INVALID_ARGUMENT naming fn and the field otherwise. */
zesort_status zs_desc_read(const zesort_desc *in, zesort_desc *out, zs_error *err,
                           const char *fn);

/* The options of a read descriptor (validated later, by the planner). */
zesort_options zs_desc_options(const zesort_desc *d);

/* 1 when the sort writes input positions (ARGSORT, TOPK with indices). */
int zs_desc_indices(const zesort_desc *d);

/* 1 when values or indices move with the keys. */
int zs_desc_pairs(const zesort_desc *d);

/* The descriptor of a 1.1 entry point (the deprecated shims): kind, the
 * options (NULL: the defaults) and whether values move (their width, and
 * the indices', from opts->value_type). An opts->value_type that is not a
 * zesort_value_type is carried as ZS_DESC_BAD_OPTIONS_VALUE | its value, a
 * value_type no zesort_values has, which the call refuses naming it. */
#define ZS_DESC_BAD_OPTIONS_VALUE 0x40000000
typedef enum zs_shim_values { ZS_SHIM_KEYS, ZS_SHIM_VALUES } zs_shim_values;
zesort_desc zs_desc_of_options(zesort_kind kind, const zesort_options *opts,
                               zs_shim_values values);

#endif /* ZESORT_PLAN_DESC_H */
