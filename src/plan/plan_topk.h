/*
 * plan_topk.h — the plan of a top-k: the k smallest ordered keys
 * (the k largest with descending), sorted, stable, with their values or
 * input positions. Knows no API, like the rest of the planner.
 *
 * Buffers: the input in KEYS_IN (VALUES_IN; none with iota_values: the
 * positions are made on the device), the min(k, n) results in KEYS (and
 * VALUES), sized for them. Between them, a radix select (kernels/select.cl)
 * finds the k-th ordered key's digits most significant first, 8 bits a
 * pass, counting only the keys that still match the digits found; it stops
 * early once the keys before the k-th key's bucket plus the bucket fit the
 * candidates' room (cap = k + slack). sel_count, the scan of scan.cl and
 * sel_scatter then gather those candidates in input order into CAND_KEYS
 * (CAND_VALUES), and the sort plan of zs_plan_build (the request's
 * algorithm) sorts them in place, reading their number from CAND_PARAMS,
 * which the select writes. The first min(k, n) are copied to KEYS (VALUES).
 * Where the room is the whole input (k close to n) there is no select: the
 * sort of every key, out of place, then the copies. A small request
 * (req->small, n at most ZS_SMALL_MAX): one small_sort launch of every key
 * into the CAND buffers, writing the first min(k, n) to KEYS (VALUES).
 *
 * The device-side count of an interop sort works as for every plan: each
 * kernel reads min(PARAMS[0], PARAMS[1]); a count below k leaves KEYS
 * (VALUES) past the count unspecified.
 */
#ifndef ZESORT_PLAN_TOPK_H
#define ZESORT_PLAN_TOPK_H

#include "plan/plan.h"

/* The candidates' room for k of n keys: min(n, k + max(n / 32, 4096))
 * (the slack a test set instead: common/test_hooks.h). */
uint64_t zs_topk_room(uint64_t n, uint64_t k);

/* req: n (< 2^32), key and value bytes (value_bytes: values, or with
 * iota_values the positions' width), key_flags, bits, radix_bits (the
 * candidates' sort; host_scan is ignored: a device scan), serial. k: keys
 * wanted. force_select: plan the select however close k is to n (the
 * largest temp any k needs: interop temp sizes). out->selects says whether
 * the plan selects. k == 0 or n == 0: an empty plan. Returns 0, or -1 when
 * out of host memory. */
int zs_plan_topk(const zs_plan_request *req, uint64_t k, int force_select, zs_plan *out);

#endif
