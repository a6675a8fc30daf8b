/*
 * sort_request.h — one place that checks zesort_options and turns them into a
 * plan request, shared by zesort_sort (api_sort.c) and the Level Zero interop
 * (interop_ze.c) so the two cannot drift apart.
 */
#ifndef ZESORT_SORT_REQUEST_H
#define ZESORT_SORT_REQUEST_H

#include <stddef.h>

#include "common/error.h"
#include "plan/plan.h"
#include "zesort.h"

/* Checks opts (NULL = defaults) for a sort of n keys (with values of
 * opts->value_type when `pairs`) on a device running kernels of `flavor`, resolves AUTO (which
 * depends on the flavor) and the default bit range, and fills *req (host_scan
 * as asked; CM only; serial for the serial flavor). Returns INVALID_ARGUMENT
 * (bad enum or bit range) or TOO_LARGE with a message in err. *algo receives
 * the resolved algorithm (algo may be NULL). */
zesort_status zs_make_request(const zesort_options *opts, uint64_t n, int pairs,
                              zs_flavor flavor, zs_plan_request *req, zesort_algo *algo,
                              zs_error *err);

/* zs_make_request for a sort of host arrays: any n (a sort beyond
 * ZESORT_MAX_KEYS is split into parts, dispatch/split_sort.h), the options
 * checked as for one of ZESORT_MAX_KEYS keys, req->n = n; TOO_LARGE when
 * arrays of n keys (and values) cannot fit an address space. */
zesort_status zs_make_host_request(const zesort_options *opts, uint64_t n, int pairs,
                                   zs_flavor flavor, zs_plan_request *req, zesort_algo *algo,
                                   zs_error *err);

/* AUTO on the serial flavor: cm4 from this many keys, onesweep below (the
 * measurements are in sort_request.c). */
#define ZS_AUTO_SERIAL_CM4_FROM (UINT64_C(1) << 22)

/* *opts, or the defaults for opts NULL: a copy the caller may change. */
zesort_options zs_options_or_default(const zesort_options *opts);

/* Bytes of one key of type t (1, 2, 4 or 8). */
unsigned zs_key_bytes(zesort_key_type t);
/* Bytes of one value of type t (4 or 8). */
unsigned zs_value_bytes(zesort_value_type t);

#endif
