/*
 * key_order.h — the host's ordered key (README, "Orders"), for every loop of
 * the C fallback that reads a key's order: the radix passes
 * (cpu_radix_kernels.h), the split's partition (cpu_partition.c), top-k
 * (cpu_topk.c), the counting sort, the segments' sorts and the vqsort
 * ranges' partitions.
 *
 * The ordered key of k is dk(k) ^ c: dk(k), the "digit key", is the key
 * itself, or for floats the key with every bit below the sign flipped when
 * the sign is set (a float's totalOrder then is a signed integer's); c is
 * the sign bit for signed and float keys, xor all bits for descending. A
 * loop over one digit applies c to bin numbers rather than to every key,
 * and dk is its own inverse, so the key at ordered position o is
 * dk(o ^ c).
 *
 * key_flags as the kernels': kind (0 unsigned, 1 signed, 2 float) |
 * descending << 2.
 */
#ifndef ZESORT_KEY_ORDER_H
#define ZESORT_KEY_ORDER_H

#include <stdint.h>

#if defined(__GNUC__)
#define ZS_KEY_INLINE static inline __attribute__((always_inline))
#else
#define ZS_KEY_INLINE static inline
#endif

/* Whether dk flips the keys of key_flags: floats. */
ZS_KEY_INLINE int zs_key_is_float(uint32_t key_flags)
{
    return (key_flags & 3u) == 2u;
}

/* Every bit of a key of key_bytes (1, 2, 4 or 8). */
ZS_KEY_INLINE uint64_t zs_key_all_bits(unsigned key_bytes)
{
    return key_bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (key_bytes * 8u)) - 1u;
}

/* c: the ordered key is dk(k) ^ c. */
ZS_KEY_INLINE uint64_t zs_key_order_xor(unsigned key_bytes, uint32_t key_flags)
{
    const uint64_t sign = UINT64_C(1) << (key_bytes * 8u - 1u);
    return ((key_flags & 3u) != 0 ? sign : 0) ^ ((key_flags & 4u) ? zs_key_all_bits(key_bytes) : 0);
}

/* dk(k) for one key width, with flt (zs_key_is_float) usually a constant
 * of the loop: branch-free, so that the loops over keys vectorise, and in
 * the key's own type, so that narrow keys stay narrow in those loops. */
#define ZS_KEY_DK_WIDTH(SFX, T)                                                            \
    ZS_KEY_INLINE T zs_key_dk##SFX(T k, int flt)                                           \
    {                                                                                      \
        const T neg = (T)((T)0 - (T)(k >> (sizeof(T) * 8u - 1u))); /* ones: sign set */ \
        const T fm = (T)((T)0 - (T)(flt != 0));                    /* ones: floats */   \
        return (T)(k ^ (neg & fm & (T)((T)~(T)0 >> 1)));                                   \
    }
ZS_KEY_DK_WIDTH(8, uint8_t)
ZS_KEY_DK_WIDTH(16, uint16_t)
ZS_KEY_DK_WIDTH(32, uint32_t)
ZS_KEY_DK_WIDTH(64, uint64_t)
#undef ZS_KEY_DK_WIDTH

/* dk(k) by the type of k (uint8_t to uint64_t). */
#define zs_key_dk(k, flt)                                                                  \
    _Generic((k), uint8_t: zs_key_dk8, uint16_t: zs_key_dk16, uint32_t: zs_key_dk32,      \
             uint64_t: zs_key_dk64)((k), (flt))

#endif
