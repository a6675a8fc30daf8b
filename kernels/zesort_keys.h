/*
 * zesort_keys.h — key width and key order shared by every sort kernel.
 *
 * Keys are stored untouched; kernels compute digits from the *ordered* key:
 * the unsigned value whose ascending order is the requested order.
 * Build defines ZS_KEY64: 0 for 32-bit keys (and the narrow ones: key_flags'
 * ZS_NARROW_*), 1 for 64-bit keys; ZS_VAL64: 0
 * for 4-byte values (pairs programs), 1 for 8-byte ones.
 */
#ifndef ZESORT_KEYS_H
#define ZESORT_KEYS_H

#ifndef ZS_KEY64
#define ZS_KEY64 0
#endif

#if ZS_KEY64
typedef ulong zs_key;
#else
typedef uint zs_key;
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
 * written, never uploaded). Bits 4-5 (32-bit programs only): the keys are
 * narrow in memory, ZS_NARROW_8 or ZS_NARROW_16 (below). */
#define ZS_KIND_SIGNED 1u
#define ZS_KIND_FLOAT 2u
#define ZS_DESCENDING 4u
#define ZS_IOTA_VALUES 8u

/* Narrow keys (u8 i8 u16 i16 f16 bf16) share the 32-bit programs: a run-time
 * width, not a build define, so they add no program binaries. They are
 * loaded and stored at their width (one or two bytes a key: the passes move
 * a quarter or half of the bytes) and held zero-extended in a zs_key in
 * registers and local memory, where the order transform works on their
 * width. The field is the bits above the key's width, over 8: the key's
 * bits are ~0u >> (8 * field). */
#define ZS_NARROW_SHIFT 4u
#define ZS_NARROW_MASK (3u << ZS_NARROW_SHIFT)
#define ZS_NARROW_16 (2u << ZS_NARROW_SHIFT)
#define ZS_NARROW_8 (3u << ZS_NARROW_SHIFT)

/* The bits a key has above its width (0 for keys as wide as zs_key). */
inline uint zs_key_pad(uint flags)
{
#if ZS_KEY64
    (void)flags;
    return 0u;
#else
    return ((flags & ZS_NARROW_MASK) >> ZS_NARROW_SHIFT) * 8u;
#endif
}

/* Every bit of the key's width, and its sign bit. */
inline zs_key zs_key_all(uint flags) { return ~(zs_key)0 >> zs_key_pad(flags); }
inline zs_key zs_key_sign(uint flags) { return zs_key_all(flags) ^ (zs_key_all(flags) >> 1); }

/* Key i of `keys`, at the width key_flags give, zero-extended. A branch the
 * whole launch takes alike (the flags are a kernel argument). */
inline zs_key zs_key_load(__global const zs_key *keys, ulong i, uint flags)
{
#if !ZS_KEY64
    const uint w = flags & ZS_NARROW_MASK;
    if (w == ZS_NARROW_8)
        return ((__global const uchar *)keys)[i];
    if (w == ZS_NARROW_16)
        return ((__global const ushort *)keys)[i];
#else
    (void)flags;
#endif
    return keys[i];
}

/* Stores key k (zero-extended, as zs_key_load gives it) as key i of `keys`. */
inline void zs_key_store(__global zs_key *keys, ulong i, zs_key k, uint flags)
{
#if !ZS_KEY64
    const uint w = flags & ZS_NARROW_MASK;
    if (w == ZS_NARROW_8) {
        ((__global uchar *)keys)[i] = (uchar)k;
        return;
    }
    if (w == ZS_NARROW_16) {
        ((__global ushort *)keys)[i] = (ushort)k;
        return;
    }
#else
    (void)flags;
#endif
    keys[i] = k;
}

/* The unsigned key whose ascending order is the requested order, within the
 * key's width. Floats: IEEE-754 totalOrder (-NaN < -inf < ... < -0 < +0 <
 * ... < +inf < +NaN), binary16 and bfloat16 as binary32 and binary64. */
inline zs_key zs_ordered(zs_key k, uint flags)
{
    const zs_key all = zs_key_all(flags), sign = zs_key_sign(flags);
    const uint kind = flags & 3u;
    if (kind == ZS_KIND_SIGNED)
        k ^= sign;
    else if (kind == ZS_KIND_FLOAT)
        k = (k & sign) ? (k ^ all) : (k | sign);
    return (flags & ZS_DESCENDING) ? (k ^ all) : k;
}

inline uint zs_digit(zs_key key, uint shift, uint digit_mask, uint flags)
{
    return (uint)(zs_ordered(key, flags) >> shift) & digit_mask;
}

#endif /* ZESORT_KEYS_H */
