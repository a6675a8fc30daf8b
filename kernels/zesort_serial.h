/*
 * zesort_serial.h — the serial flavor's (ZS_SERIAL) two serial steps, shared by
 * the CM kernels (a work-item per chunk) and onesweep (a work-item
 * per tile). Included only when ZS_SERIAL is set: the other flavors never see
 * these functions (an unused inline function once made IGC spill elsewhere).
 */
#ifndef ZESORT_SERIAL_H
#define ZESORT_SERIAL_H

#include "zesort_keys.h"

/* flags with the key width `width` (0, ZS_NARROW_16 or ZS_NARROW_8) in place
 * of their own. */
inline uint zs_with_width(uint flags, uint width) { return (flags & ~ZS_NARROW_MASK) | width; }

/* Runs STMT, which reads the key flags as WFLAGS, in one of three branches
 * where the width in WFLAGS is a constant: the loads, stores and order
 * transforms of a loop that STMT inlines fold to one width, with no test a
 * key. For the serial flavor's per-key loops (CPUs): tested a key, the
 * width made 32-bit sorts about 1.5x slower on PoCL. */
#if ZS_KEY64
#define ZS_BY_WIDTH(flags, WFLAGS, STMT)                                                       \
    do {                                                                                       \
        const uint WFLAGS = (flags);                                                           \
        STMT;                                                                                  \
    } while (0)
#else
#define ZS_BY_WIDTH(flags, WFLAGS, STMT)                                                       \
    do {                                                                                       \
        const uint zs_width_ = (flags) & ZS_NARROW_MASK;                                       \
        if (zs_width_ == ZS_NARROW_8) {                                                        \
            const uint WFLAGS = zs_with_width((flags), ZS_NARROW_8);                           \
            STMT;                                                                              \
        } else if (zs_width_ == ZS_NARROW_16) {                                                \
            const uint WFLAGS = zs_with_width((flags), ZS_NARROW_16);                          \
            STMT;                                                                              \
        } else {                                                                               \
            const uint WFLAGS = zs_with_width((flags), 0u);                                    \
            STMT;                                                                              \
        }                                                                                      \
    } while (0)
#endif

/* zs_ordered without a branch on the key's sign: the serial loops run on
 * CPUs, where a branch on a float's sign, random from key to key, was
 * mispredicted (f16 sorted at 0.86x the keys/s of u16 on PoCL). */
inline zs_key zs_serial_ordered(zs_key k, uint flags)
{
    const zs_key all = zs_key_all(flags), sign = zs_key_sign(flags);
    const uint kind = flags & 3u;
    const zs_key neg = (zs_key)0 - (zs_key)((k & sign) != 0); /* every bit when negative */
    const zs_key flip = kind == ZS_KIND_FLOAT ? (sign | (neg & all))
                        : kind == ZS_KIND_SIGNED ? sign : (zs_key)0;
    return k ^ flip ^ ((flags & ZS_DESCENDING) ? all : (zs_key)0);
}

inline uint zs_serial_digit(zs_key key, uint shift, uint digit_mask, uint flags)
{
    return (uint)(zs_serial_ordered(key, flags) >> shift) & digit_mask;
}

/* counts[d] += keys in [begin, end) whose digit is d. */
inline void zs_serial_count_loop(__global const zs_key *keys, ulong begin, ulong end,
                                 uint *counts, uint shift, uint digit_mask, uint key_flags)
{
    for (ulong i = begin; i < end; ++i)
        ++counts[zs_serial_digit(zs_key_load(keys, i, key_flags), shift, digit_mask, key_flags)];
}

inline void zs_serial_count(__global const zs_key *keys, ulong begin, ulong end, uint *counts,
                            uint shift, uint digit_mask, uint key_flags)
{
    ZS_BY_WIDTH(key_flags, f, zs_serial_count_loop(keys, begin, end, counts, shift, digit_mask, f));
}

/* Stable scatter of [begin, end) in key order: the key with digit d goes to
 * slot next[d]++, so equal digits leave in input order. Values follow their
 * keys when `pairs` is set: values_in[i], or i itself with ZS_IOTA_VALUES.
 * One body for either address space: ZS_SERIAL_SCATTER(name, __local,
 * ZS_LOCAL_KEY_LOAD, ZS_LOCAL_KEY_STORE) makes the segmented sort's scatter
 * within local memory (kernels/segsort.cl), where narrow keys wait widened.
 * NAME branches on the key width once (ZS_BY_WIDTH), NAME##_loop walks. */
#define ZS_LOCAL_KEY_LOAD(keys, i, flags) (keys)[i]
#define ZS_LOCAL_KEY_STORE(keys, i, k, flags) ((keys)[i] = (k))
#define ZS_SERIAL_SCATTER(NAME, SPACE, LOAD, STORE)                                         \
    inline void NAME##_loop(SPACE const zs_key *keys_in, SPACE zs_key *keys_out,            \
                            SPACE const zs_value *values_in, SPACE zs_value *values_out,    \
                            int pairs, ulong begin, ulong end, uint *next, uint shift,      \
                            uint digit_mask, uint key_flags)                                \
    {                                                                                       \
        const int iota = (key_flags & ZS_IOTA_VALUES) != 0;                                 \
        for (ulong i = begin; i < end; ++i) {                                               \
            const zs_key key = LOAD(keys_in, i, key_flags);                                 \
            const uint slot = next[zs_serial_digit(key, shift, digit_mask, key_flags)]++;   \
            STORE(keys_out, slot, key, key_flags);                                          \
            if (pairs)                                                                      \
                values_out[slot] = iota ? (zs_value)i : values_in[i];                       \
        }                                                                                   \
    }                                                                                       \
    inline void NAME(SPACE const zs_key *keys_in, SPACE zs_key *keys_out,                   \
                     SPACE const zs_value *values_in, SPACE zs_value *values_out, int pairs, \
                     ulong begin, ulong end, uint *next, uint shift, uint digit_mask,       \
                     uint key_flags)                                                        \
    {                                                                                       \
        ZS_BY_WIDTH(key_flags, f,                                                           \
                    NAME##_loop(keys_in, keys_out, values_in, values_out, pairs, begin, end, \
                                next, shift, digit_mask, f));                               \
    }
ZS_SERIAL_SCATTER(zs_serial_scatter, __global, zs_key_load, zs_key_store)

#endif /* ZESORT_SERIAL_H */
