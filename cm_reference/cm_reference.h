/*
 * cm_reference.h — the C-for-Metal radix sort design as plain C: a bit-exact
 * model of what the GPU kernels produce (count table, prefix table, bucket
 * output), used by the tests as the oracle. Readable first, fast second.
 *
 * Digit: d(key) = (key >> shift) & (bins - 1), bins = 1 << bits, bits in {2,4}.
 * Chunks of CMREF_CHUNK = 256 keys; chunks = ceil(n / 256); the last chunk may
 * be partial. Tables are bin-major: table[bin * chunks + chunk].
 */
#ifndef CM_REFERENCE_H
#define CM_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#define CMREF_CHUNK 256u
#define CMREF_LANES 32u

uint64_t cmref_chunks(uint64_t n);

/* Step 1 (count kernel): table[bin*chunks+chunk] = keys of `chunk` whose digit is bin. */
void cmref_count(const uint32_t *keys, uint64_t n, unsigned bits, unsigned shift, uint32_t *table);

/* Step 2 (prefix): exclusive scan of the bin-major table, in place (uint32, wraps). */
void cmref_prefix(uint32_t *table, uint64_t len);

/* Step 3 (bucket kernel): scatter keys to out using prefix table `prefix`, ranking
 * each batch of 32 keys with lane masks + popcount exactly as the kernel does. */
void cmref_bucket(const uint32_t *in, uint32_t *out, uint64_t n, unsigned bits, unsigned shift,
                  const uint32_t *prefix);

/* The full sort: 32/bits passes of count, prefix, bucket. Returns 0, -1 on OOM. */
int cmref_sort_u32(uint32_t *keys, uint64_t n, unsigned bits);

/* ---- every key type, values, descending order, bit ranges (docs/design.md 1.3) ---- */

/* Key types, in the order of zesort_key_type (the oracle does not include zesort.h). */
typedef enum cmref_key_type {
    CMREF_U32 = 0,
    CMREF_I32 = 1,
    CMREF_F32 = 2,
    CMREF_U64 = 3,
    CMREF_I64 = 4,
    CMREF_F64 = 5
} cmref_key_type;

/* Width of a key type in bits (32 or 64), 0 for an unknown type. */
unsigned cmref_key_bits(cmref_key_type type);

/* The ordered key: the unsigned integer whose ascending order is the requested
 * order of `raw` (the key's bit pattern, zero-extended for 32-bit types).
 * Unsigned: raw. Signed: by value (two's complement, sign bit flipped).
 * Floats: IEEE-754 totalOrder, -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf
 * < +NaN, NaNs of one sign ordered by payload (negative ones reversed).
 * Descending: the complement, so ascending order of it is the reverse order. */
uint64_t cmref_ordered_key(uint64_t raw, cmref_key_type type, int descending);

/* The typed full sort, as the CM kernels do it: keys (n elements of `type`,
 * in place) and values (NULL, or n uint32_t moved with their keys) are moved
 * untouched, every pass computes its digit from the ordered key:
 * digit = (ordered >> shift) & mask for shift = bit_lo, bit_lo + bits, ...
 * < bit_hi; the last digit is narrower (mask = 2^(bit_hi - shift) - 1) when
 * bit_hi - bit_lo is not a multiple of `bits`. Each pass is count, prefix,
 * bucket exactly like cmref_count/prefix/bucket (tables of 2^bits bins).
 * Stable, descending included. bit_hi == 0 means the key's width.
 * Returns 0; -1 (keys and values untouched) for bits not 2 or 4, an unknown
 * type, bit_lo >= bit_hi or bit_hi beyond the key's width, or out of memory. */
int cmref_sort(void *keys, uint32_t *values, uint64_t n, cmref_key_type type, int descending,
               unsigned bit_lo, unsigned bit_hi, unsigned bits);

#endif
