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

#endif
