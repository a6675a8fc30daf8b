/*
 * sort_request.c — validation of zesort_options and the choice behind AUTO.
 */
#include "sort_request.h"

#include <stdio.h>
#include <string.h>

unsigned zs_key_bytes(zesort_key_type t)
{
    return t == ZESORT_KEY_U64 || t == ZESORT_KEY_I64 || t == ZESORT_KEY_F64 ? 8u : 4u;
}

/* What AUTO means: onesweep wherever it applies. Argued for Intel GPUs from
 * bench/traffic_model.py (48 vs 106 bytes per u32 key for cm4) and the ISA
 * report (~24 vs ~87 instructions per key on dg2); on PoCL (README, "Measured
 * results", `zesort bench --algo cm2,cm4,onesweep`) onesweep led at 4M keys
 * and cm4 with the host scan was level with it at 1M. */
static zesort_algo auto_algo(uint64_t n)
{
    return n <= ZS_OS_MAX_KEYS ? ZESORT_ALGO_ONESWEEP : ZESORT_ALGO_CM4;
}

zesort_status zs_make_request(const zesort_options *opts, uint64_t n, int pairs,
                              zs_flavor flavor, zs_plan_request *req, zesort_algo *algo, char *msg, size_t msg_len)
{
    zesort_options o;
    if (opts)
        o = *opts;
    else
        zesort_options_default(&o);
    if ((unsigned)o.key_type > ZESORT_KEY_F64 || (unsigned)o.algo > ZESORT_ALGO_ONESWEEP ||
        (unsigned)o.scan > ZESORT_SCAN_HOST) {
        snprintf(msg, msg_len, "invalid enum value in zesort_options (key type %d, algo %d, scan %d)",
                 (int)o.key_type, (int)o.algo, (int)o.scan);
        return ZESORT_ERROR_INVALID_ARGUMENT;
    }
    const unsigned kb = 8 * zs_key_bytes(o.key_type);
    const unsigned lo = o.bit_lo, hi = o.bit_hi == 0 ? kb : o.bit_hi; /* 0: the key's width */
    if (lo >= hi || hi > kb) {
        snprintf(msg, msg_len, "bit range %u:%u is not within 0:%u with lo < hi", o.bit_lo,
                 o.bit_hi, kb);
        return ZESORT_ERROR_INVALID_ARGUMENT;
    }
    if (n > ZESORT_MAX_KEYS) {
        snprintf(msg, msg_len, "n = %llu exceeds the maximum of %llu keys", (unsigned long long)n,
                 (unsigned long long)ZESORT_MAX_KEYS);
        return ZESORT_ERROR_TOO_LARGE;
    }
    zesort_algo a = o.algo == ZESORT_ALGO_AUTO ? auto_algo(n) : o.algo;
    if (a == ZESORT_ALGO_ONESWEEP && n > ZS_OS_MAX_KEYS) {
        snprintf(msg, msg_len, "onesweep sorts at most %llu keys",
                 (unsigned long long)ZS_OS_MAX_KEYS);
        return ZESORT_ERROR_TOO_LARGE;
    }
    memset(req, 0, sizeof *req);
    req->radix_bits = a == ZESORT_ALGO_CM2 ? 2 : a == ZESORT_ALGO_CM4 ? 4 : 8;
    req->host_scan = a != ZESORT_ALGO_ONESWEEP && o.scan == ZESORT_SCAN_HOST;
    req->n = n;
    req->key_bytes = kb / 8;
    req->pairs = pairs != 0;
    req->key_flags = zs_key_flags((int)o.key_type, o.descending);
    req->bit_lo = lo;
    req->bit_hi = hi;
    req->serial = flavor == ZS_FLAVOR_CPU;
    if (algo)
        *algo = a;
    return ZESORT_OK;
}
