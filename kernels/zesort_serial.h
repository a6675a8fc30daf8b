/*
 * zesort_serial.h — the serial flavor's (ZS_SERIAL) two serial steps, shared by
 * the CM kernels (a work-item per chunk) and onesweep (a work-item
 * per tile). Included only when ZS_SERIAL is set: the other flavors never see
 * these functions (an unused inline function once made IGC spill elsewhere).
 */
#ifndef ZESORT_SERIAL_H
#define ZESORT_SERIAL_H

#include "zesort_keys.h"

/* counts[d] += keys in [begin, end) whose digit is d. */
inline void zs_serial_count(__global const zs_key *keys, ulong begin, ulong end, uint *counts,
                            uint shift, uint digit_mask, uint key_flags)
{
    for (ulong i = begin; i < end; ++i)
        ++counts[zs_digit(keys[i], shift, digit_mask, key_flags)];
}

/* Stable scatter of [begin, end) in key order: the key with digit d goes to
 * slot next[d]++, so equal digits leave in input order. Values follow their
 * keys when `values_in` is not NULL. */
inline void zs_serial_scatter(__global const zs_key *keys_in, __global zs_key *keys_out,
                              __global const uint *values_in, __global uint *values_out,
                              ulong begin, ulong end, uint *next, uint shift, uint digit_mask,
                              uint key_flags)
{
    for (ulong i = begin; i < end; ++i) {
        const zs_key key = keys_in[i];
        const uint slot = next[zs_digit(key, shift, digit_mask, key_flags)]++;
        keys_out[slot] = key;
        if (values_in)
            values_out[slot] = values_in[i];
    }
}

#endif /* ZESORT_SERIAL_H */
