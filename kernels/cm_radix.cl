/*
 * cm_radix.cl — the C-for-Metal radix sort design, one pass over a digit of
 * RADIX_BITS bits (2 or 4, given with -D). One sub-group of 32 lanes (one
 * hardware thread on Intel) owns one chunk of 256 keys and walks it in 8
 * batches of 32 keys, exactly as the CM tutorial's threads do.
 *
 * Build defines: RADIX_BITS (2|4), ZS_FLAVOR_SG (0|1).
 * n is read from params[0] so one launch grid (sized for the largest n) also
 * serves sorts whose n is only known on the device.
 * Tables are bin-major: table[bin * chunks + chunk], chunks = ceil(n / 256).
 */
#include "zesort_subgroup.h"

#if !defined(RADIX_BITS) || (RADIX_BITS != 2 && RADIX_BITS != 4)
#error "RADIX_BITS must be 2 or 4"
#endif

#define BINS (1u << RADIX_BITS)
#define CHUNK_KEYS 256u
#define BATCHES (CHUNK_KEYS / ZS_LANES)

inline ulong zs_chunk_count(uint n) { return ((ulong)n + CHUNK_KEYS - 1u) / CHUNK_KEYS; }

inline uint zs_digit(uint key, uint shift) { return (key >> shift) & (BINS - 1u); }

/*
 * Step 1 — count. Each lane keeps private counters for every bin (the CM
 * matrix<ushort, BINS, 32> becomes BINS registers per lane), then the lanes
 * reduce them into the chunk's histogram.
 */
ZS_SG_KERNEL __kernel void cm_count(__global const uint *keys, __global uint *table,
                                    __global const uint *params, uint shift)
{
    ZS_SG_SCRATCH
    const uint n = params[0];
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
            const uint d = zs_digit(keys[i], shift);
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
ZS_SG_KERNEL __kernel void cm_bucket(__global const uint *keys_in, __global uint *keys_out,
                                     __global const uint *table, __global const uint *params,
                                     uint shift)
{
    ZS_SG_SCRATCH
    const uint n = params[0];
    const ulong chunks = zs_chunk_count(n);
    const ulong chunk = get_group_id(0);
    if (chunk >= chunks)
        return;
    const uint lane = zs_lane();
    const ulong base = chunk * CHUNK_KEYS + lane;
    const uint below = zs_lanes_below();

    uint next = lane < BINS ? table[lane * chunks + chunk] : 0u;
    for (uint batch = 0; batch < BATCHES; ++batch) {
        const ulong i = base + batch * ZS_LANES;
        const uint valid = i < n ? 1u : 0u;
        const uint key = valid ? keys_in[i] : 0u;
        const uint d = zs_digit(key, shift);

        uint peers, owned;
        zs_digit_masks(d, valid, RADIX_BITS, &peers, &owned, ZS_SG_SCRATCH_ARG);
        const uint rank = popcount(peers & below);
        const uint slot = zs_shuffle(next, d, ZS_SG_SCRATCH_ARG) + rank;
        if (valid)
            keys_out[slot] = key;
        next += popcount(owned); /* meaningful on lanes < BINS only */
    }
}
