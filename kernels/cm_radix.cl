/*
 * cm_radix.cl — the C-for-Metal radix sort design, one pass over a digit of
 * RADIX_BITS bits (2 or 4, given with -D). One sub-group of 32 lanes (one
 * hardware thread on Intel) owns one chunk of ZS_CHUNK_KEYS (256) keys and
 * walks it in ZS_CM_BATCHES (8) batches of 32 keys, exactly as the CM
 * tutorial's threads do (sizes: zesort_tuning.h).
 *
 * Build defines: RADIX_BITS (2|4), ZS_FLAVOR_SG (0|1), ZS_SERIAL (0|1: the
 * serial flavor), ZS_KEY64 (0: 32-bit keys, 1: 64-bit keys), ZS_PAIRS (1: u32
 * values move with their keys). Narrow keys (8 and 16 bits) run the 32-bit
 * programs, loaded and stored at their width (key_flags, zesort_keys.h).
 * n is read from params: min(params[0], params[1]) (count, max n: an indirect
 * count above max n is clamped on the device) so one launch grid (sized for the largest n) also
 * serves sorts whose n is only known on the device.
 * ZS_VAL64 (with ZS_PAIRS): the values are 8 bytes (zesort_keys.h), moved by
 * the same stores as 4-byte ones. key_flags' ZS_IOTA_VALUES (first pass of an
 * argsort): the value of key i is i, made here instead of read.
 * Tables are bin-major: table[bin * chunks + chunk], chunks = ceil(n / CHUNK_KEYS).
 *
 * Key order: keys are stored untouched; every pass computes its digit from
 * the *ordered* key (signed: sign bit flipped; float: all bits flipped when
 * negative, else the sign bit; descending: every bit flipped). So the
 * transforms cost a few ALU operations inside the reads the passes do anyway
 * and never an extra pass over memory. digit_mask narrows the last digit of a
 * bit range [lo, hi) whose width is not a multiple of RADIX_BITS.
 */
#include "zesort_keys.h"
#include "zesort_subgroup.h"
#include "zesort_tuning.h"

#if !defined(RADIX_BITS) || (RADIX_BITS != 2 && RADIX_BITS != 4)
#error "RADIX_BITS must be 2 or 4"
#endif
#ifndef ZS_PAIRS
#define ZS_PAIRS 0
#endif

#define BINS (1u << RADIX_BITS)
#define CHUNK_KEYS ZS_CHUNK_KEYS /* zesort_tuning.h */
#define BATCHES ZS_CM_BATCHES

inline ulong zs_chunk_count(uint n) { return ((ulong)n + CHUNK_KEYS - 1u) / CHUNK_KEYS; }

#if ZS_SERIAL
#include "zesort_serial.h"
/*
 * serial flavor: work-item `chunk` walks its chunk's keys in order. Count
 * keeps one counter per bin; bucket keeps each bin's next free slot and bumps
 * it per key, which is stable for the same reason the lane masks are: equal
 * digits leave in input order. Work-groups of 32 items (32 chunks) keep
 * PoCL's per-group cost low.
 */
inline ulong cm_serial_end(ulong chunk, uint n)
{
    const ulong end = (chunk + 1u) * CHUNK_KEYS;
    return end < n ? end : n;
}

ZS_SG_KERNEL __kernel void cm_count(__global const zs_key *keys, __global uint *table,
                                    __global const uint *params, uint shift, uint digit_mask,
                                    uint key_flags)
{
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const ulong chunks = zs_chunk_count(n);
    const ulong chunk = get_global_id(0);
    if (chunk >= chunks)
        return;
    uint counters[BINS];
    for (uint b = 0; b < BINS; ++b)
        counters[b] = 0;
    zs_serial_count(keys, chunk * CHUNK_KEYS, cm_serial_end(chunk, n), counters, shift,
                    digit_mask, key_flags);
    for (uint b = 0; b < BINS; ++b)
        table[b * chunks + chunk] = counters[b];
}

