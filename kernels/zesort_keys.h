/*
 * zesort_keys.h — key width and key order shared by every sort kernel.
 *
 * Keys are stored untouched; kernels compute digits from the *ordered* key:
 * the unsigned value whose ascending order is the requested order.
 * Build defines ZS_KEY64: 0 for 32-bit keys, 1 for 64-bit keys; ZS_VAL64: 0
 * for 4-byte values (pairs programs), 1 for 8-byte ones.
 */
#ifndef ZESORT_KEYS_H
#define ZESORT_KEYS_H

#ifndef ZS_KEY64
#define ZS_KEY64 0
#endif

#if ZS_KEY64
typedef ulong zs_key;
#define ZS_KEY_SIGN 0x8000000000000000UL
#else
typedef uint zs_key;
#define ZS_KEY_SIGN 0x80000000u
#endif

/* Values are moved as bits, never looked at: 8-byte ones serve u64, i64,
 * f64 and pointers alike. */
#ifndef ZS_VAL64
#define ZS_VAL64 0
#endif
#if ZS_VAL64
typedef ulong zs_value;
#else
typedef uint zs_value;
#endif

/* key_flags: bits 0-1 kind (0 unsigned, 1 signed, 2 IEEE float), bit 2
 * descending, bit 3 (pairs programs, first pass only) the values are the
 * keys' input positions: the pass writes index i as the value of key i and
 * reads no value buffer (argsort: the indices are made where they are first
 * written, never uploaded). */
#define ZS_KIND_SIGNED 1u
#define ZS_KIND_FLOAT 2u
#define ZS_DESCENDING 4u
#define ZS_IOTA_VALUES 8u

/* The unsigned key whose ascending order is the requested order. Floats:
 * IEEE-754 totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN). */
inline zs_key zs_ordered(zs_key k, uint flags)
{
    const uint kind = flags & 3u;
    if (kind == ZS_KIND_SIGNED)
        k ^= ZS_KEY_SIGN;
    else if (kind == ZS_KIND_FLOAT)
        k = (k & ZS_KEY_SIGN) ? ~k : (k | ZS_KEY_SIGN);
    return (flags & ZS_DESCENDING) ? ~k : k;
}

inline uint zs_digit(zs_key key, uint shift, uint digit_mask, uint flags)
{
    return (uint)(zs_ordered(key, flags) >> shift) & digit_mask;
}

#endif /* ZESORT_KEYS_H */
