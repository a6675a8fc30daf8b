/*
 * sort_request.c — the defaults of zesort_options (zesort_options_default),
 * their validation and the choice behind AUTO, for zesort_sort (api_sort.c)
 * and the Level Zero interop (interop_ze.c). Depends on neither.
 */
#include "plan/sort_request.h"

#include <string.h>

void zesort_options_default(zesort_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->key_type = ZESORT_KEY_U32;
    opts->algo = ZESORT_ALGO_AUTO;
    opts->scan = ZESORT_SCAN_DEVICE;
    opts->bit_lo = 0;
    opts->bit_hi = 0; /* the key's width */
    opts->value_type = ZESORT_VALUE_U32;
}

zesort_options zs_options_or_default(const zesort_options *opts)
{
    zesort_options o;
    if (opts)
        o = *opts;
    else
        zesort_options_default(&o);
    return o;
}

unsigned zs_key_bytes(zesort_key_type t)
{
    switch (t) {
    case ZESORT_KEY_U64: case ZESORT_KEY_I64: case ZESORT_KEY_F64: return 8u;
    case ZESORT_KEY_U8: case ZESORT_KEY_I8: return 1u;
    case ZESORT_KEY_U16: case ZESORT_KEY_I16: case ZESORT_KEY_F16: case ZESORT_KEY_BF16:
        return 2u;
    default: return 4u;
    }
}

unsigned zs_value_bytes(zesort_value_type t)
{
    return t == ZESORT_VALUE_U64 ? 8u : 4u;
}

/*
 * What AUTO means: up to the small limit (ZS_SMALL_MAX of zesort_tuning.h)
 * the one launch of SMALL; above it the fastest algorithm for the device's
 * kernel flavor and n, from these measurements (u32 keys, uniform, device scan; `zesort bench
 * --backend opencl --algo cm2,cm4,onesweep --scan device --n
 * 1k,16k,256k,1m,4m,16m` with ZESORT_FLAVOR set, PoCL 3.1 on 2 Xeon
 * (Skylake-SP) cores, 2026-11-22; Mkeys/s, median of 5 (serial, then named
 * cpu) or 3 (portable):
 *
 *   flavor    algo       1K     16K    256K     1M     4M    16M
 *   serial    cm2       2.4    19.8    24.1   29.2   41.5   39.2
 *   serial    cm4       5.8    24.8    33.0   41.7   56.4   51.3
 *   serial    onesweep 12.5    35.2    38.7   51.3   43.5   50.6
 *   portable  cm2       1.5     4.1     5.9    4.8    5.9    6.7
 *   portable  cm4       2.8     6.3    10.2    9.3    7.9    5.3
 *   portable  onesweep  3.1     6.7     8.9    8.6    9.4    5.7
 *
 * serial flavor (what CPU devices run): onesweep up to 1M keys, cm4 from 4M,
 * where onesweep's 256-way scatter per pass loses to cm4's 16-way one once
 * the keys leave the caches (at 16M the two are level). The portable flavor has no consistent winner on
 * PoCL (the three are within this machine's noise, +-15%), and it exists for
 * GPUs without Intel sub-groups; like the sg flavor, which runs on Intel GPUs
 * only and cannot be timed here, it gets onesweep, argued from the traffic
 * model (48 vs 106 bytes per u32 key for cm4, bench/traffic_model.py) and the
 * ISA report (~24 vs ~87 instructions per key on dg2, bench/isa_report.py).
 */
static zesort_algo auto_algo(zs_flavor flavor, uint64_t n, uint64_t small_max)
{
    if (n <= small_max)
        return ZESORT_ALGO_SMALL;
    if (flavor == ZS_FLAVOR_SERIAL && n >= ZS_AUTO_SERIAL_CM4_FROM)
        return ZESORT_ALGO_CM4;
    return n <= ZS_OS_MAX_KEYS ? ZESORT_ALGO_ONESWEEP : ZESORT_ALGO_CM4;
}