ZS_SG_KERNEL __kernel void cm_bucket(__global const zs_key *keys_in, __global zs_key *keys_out,
                                     __global const zs_value *values_in,
                                     __global zs_value *values_out,
                                     __global const uint *table, __global const uint *params,
                                     uint shift, uint digit_mask, uint key_flags)
{
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const ulong chunks = zs_chunk_count(n);
    const ulong chunk = get_global_id(0);
    if (chunk >= chunks)
        return;
    uint next[BINS];
    for (uint b = 0; b < BINS; ++b)
        next[b] = table[b * chunks + chunk];
    /* keys-only programs are given the key buffers as values: ignore them */
    zs_serial_scatter(keys_in, keys_out, values_in, values_out, ZS_PAIRS, chunk * CHUNK_KEYS,
                      cm_serial_end(chunk, n), next, shift, digit_mask, key_flags);
}

#else /* sub-group ranking: sg and portable flavors */

/*
 * Step 1 — count. Each lane keeps private counters for every bin (the CM
 * matrix<ushort, BINS, 32> becomes BINS registers per lane), then the lanes
 * reduce them into the chunk's histogram.
 */
ZS_SG_KERNEL __kernel void cm_count(__global const zs_key *keys, __global uint *table,
                                    __global const uint *params, uint shift, uint digit_mask,
                                    uint key_flags)
{
    ZS_SG_SCRATCH
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const ulong chunks = zs_chunk_count(n);
    const ulong chunk = get_group_id(0);
    if (chunk >= chunks) /* whole work-group leaves together: grid sized for max n */
        return;
    const uint lane = zs_lane();
    const ulong base = chunk * CHUNK_KEYS + lane;

    uint counters[BINS];
    for (uint b = 0; b < BINS; ++b)
        counters[b] = 0;
    for (uint batch = 0; batch < BATCHES; ++batch) {
        const ulong i = base + batch * ZS_LANES;
        if (i < n) {
            const uint d = zs_digit(zs_key_load(keys, i, key_flags), shift, digit_mask, key_flags);
            /* compare-and-add on every bin: no dynamic indexing of registers */
            for (uint b = 0; b < BINS; ++b)
                counters[b] += (d == b) ? 1u : 0u;
        }
    }
    const uint total = zs_bin_totals(counters, BINS, ZS_SG_SCRATCH_ARG);
    if (lane < BINS) /* lane b writes bin b: BINS coalesced-ish stores */
        table[lane * chunks + chunk] = total;
}

/*
 * Step 3 — bucket. Lane b (< BINS) owns the next free output slot of bin b,
 * starting from the scanned table. For each batch of 32 keys every lane gets
 * its peers — the lanes with the same digit — as a packed lane mask; its rank
 * among them is popcount(peers & lanes_below_me), so equal digits keep input
 * order (stable). The mask of lanes whose digit equals my lane id gives bin
 * b's count in the batch, which advances bin b's slot.
 */
ZS_SG_KERNEL __kernel void cm_bucket(__global const zs_key *keys_in, __global zs_key *keys_out,
                                     __global const zs_value *values_in,
                                     __global zs_value *values_out,
                                     __global const uint *table, __global const uint *params,
                                     uint shift, uint digit_mask, uint key_flags)
{
    ZS_SG_SCRATCH
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const ulong chunks = zs_chunk_count(n);
    const ulong chunk = get_group_id(0);
    if (chunk >= chunks)
        return;
    const uint lane = zs_lane();
    const ulong base = chunk * CHUNK_KEYS + lane;
    const uint below = zs_lanes_below();

#if !ZS_PAIRS
    (void)values_in;
    (void)values_out;
#endif
    uint next = lane < BINS ? table[lane * chunks + chunk] : 0u;
    for (uint batch = 0; batch < BATCHES; ++batch) {
        const ulong i = base + batch * ZS_LANES;
        const uint valid = i < n ? 1u : 0u;
        const zs_key key = valid ? zs_key_load(keys_in, i, key_flags) : (zs_key)0;
        const uint d = zs_digit(key, shift, digit_mask, key_flags);

        uint peers, owned;
        zs_digit_masks(d, valid, RADIX_BITS, &peers, &owned, ZS_SG_SCRATCH_ARG);
        const uint rank = popcount(peers & below);
        const uint slot = zs_shuffle(next, d, ZS_SG_SCRATCH_ARG) + rank;
        if (valid) {
            zs_key_store(keys_out, slot, key, key_flags);
#if ZS_PAIRS
            values_out[slot] = (key_flags & ZS_IOTA_VALUES) ? (zs_value)i : values_in[i];
#endif
        }
        next += popcount(owned); /* meaningful on lanes < BINS only */
    }
}
#endif /* ZS_SERIAL */