zesort_status zs_make_request(const zesort_options *opts, uint64_t n, int pairs,
                              zs_flavor flavor, zs_plan_request *req, zesort_algo *algo,
                              zs_error *err)
{
    const zesort_options o = zs_options_or_default(opts);
    if ((unsigned)o.key_type > ZESORT_KEY_BF16 || (unsigned)o.algo > ZESORT_ALGO_SMALL ||
        (unsigned)o.scan > ZESORT_SCAN_HOST || (unsigned)o.value_type > ZESORT_VALUE_U64) {
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "invalid enum value in zesort_options (key type %d, algo %d, scan "
                            "%d, value type %d)", (int)o.key_type, (int)o.algo, (int)o.scan,
                            (int)o.value_type);
    }
    const unsigned kb = 8 * zs_key_bytes(o.key_type);
    const unsigned lo = o.bit_lo, hi = o.bit_hi == 0 ? kb : o.bit_hi; /* 0: the key's width */
    if (lo >= hi || hi > kb) {
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "bit range %u:%u is not within 0:%u with lo < hi", o.bit_lo,
                 o.bit_hi, kb);
    }
    if (n > ZESORT_MAX_KEYS) {
        return zs_error_set(err, ZESORT_ERROR_TOO_LARGE, "n = %llu exceeds the maximum of %llu keys", (unsigned long long)n,
                 (unsigned long long)ZESORT_MAX_KEYS);
    }
    const unsigned value_bytes = pairs ? zs_value_bytes(o.value_type) : 0u;
    const uint64_t small_max = zs_small_max(flavor == ZS_FLAVOR_SERIAL, kb / 8, value_bytes);
    zesort_algo a = o.algo == ZESORT_ALGO_AUTO ? auto_algo(flavor, n, small_max) : o.algo;
    if (a == ZESORT_ALGO_ONESWEEP && n > ZS_OS_MAX_KEYS) {
        return zs_error_set(err, ZESORT_ERROR_TOO_LARGE, "onesweep sorts at most %llu keys",
                 (unsigned long long)ZS_OS_MAX_KEYS);
    }
    if (a == ZESORT_ALGO_SMALL && n > small_max) {
        return zs_error_set(err, ZESORT_ERROR_TOO_LARGE,
                            "the small algorithm sorts at most %llu keys of this type on this "
                            "device in one launch; n = %llu", (unsigned long long)small_max,
                            (unsigned long long)n);
    }
    memset(req, 0, sizeof *req);
    req->radix_bits = a == ZESORT_ALGO_CM2 ? 2 : a == ZESORT_ALGO_CM4 ? 4 : (int)ZS_OS_BITS;
    req->host_scan = (a == ZESORT_ALGO_CM2 || a == ZESORT_ALGO_CM4) && o.scan == ZESORT_SCAN_HOST;
    req->n = n;
    req->key_bytes = kb / 8;
    req->value_bytes = value_bytes;
    req->small = a == ZESORT_ALGO_SMALL;
    req->key_flags = zs_key_flags((int)o.key_type, o.descending);
    req->key_type = (int)o.key_type;
    req->bit_lo = lo;
    req->bit_hi = hi;
    req->serial = flavor == ZS_FLAVOR_SERIAL;
    if (algo)
        *algo = a;
    return ZESORT_OK;
}

zesort_status zs_make_host_request(const zesort_options *opts, uint64_t n, int pairs,
                                   zs_flavor flavor, zs_plan_request *req, zesort_algo *algo,
                                   zs_error *err)
{
    const uint64_t checked = n > ZESORT_MAX_KEYS ? ZESORT_MAX_KEYS : n;
    zesort_status st = zs_make_request(opts, checked, pairs, flavor, req, algo, err);
    req->n = n;
    /* 2^57 bytes: more than any x86-64 or AArch64 address space (5-level
     * paging: 2^57), so such arrays cannot exist: refused before any access */
    if (st == ZESORT_OK && n > (UINT64_C(1) << 57) / (req->key_bytes + req->value_bytes))
        return zs_error_set(err, ZESORT_ERROR_TOO_LARGE,
                            "n = %llu: arrays of that many keys do not fit an address space",
                            (unsigned long long)n);
    return st;
}
