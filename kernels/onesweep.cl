/*
 * onesweep.cl — 8-bit LSD radix sort with one read for all histograms and
 * one chained-scan pass per digit (Adinets & Merrill's Onesweep, adapted to
 * devices without forward-progress guarantees).
 *
 *   os_fill      set a buffer to a value (histograms and tile counters; the
 *                large segments' status)
 *   os_histogram every digit's 256-bin histogram in one read of the keys,
 *                and pass 0's status cleared
 *   os_scan_hist exclusive scan of each histogram: the digit's global base
 *   os_pass      one digit: rank a tile in local memory, find the tile's
 *                global offsets by a chained scan with decoupled look-back,
 *                scatter through local memory so writes are coalesced
 *
 * Build defines: ZS_FLAVOR_SG, ZS_SERIAL, ZS_KEY64, ZS_PAIRS, ZS_VAL64 (8-byte
 * values, zesort_keys.h). Narrow keys (8 and 16 bits: key_flags' ZS_NARROW_*)
 * run the 32-bit programs: read and written at their width, widened in
 * registers and local memory; a sub-group's loads stay 32 consecutive keys.
 * key_flags' ZS_IOTA_VALUES (first pass of an argsort): the value of key i is
 * i, made where it is staged. The shapes come
 * from zesort_tuning.h: OS_SUBGROUPS (32-lane sub-groups per work-group),
 * OS_BATCHES (batches of 32 keys per sub-group per tile), tile =
 * OS_SUBGROUPS * OS_BATCHES * 32 keys.
 *
 * The serial flavor (ZS_SERIAL) runs each tile on one work-item, in key order:
 * count, publish, look back, scatter straight to the output, with tiles of
 * ZS_OS_SERIAL_TILE keys. One-item work-groups also keep PoCL from forming
 * work-item loops around serial code, which it mis-ran here (a loop guarded
 * by `lid == 0` after the look-back loop ran once per work-item).
 *
 * Progress without forward-progress guarantees: tile ids come from an atomic
 * counter, so a tile only ever looks back at tiles that already started; and
 * a tile never waits: when a predecessor has published nothing yet, it
 * recounts that predecessor's keys itself and goes on looking back.
 *
 * Status of (tile, bin): status[tile * OS_STATUS_WORDS + bin] is the tile's
 * own count (aggregate), status[tile * OS_STATUS_WORDS + OS_BINS + bin] the
 * inclusive prefix over tiles 0..tile; OS_NOT_READY until published.
 * n <= 2^32 - 2 keeps real values apart from OS_NOT_READY. The plain sort
 * keeps two such arrays, one per pass parity (os_status_region): a pass's
 * tiles clear their words of the next pass's, so a sort is a fill, the
 * histograms, their scan and one launch per pass. The large segments'
 * passes (os_seg_pass) keep one array, filled before each pass.
 */
#include "zesort_keys.h"
#include "zesort_subgroup.h"
#include "zesort_tuning.h"

#ifndef ZS_PAIRS
#define ZS_PAIRS 0
#endif
/* Shapes from zesort_tuning.h, which the planner reads too. */
#define OS_SUBGROUPS ZS_OS_SUBGROUPS
#define OS_BATCHES ((ZS_KEY64 || ZS_PAIRS) ? ZS_OS_BATCHES_WIDE : ZS_OS_BATCHES_K32)

#define OS_BITS ZS_OS_BITS
#define OS_BINS ZS_OS_BINS
#define OS_MAX_PASSES ZS_OS_MAX_PASSES
#define OS_NOT_READY ZS_OS_NOT_READY
#define OS_STATUS_WORDS ZS_OS_STATUS_WORDS /* per tile: aggregates, then inclusive prefixes */
#define OS_TILE ZS_OS_TILE(ZS_SERIAL, ZS_KEY64 || ZS_PAIRS)
#if ZS_SERIAL
#define OS_WG 1u
#else
#define OS_WG ZS_OS_WG
#if OS_WG < OS_BINS
#error "os_pass gives one bin to each work-item: ZS_OS_SUBGROUPS must be >= 8"
#endif
#if OS_TILE > 65536
#error "os_pass packs a rank within the tile into 16 bits: tiles of at most 65536 keys"
#endif
#endif

__kernel void os_fill(__global uint *buf, uint value, uint words)
{
    const size_t i = get_global_id(0);
    if (i < words)
        buf[i] = value;
}

#if ZS_SERIAL
#include "zesort_serial.h"
#endif

/* The digit mask of pass p of the bit range [bit_lo, bit_hi). */
inline uint os_mask(uint shift, uint bit_hi)
{
    const uint width = bit_hi - shift < OS_BITS ? bit_hi - shift : OS_BITS;
    return (1u << width) - 1u;
}

#if ZS_SERIAL
/* local_hist[p * 256 + d] += keys of [begin, end) whose pass-p digit is d:
 * os_histogram_tile's walk in the serial flavor, specialised by key width. */
inline void os_serial_histogram(__global const zs_key *keys, ulong begin, ulong end,
                                __local uint *local_hist, uint passes, uint bit_lo, uint bit_hi,
                                uint key_flags)
{
    for (ulong i = begin; i < end; ++i) {
        const zs_key k = zs_serial_ordered(zs_key_load(keys, i, key_flags), key_flags);
        for (uint p = 0; p < passes; ++p) {
            const uint shift = bit_lo + p * OS_BITS;
            ++local_hist[p * OS_BINS + ((uint)(k >> shift) & os_mask(shift, bit_hi))];
        }
    }
}
#endif

/* hist[p * 256 + d] += keys of the tile at `base` (below `end`) whose
 * pass-p digit is d. The work-group's body of os_histogram and
 * os_seg_histogram; local_hist: OS_MAX_PASSES * OS_BINS words. */
inline void os_histogram_tile(__global const zs_key *keys, __global uint *hist,
                              __local uint *local_hist, ulong base, uint end, uint bit_lo,
                              uint bit_hi, uint key_flags)
{
    const uint lid = (uint)get_local_id(0);
    const uint passes = (bit_hi - bit_lo + OS_BITS - 1u) / OS_BITS;
    for (uint i = lid; i < passes * OS_BINS; i += OS_WG)
        local_hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#if ZS_SERIAL
    const ulong stop = base + OS_TILE < end ? base + OS_TILE : (ulong)end;
    ZS_BY_WIDTH(key_flags, f,
                os_serial_histogram(keys, base, stop, local_hist, passes, bit_lo, bit_hi, f));
#else
    for (uint b = 0; b < OS_BATCHES; ++b) {
        const ulong i = base + b * OS_WG + lid;
        if (i < end) {
            const zs_key k = zs_ordered(zs_key_load(keys, i, key_flags), key_flags);
            for (uint p = 0; p < passes; ++p) {
                const uint shift = bit_lo + p * OS_BITS;
                atomic_inc(&local_hist[p * OS_BINS + ((uint)(k >> shift) & os_mask(shift, bit_hi))]);
            }
        }
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < passes * OS_BINS; i += OS_WG)
        if (local_hist[i])
            atomic_add(&hist[i], local_hist[i]);
}

/* The status words of pass `pass`: two regions of as many tiles as the
 * plan's n (params[1]) makes, used by the passes in turn, so that each
 * pass's tiles clear their words of the next pass's region (os_status_clear)
 * and no launch of its own clears them: pass p + 1 starts after every tile
 * of pass p has ended, and pass p - 1, the region's last user, before. */
inline __global uint *os_status_region(__global uint *status, __global const uint *params,
                                       uint pass)
{
    const ulong tiles = ((ulong)params[1] + OS_TILE - 1u) / OS_TILE;
    return status + (pass & 1u) * tiles * OS_STATUS_WORDS;
}

/* Tile `tile`'s words of a region set to OS_NOT_READY, shared by the
 * work-group's items. */
inline void os_status_clear(__global uint *region, uint tile)
{
    __global uint *st = region + (ulong)tile * OS_STATUS_WORDS;
    for (uint i = (uint)get_local_id(0); i < OS_STATUS_WORDS; i += OS_WG)
        st[i] = OS_NOT_READY;
}

/* hist[p * 256 + d] += keys of this work-group's tile whose pass-p digit is
 * d; and the tile's status words of pass 0 cleared. */
ZS_KERNEL_WG(OS_WG)
__kernel void os_histogram(__global const zs_key *keys, __global uint *hist,
                           __global uint *status, __global const uint *params, uint bit_lo,
                           uint bit_hi, uint key_flags)
{
    __local uint local_hist[OS_MAX_PASSES * OS_BINS];
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const ulong base = (ulong)get_group_id(0) * OS_TILE;
    if (base >= n)
        return; /* uniform: grid sized for the largest n */
    os_status_clear(os_status_region(status, params, 0u), (uint)get_group_id(0));
    os_histogram_tile(keys, hist, local_hist, base, n, bit_lo, bit_hi, key_flags);
}

/*
 * Large segments: seg_classify (kernels/segsort.cl) lists them in
 * SEG_LARGE with their first tiles (zesort_tuning.h has the layout); tiles
 * never straddle segments, so tile t belongs to the last listed segment
 * whose first tile is <= t. Each segment is a onesweep sort of its own:
 * its histograms (a row of OS_BINS per pass, segment j's rows from
 * j * passes), its look-back chain (ending at its first tile, as the plain
 * sort's ends at tile 0), its keys placed from its begin. The grids are
 * sized on the host for the most tiles there can be; surplus work-groups
 * exit. The plain kernels are the case of one segment [0, n).
 */

/* The listed segment of `tile` (< the tiles listed): a binary search of
 * the first tiles (segment 0's is 0). */
inline uint os_seg_of_tile(__global const uint *large, uint tile)
{
    uint lo = 0, hi = large[ZS_SEG_LARGE_COUNT];
    while (hi - lo > 1u) {
        const uint mid = lo + (hi - lo) / 2u;
        if (large[ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * mid] <= tile)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Segment j's first tile, begin and end. */
inline __global const uint *os_seg_entry(__global const uint *large, uint j)
{
    return large + ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * j;
}

/* Every pass's histogram of each large segment: a work-group per tile. */
ZS_KERNEL_WG(OS_WG)
__kernel void os_seg_histogram(__global const zs_key *keys, __global uint *hist,
                               __global const uint *large, uint bit_lo, uint bit_hi,
                               uint key_flags)
{
    __local uint local_hist[OS_MAX_PASSES * OS_BINS];
    const uint tile = (uint)get_group_id(0);
    if (tile >= large[ZS_SEG_LARGE_TILES])
        return; /* uniform: the grid is sized for the most tiles there can be */
    const uint j = os_seg_of_tile(large, tile);
    __global const uint *e = os_seg_entry(large, j);
    const uint passes = (bit_hi - bit_lo + OS_BITS - 1u) / OS_BITS;
    os_histogram_tile(keys, hist + (ulong)j * passes * OS_BINS, local_hist,
                      (ulong)e[1] + (ulong)(tile - e[0]) * OS_TILE, e[2], bit_lo, bit_hi,
                      key_flags);
}

/* After an odd number of passes the large segments' keys (and values) are
 * in src: each tile copied home to dst. */
ZS_KERNEL_WG(OS_WG)
__kernel void os_seg_copy(__global const zs_key *src, __global zs_key *dst,
                          __global const zs_value *values_src, __global zs_value *values_dst,
                          __global const uint *large, uint key_flags)
{
#if !ZS_PAIRS
    (void)values_src;
    (void)values_dst;
#endif
    const uint tile = (uint)get_group_id(0);
    if (tile >= large[ZS_SEG_LARGE_TILES])
        return; /* uniform */
    __global const uint *e = os_seg_entry(large, os_seg_of_tile(large, tile));
    const ulong base = (ulong)e[1] + (ulong)(tile - e[0]) * OS_TILE;
    const ulong end = base + OS_TILE < e[2] ? base + OS_TILE : (ulong)e[2];
    for (ulong i = base + get_local_id(0); i < end; i += OS_WG) {
        zs_key_store(dst, i, zs_key_load(src, i, key_flags), key_flags); /* narrow keys too */
#if ZS_PAIRS
        values_dst[i] = values_src[i];
#endif
    }
}

/* One work-group per pass: hist[p * 256 + d] becomes digit d's global base.
 * (Its own code, not os_pass's scan: sharing one scan function between the
 * two kernels made IGC spill in os_pass on every target; bench/isa_report.py.) */
__attribute__((reqd_work_group_size(OS_BINS, 1, 1)))
__kernel void os_scan_hist(__global uint *hist)
{
    __local uint tmp[OS_BINS];
    const uint lid = (uint)get_local_id(0);
    __global uint *h = hist + get_group_id(0) * OS_BINS;
    const uint v = h[lid];
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < OS_BINS; off <<= 1) {
        const uint add = lid >= off ? tmp[lid - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    h[lid] = tmp[lid] - v;
}

/* Reads a status word published by another work-group. OS_FORCE_RECOUNT=1
 * (tests only: tests/unit/test_onesweep.c) makes every predecessor look
 * unpublished, so each tile recounts all its predecessors: the fallback path
 * taken deterministically instead of by chance. */
#ifndef OS_FORCE_RECOUNT
#define OS_FORCE_RECOUNT 0
#endif
inline uint os_load(__global uint *p)
{
#if OS_FORCE_RECOUNT
    (void)p;
    return OS_NOT_READY;
#else
    return atomic_or(p, 0u);
#endif
}

#if ZS_SERIAL
/* A chain of tiles: tile `first` starts at key `base`, the chain ends at key
 * `end` (the plain sort: tile 0, key 0, n; a large segment: its own). */
typedef struct os_chain {
    uint first;
    ulong base;
    uint end;
} os_chain;

/* counts[d] += keys of tile t of the chain whose digit is d. */
inline void os_serial_count(__global const zs_key *keys, uint t, os_chain c, uint *counts,
                            uint shift, uint digit_mask, uint key_flags)
{
    const ulong b = c.base + (ulong)(t - c.first) * OS_TILE;
    zs_serial_count(keys, b, b + OS_TILE < c.end ? b + OS_TILE : (ulong)c.end, counts, shift,
                    digit_mask, key_flags);
}

/* serial flavor: the steps of the sub-group version below, done by one work-item
 * per tile: count, publish, look back (recounting a predecessor that has
 * published nothing), then scatter in key order, which keeps equal digits in
 * input order and streams each digit's keys to consecutive slots. The look-
 * back ends at the chain's first tile; digit_base: the pass's digit bases
 * (os_scan_hist), to which the chain's base is added. */
inline void os_serial_tile(__global const zs_key *keys_in, __global zs_key *keys_out,
                           __global const zs_value *values_in, __global zs_value *values_out,
                           __global const uint *digit_base, __global uint *status, uint tile,
                           os_chain c, uint shift, uint digit_mask, uint key_flags)
{
    uint count[OS_BINS], exclusive[OS_BINS], recount[OS_BINS];
    for (uint b = 0; b < OS_BINS; ++b)
        count[b] = exclusive[b] = 0;
    os_serial_count(keys_in, tile, c, count, shift, digit_mask, key_flags);
    __global uint *mine = status + (ulong)tile * OS_STATUS_WORDS;
    for (uint b = 0; b < OS_BINS; ++b)
        atomic_xchg(tile == c.first ? &mine[OS_BINS + b] : &mine[b], count[b]);

    /* a bin stays open until it meets a published inclusive prefix; the walk
     * ends there or after the chain's first tile, whose count is its
     * inclusive prefix */
    uint open = OS_BINS;
    uint is_open[OS_BINS];
    for (uint b = 0; b < OS_BINS; ++b)
        is_open[b] = 1;
    for (uint t = tile; t > c.first && open != 0u;) {
        --t;
        __global uint *st = status + (ulong)t * OS_STATUS_WORDS;
        int recounted = 0;
        for (uint b = 0; b < OS_BINS; ++b) {
            if (!is_open[b])
                continue;
            const uint inclusive = os_load(&st[OS_BINS + b]);
            if (inclusive != OS_NOT_READY) {
                exclusive[b] += inclusive;
                is_open[b] = 0;
                --open;
                continue;
            }
            uint aggregate = os_load(&st[b]);
            if (aggregate == OS_NOT_READY) {
                if (!recounted) {
                    for (uint r = 0; r < OS_BINS; ++r)
                        recount[r] = 0;
                    os_serial_count(keys_in, t, c, recount, shift, digit_mask, key_flags);
                    recounted = 1;
                }
                aggregate = recount[b];
            }
            exclusive[b] += aggregate;
        }
    }

    uint next[OS_BINS]; /* each digit's next output slot */
    for (uint b = 0; b < OS_BINS; ++b) {
        if (tile != c.first)
            atomic_xchg(&mine[OS_BINS + b], exclusive[b] + count[b]);
        next[b] = (uint)c.base + digit_base[b] + exclusive[b];
    }
    /* keys-only programs are given the key buffers as values: ignore them */
    const ulong b0 = c.base + (ulong)(tile - c.first) * OS_TILE;
    zs_serial_scatter(keys_in, keys_out, values_in, values_out, ZS_PAIRS, b0,
                      b0 + OS_TILE < c.end ? b0 + OS_TILE : (ulong)c.end, next, shift,
                      digit_mask, key_flags);
}

ZS_KERNEL_WG(1)
__kernel void os_pass(__global const zs_key *keys_in, __global zs_key *keys_out,
                      __global const zs_value *values_in, __global zs_value *values_out,
                      __global uint *hist, __global uint *status, __global const uint *params,
                      uint shift, uint digit_mask, uint key_flags, uint pass)
{
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const uint tiles = (uint)(((ulong)n + OS_TILE - 1u) / OS_TILE);
    /* tile ids in start order: a tile only looks back at tiles already started */
    const uint tile = atomic_inc(&hist[ZS_OS_HIST_COUNTERS + pass]);
    if (tile >= tiles)
        return;
    os_status_clear(os_status_region(status, params, pass + 1u), tile);
    const os_chain c = {0u, 0ul, n};
    os_serial_tile(keys_in, keys_out, values_in, values_out, hist + pass * OS_BINS,
                   os_status_region(status, params, pass), tile, c, shift, digit_mask, key_flags);
}

/* One pass of every large segment: tile ids in start order over all their
 * tiles (the segments' in list order), each tile's chain its segment's. */
ZS_KERNEL_WG(1)
__kernel void os_seg_pass(__global const zs_key *keys_in, __global zs_key *keys_out,
                          __global const zs_value *values_in, __global zs_value *values_out,
                          __global const uint *hist, __global uint *status,
                          __global uint *large, uint shift, uint digit_mask, uint key_flags,
                          uint pass, uint passes)
{
    const uint tile = atomic_inc(&large[ZS_SEG_LARGE_COUNTERS + pass]);
    if (tile >= large[ZS_SEG_LARGE_TILES])
        return;
    const uint j = os_seg_of_tile(large, tile);
    __global const uint *e = os_seg_entry(large, j);
    const os_chain c = {e[0], (ulong)e[1], e[2]};
    os_serial_tile(keys_in, keys_out, values_in, values_out,
                   hist + ((ulong)j * passes + pass) * OS_BINS, status, tile, c, shift,
                   digit_mask, key_flags);
}

#else /* sub-group ranking: sg and portable flavors */

/* The digit of a key is bits [shift, shift + 8) of zs_ordered(key): the
 * key's own bits there, XOR-ed with `flip`, and also with `flip_neg` when the
 * key's sign bit is set (a negative float has every bit flipped, any other
 * key the same bits whatever its sign). os_flip gives both once per
 * launch, so a key costs a few 32-bit operations and no branch. 64-bit keys
 * are taken as two 32-bit words: Gen12 and Xe-HPG (tgllp ... dg2, mtl) have
 * no 64-bit shift, and IGC emulates one in several instructions a lane. */
inline zs_key os_flip(uint key_flags, int negative)
{
    const uint kind = key_flags & 3u;
    const zs_key all = zs_key_all(key_flags);
    zs_key x = (key_flags & ZS_DESCENDING) ? all : (zs_key)0;
    if (kind == ZS_KIND_FLOAT && negative)
        x ^= all;
    else if (kind != 0u)
        x ^= zs_key_sign(key_flags);
    return x;
}

/* pad: zs_key_pad, which brings a narrow key's sign bit to bit 31. */
inline uint os_digit(zs_key k, uint shift, uint mask, uint flip, uint flip_neg, uint pad)
{
#if ZS_KEY64
    const uint lo = (uint)k, hi = (uint)(k >> 32);
    const uint s = shift & 31u;
    const uint w = shift >= 32u ? hi : lo;
    const uint up = shift >= 32u ? 0u : hi;
    const uint raw = (w >> s) | ((up << 1) << (31u - s));
    const int top = (int)hi;
    (void)pad;
#else
    const uint raw = k >> shift;
    const int top = (int)(k << pad);
#endif
    return ((raw & mask) ^ flip) ^ ((uint)(top >> 31) & flip_neg);
}

/* Exclusive scan over the bins, bin b's value held by work-item b (OS_WG >=
 * 256): work-item b gets the sum of the values of bins below b. `sums` holds
 * OS_SUBGROUPS words of local memory (sg flavor) or OS_BINS (portable).
 * Ends with every work-item past its last access of `sums`. */
inline uint os_bin_starts(uint v, __local uint *sums)
{
    const uint lid = (uint)get_local_id(0);
#if ZS_FLAVOR_SG
    /* a sub-group scan per 32 bins, then one over the sub-groups' totals */
    const uint sg = zs_sg_id(), lane = zs_lane();
    const uint inclusive = zs_warp_scan_inclusive(lid < OS_BINS ? v : 0u);
    if (lane == ZS_LANES - 1u)
        sums[sg] = inclusive;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = lane < OS_SUBGROUPS ? sums[lane] : 0u;
    const uint below = zs_warp_broadcast(zs_warp_scan_exclusive(total), sg);
    barrier(CLK_LOCAL_MEM_FENCE);
    return below + inclusive - (lid < OS_BINS ? v : 0u);
#else
    if (lid < OS_BINS)
        sums[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < OS_BINS; off <<= 1) {
        const uint add = (lid < OS_BINS && lid >= off) ? sums[lid - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < OS_BINS)
            sums[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint inclusive = lid < OS_BINS ? sums[lid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    return inclusive - v;
#endif
}

/* A key's rank within its sub-group's run of its digit is below
 * OS_BATCHES * 32; it waits from step 1 to step 4 packed with the digit. */
#if OS_BATCHES * ZS_LANES <= 256
typedef ushort os_packed;
#define OS_RANK_BITS 8u
#else
typedef uint os_packed;
#define OS_RANK_BITS 16u
#endif
#define OS_SG_WORDS (OS_SUBGROUPS * OS_BINS)
/* Sets of peer-mask words the rank alternates between, batch by batch. The
 * portable flavor's sub-group barrier is a barrier of the whole work-group:
 * with two sets, the set a batch clears is not the next batch's, whose first
 * barrier orders the clear before the set's next use, so the barrier after
 * each batch goes (two a batch, not three). It costs OS_SG_WORDS words of
 * local memory: taken where the device has them (ZS_LOCAL_MEM_BYTES, its
 * local memory, which the OpenCL backend defines when it builds the source).
 * A real sub-group's barrier costs next to nothing: sg keeps one set. */
#define OS_LOCAL_BYTES(sets)                                                                   \
    ((1u + (sets)) * OS_SG_WORDS * 4u + OS_TILE * (ZS_KEY64 ? 8u : 4u) +                      \
     OS_TILE * (OS_RANK_BITS == 8u ? 2u : 4u) + OS_TILE * (ZS_PAIRS ? (ZS_VAL64 ? 8u : 4u) : 0u) + \
     20u)
#if !ZS_FLAVOR_SG && defined(ZS_LOCAL_MEM_BYTES) && OS_LOCAL_BYTES(2u) <= ZS_LOCAL_MEM_BYTES
#define OS_MASK_SETS 2u
#define OS_BATCH_MASKS(masks, b) ((masks) + ((b) & 1u) * OS_SG_WORDS)
#else
#define OS_MASK_SETS 1u
#define OS_BATCH_MASKS(masks, b) (masks)
#endif
#if 3 * OS_BINS * 4 + OS_TILE > OS_SG_WORDS * 4
#error "os_pass keeps three bin tables and a byte per key of the tile in sg_masks"
#endif
#if OS_SG_WORDS % (4 * OS_WG) != 0
#error "os_pass clears its bin tables in stores of 4 words per work-item"
#endif
#if ZS_FLAVOR_SG && OS_SUBGROUPS > ZS_LANES
#error "os_bin_starts scans the sub-groups' totals in one sub-group"
#endif

/*
 * One tile of OS_TILE keys per work-group of OS_SUBGROUPS sub-groups of 32
 * lanes; sub-group sg ranks OS_BATCHES consecutive batches of 32 keys.
 *
 * Ranking a batch keeps the CM design's packed lane masks and popcount: a
 * lane's peers are the lanes of the batch with its digit, as a 32-bit mask,
 * and its rank among them is popcount(peers & lanes below). The mask is
 * built in local memory, not from ballots: every lane ORs its lane bit into
 * the sub-group's word for its digit and reads the word back (one atomic
 * and one load a key, where 9 ballots cost about 50 instructions a batch);
 * the peers' highest lane then advances the digit's count and clears the
 * word for the next batch. OR is order-free, so the masks, the ranks and
 * the output are the same whatever order the lanes' atomics land in.
 *
 * Nothing of a key stays in registers from ranking to placing: the keys,
 * their digits and ranks wait in local memory. Shapes that held per-key
 * values in registers across the look-back made IGC's first compile spill
 * on every target with 128 registers of 32 bytes (a SIMD32 word takes 4 of
 * them), and IGC's retry, the binary it ships, keeps the arrays in scratch
 * memory (bench/isa_report.py --fail-on-retry).
 */
/* The local memory of a pass's work-group, declared at kernel scope
 * (OpenCL C 1.2) by os_pass and os_seg_pass and handed to os_pass_tile:
 * sg_counts, step 1: keys so far per (sub-group, digit); from step 2: the
 * first slot in the tile of the sub-group's keys of that digit. sg_masks,
 * step 1: peer masks per (sub-group, digit); from step 2 the tables of
 * os_pass_tile. tile_keys, step 1: input order; step 4: tile order.
 * tile_ranks, steps 1 to 4: digit and rank, input order. flags: arrays,
 * since clang warns on __local scalars set by one item. */
#if ZS_PAIRS
#define OS_TILE_VALUES __local zs_value tile_values[OS_TILE];
#define OS_VALUES_PARAM , __local zs_value *tile_values
#define OS_VALUES_ARG , tile_values
#else
#define OS_TILE_VALUES
#define OS_VALUES_PARAM
#define OS_VALUES_ARG
#endif
#define OS_PASS_LOCALS                                                                       \
    __local uint sg_counts[OS_SG_WORDS];                                                     \
    __local uint sg_masks[OS_MASK_SETS * OS_SG_WORDS];                                       \
    __local zs_key tile_keys[OS_TILE];                                                       \
    __local os_packed tile_ranks[OS_TILE];                                                   \
    OS_TILE_VALUES                                                                           \
    __local uint flags[5];
#define OS_PASS_LOCAL_ARGS sg_counts, sg_masks, tile_keys, tile_ranks OS_VALUES_ARG, flags
#define shared_tile flags[0]
#define need_recount flags[1]
#define pending flags[2]
#define tile_keys_held flags[3]
#define opaque_zero flags[4]

/* The work-group's tile id from `counter`, in start order (a tile only
 * looks back at tiles already started), and its tables cleared. */
inline uint os_pass_start(__global uint *counter, __local uint *sg_counts, __local uint *sg_masks,
                          __local uint *flags)
{
    const uint lid = (uint)get_local_id(0);
    if (lid == 0)
        shared_tile = atomic_inc(counter);
    /* 4 words a store: one address per store, and none that step 2 shares
     * (IGC kept each address of a loop of word stores, the very addresses of
     * step 2's loops, alive through step 1) */
    for (uint j = 0; j < OS_SG_WORDS / (4u * OS_WG); ++j) {
        vstore4((uint4)(0u), j * OS_WG + lid, sg_counts);
        vstore4((uint4)(0u), j * OS_WG + lid, sg_masks);
#if OS_MASK_SETS == 2u
        vstore4((uint4)(0u), OS_SG_WORDS / 4u + j * OS_WG + lid, sg_masks);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return shared_tile;
}

/* The digit transform of a pass: flip (descending, signed) and the flip of
 * negative floats, as os_digit takes them. */
typedef struct os_digit_form {
    uint shift, mask, flip, flip_neg, pad;
} os_digit_form;

inline os_digit_form os_digit_form_of(uint shift, uint digit_mask, uint key_flags)
{
    os_digit_form f;
    f.shift = shift;
    f.mask = digit_mask;
    f.flip = (uint)(os_flip(key_flags, 0) >> shift) & digit_mask;
    f.flip_neg = f.flip ^ ((uint)(os_flip(key_flags, 1) >> shift) & digit_mask);
    f.pad = zs_key_pad(key_flags);
    return f;
}

inline uint os_digit_of(zs_key k, os_digit_form f)
{
    return os_digit(k, f.shift, f.mask, f.flip, f.flip_neg, f.pad);
}

/* Step 1, rank: sub-group sg takes OS_BATCHES consecutive batches of 32 keys
 * of the tile (in_tile keys from tile_base), stages each key (and value) in
 * input order with its digit and its rank among the sub-group's keys of that
 * digit, and leaves in sg_counts the sub-group's count per digit. */
inline void os_rank_tile(__global const zs_key *keys_in, __global const zs_value *values_in,
                         ulong tile_base, uint in_tile, os_digit_form form, uint key_flags,
                         uint sg, uint lane,
                         __local uint *sg_counts, __local uint *sg_masks,
                         __local zs_key *tile_keys,
                         __local os_packed *tile_ranks OS_VALUES_PARAM, __local uint *flags)
{
#if !ZS_PAIRS
    (void)values_in;
#endif
    const uint lid = (uint)get_local_id(0);
    if (lid == 0) {
        tile_keys_held = in_tile; /* step 4 reads them back: see there */
        opaque_zero = 0;
    }
    __local uint *my_counts = sg_counts + sg * OS_BINS;
    __local uint *my_masks = sg_masks + sg * OS_BINS;
    const uint below = zs_lanes_below(), lane_bit = 1u << lane;
    /* The b-th key of this item is at mine + b * ZS_LANES of the tile and
     * exists while b * ZS_LANES < left (the valid lanes of a batch are its
     * lowest). */
    const uint mine = sg * (OS_BATCHES * ZS_LANES) + lane;
    const int left = (int)in_tile - (int)mine;
    __local zs_key *staged_keys = tile_keys + mine;
    __local os_packed *staged_ranks = tile_ranks + mine;
#if ZS_PAIRS
    __local zs_value *staged_values = tile_values + mine;
    __global const zs_value *my_values_in = values_in + tile_base + mine;
#endif
    for (uint b = 0; b < OS_BATCHES; ++b) {
        __local uint *masks = OS_BATCH_MASKS(my_masks, b);
        const int valid = (int)(b * ZS_LANES) < left;
        /* a lane past the tile's end loads its first key instead: no branch */
        const zs_key key = zs_key_load(keys_in, tile_base + (valid ? mine + b * ZS_LANES : 0u),
                                       key_flags);
        staged_keys[b * ZS_LANES] = key;
#if ZS_PAIRS
        if (valid) /* step 4 reads only valid slots */
            staged_values[b * ZS_LANES] = (key_flags & ZS_IOTA_VALUES)
                                              ? (zs_value)(tile_base + mine + b * ZS_LANES)
                                              : my_values_in[b * ZS_LANES];
#endif
        const uint d = os_digit_of(key, form);
        atomic_or(&masks[d], valid ? lane_bit : 0u); /* no branch: OR 0 is harmless */
        zs_sg_barrier(); /* with two sets, also after the last batch's writers */
        /* an invalid lane reads a mask without its own bit and with no valid
         * lane above it: it is nobody's peer and never the writer */
        const uint peers = masks[d];
        const uint before = my_counts[d];
        zs_sg_barrier(); /* every lane has read before the writer writes */
        if ((peers >> lane) == 1u) {
            my_counts[d] = before + popcount(peers);
            masks[d] = 0;
        }
        staged_ranks[b * ZS_LANES] = (os_packed)((d << OS_RANK_BITS) | (before + popcount(peers & below)));
#if OS_MASK_SETS == 1u
        zs_sg_barrier(); /* the masks are clear before the next batch's */
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Step 2, publish counts: work-item `bin` (< 256) publishes the tile's count
 * of its digit (*count) and returns the digit's first slot in the tile; each
 * sub-group's count in sg_counts becomes its first slot within the digit's. */
inline uint os_publish_counts(__global uint *status, uint tile, uint chain_first,
                              __local uint *sg_counts, __local uint *recount, uint *count)
{
    const uint bin = (uint)get_local_id(0);
    uint total = 0;
    if (bin < OS_BINS) {
        for (uint s = 0; s < OS_SUBGROUPS; ++s)
            total += sg_counts[s * OS_BINS + bin];
        __global uint *st = status + (ulong)tile * OS_STATUS_WORDS;
        atomic_xchg(tile == chain_first ? &st[OS_BINS + bin] : &st[bin], total);
    }
    *count = total;
    const uint start = os_bin_starts(total, recount);
    if (bin < OS_BINS) {
        uint run = start;
        for (uint s = 0; s < OS_SUBGROUPS; ++s) {
            const uint c = sg_counts[s * OS_BINS + bin];
            sg_counts[s * OS_BINS + bin] = run;
            run += c;
        }
    }
    return start;
}

/* The look-back's fallback: tile t's count per digit into recount, from its
 * keys. A rolled loop: unrolled, IGC hoisted every batch's offset (a
 * register per lane, or two for a 64-bit one) out of the look-back loop, and
 * os_pass spilled. The fallback is rare. */
inline void os_recount_tile(__global const zs_key *keys_in, uint t, uint chain_first,
                            ulong chain_base, uint chain_end, os_digit_form form, uint key_flags,
                            __local uint *recount)
{
    const uint lid = (uint)get_local_id(0);
    const ulong t_base = chain_base + (ulong)(t - chain_first) * OS_TILE;
    const uint in_t = (ulong)chain_end - t_base < OS_TILE
                          ? (uint)((ulong)chain_end - t_base) : OS_TILE;
#pragma nounroll
    for (uint b = 0; b < OS_BATCHES; ++b) {
        const uint i = b * OS_WG + lid;
        if (i < in_t)
            atomic_inc(&recount[os_digit_of(zs_key_load(keys_in, t_base + i, key_flags), form)]);
    }
}

/* Step 3, look back: work-item `bin` sums its digit's counts over the
 * chain's tiles before this one (decoupled look-back), recounting any tile
 * that has published nothing yet instead of waiting for it. */
inline uint os_look_back(__global const zs_key *keys_in, __global uint *status, uint tile,
                         uint chain_first, ulong chain_base, uint chain_end, os_digit_form form,
                         uint key_flags, __local uint *recount, __local uint *flags)
{
    const uint lid = (uint)get_local_id(0), bin = lid;
    uint exclusive = 0;
    int done = tile == chain_first || bin >= OS_BINS;
    uint t = tile;
    if (lid == 0)
        pending = tile > chain_first;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (pending) { /* uniform: local, read after a barrier */
        --t;
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read `pending` */
        if (lid == 0)
            need_recount = pending = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int missing = 0;
        if (!done) {
            __global uint *st = status + (ulong)t * OS_STATUS_WORDS;
            const uint inclusive = os_load(&st[OS_BINS + bin]);
            if (inclusive != OS_NOT_READY) {
                exclusive += inclusive;
                done = 1;
            } else {
                const uint aggregate = os_load(&st[bin]);
                if (aggregate != OS_NOT_READY)
                    exclusive += aggregate;
                else
                    missing = need_recount = 1;
            }
        }
        /* Recount tile t when some bin found nothing published. The barriers
         * are unconditional: only the work between them depends on the flag. */
        if (lid < OS_BINS)
            recount[lid] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (need_recount)
            os_recount_tile(keys_in, t, chain_first, chain_base, chain_end, form, key_flags,
                            recount);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (missing)
            exclusive += recount[bin];
        if (!done && t == chain_first)
            done = 1; /* the first tile's count is its inclusive prefix */
        if (!done)
            pending = 1;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return exclusive;
}

/* Step 4, place: the keys in tile order in local memory. Every item takes
 * its keys out of the input order before any is written in tile order.
 * Which keys exist, and where this item's keys wait, are worked out again
 * from copies in local memory (of in_tile, and of a zero): from the values
 * of step 1, IGC keeps step 1's OS_BATCHES validity flags and local
 * addresses of keys and ranks (a register each, per lane) alive across
 * steps 2 and 3, and spills. Returns the tile's key count (step 5's). */
inline uint os_place_tile(uint sg, uint mine, __local uint *sg_counts, __local zs_key *tile_keys,
                          __local os_packed *tile_ranks OS_VALUES_PARAM,
                          __local uchar *tile_digits, __local uint *flags)
{
    const uint tile_size = tile_keys_held;
    const uint mine_now = mine + opaque_zero;
    const int left_now = (int)tile_size - (int)mine_now;
    __local zs_key *held_keys = tile_keys + mine_now;
    __local os_packed *held_ranks = tile_ranks + mine_now;
#if ZS_PAIRS
    __local zs_value *held_values = tile_values + mine_now;
#endif
    zs_key keys[OS_BATCHES];
#if ZS_PAIRS
    zs_value values[OS_BATCHES];
#endif
    for (uint b = 0; b < OS_BATCHES; ++b) {
        keys[b] = held_keys[b * ZS_LANES];
#if ZS_PAIRS
        values[b] = held_values[b * ZS_LANES];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint *my_starts = sg_counts + sg * OS_BINS;
    for (uint b = 0; b < OS_BATCHES; ++b) {
        if ((int)(b * ZS_LANES) < left_now) {
            const uint packed = held_ranks[b * ZS_LANES];
            const uint d = packed >> OS_RANK_BITS;
            const uint pos = my_starts[d] + (packed & ((1u << OS_RANK_BITS) - 1u));
            tile_keys[pos] = keys[b];
            tile_digits[pos] = (uchar)d;
#if ZS_PAIRS
            tile_values[pos] = values[b];
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return tile_size;
}

/* One key store loop of step 5, for keys of type `T`. */
#if ZS_PAIRS
#define OS_WRITE_VALUE(out, i) values_out[out] = tile_values[i]
#else
#define OS_WRITE_VALUE(out, i) (void)0
#endif
#define OS_WRITE_KEYS(T)                                                                       \
    for (uint b = 0; b < OS_BATCHES; ++b) {                                                    \
        const uint i = b * OS_WG + lid;                                                        \
        if (i < tile_size) {                                                                   \
            const uint out = min(out_base[tile_digits[i]] + i, chain_end - 1u);                \
            ((__global T *)keys_out)[out] = (T)tile_keys[i];                                   \
            OS_WRITE_VALUE(out, i);                                                            \
        }                                                                                      \
    }

/* Step 5, write: consecutive work-items, consecutive slots, none past the
 * chain's end even when the keys changed between the histograms and this
 * pass (a caller's missing dependency: a wrong result then, but no write
 * out of the buffers). A clamp, not a branch: PoCL ran the 64-bit programs'
 * SPIR-V with `continue` here wrong. The key width is tested once, outside
 * the loop: with zs_key_store's width test inside it, os_seg_pass (32-bit
 * keys only, SPIR-V from ocloc run by PoCL) misplaced single keys. */
inline void os_write_tile(__global zs_key *keys_out, __global zs_value *values_out,
                          uint chain_end, uint key_flags, uint tile_size, __local uint *out_base,
                          __local uchar *tile_digits, __local zs_key *tile_keys OS_VALUES_PARAM)
{
#if !ZS_PAIRS
    (void)values_out;
#endif
    const uint lid = (uint)get_local_id(0);
    if ((key_flags & ZS_NARROW_MASK) == 0u)
        OS_WRITE_KEYS(zs_key)
    else if ((key_flags & ZS_NARROW_MASK) == ZS_NARROW_16)
        OS_WRITE_KEYS(ushort)
    else
        OS_WRITE_KEYS(uchar)
}
#undef OS_WRITE_KEYS
#undef OS_WRITE_VALUE

/* One tile of a chain: tile `chain_first` starts at key `chain_base`, the
 * chain ends at key `chain_end` (the plain sort: 0, 0, n); its look-back
 * ends at the chain's first tile, and its keys go to chain_base + the
 * pass's digit bases (digit_base, os_scan_hist's) + the tiles' before. */
inline void os_pass_tile(__global const zs_key *keys_in, __global zs_key *keys_out,
                         __global const zs_value *values_in, __global zs_value *values_out,
                         __global const uint *digit_base, __global uint *status, uint tile,
                         uint chain_first, ulong chain_base, uint chain_end, uint shift,
                         uint digit_mask, uint key_flags, __local uint *sg_counts,
                         __local uint *sg_masks, __local zs_key *tile_keys,
                         __local os_packed *tile_ranks OS_VALUES_PARAM, __local uint *flags)
{
    __local uint *recount = sg_masks;            /* look-back fallback; the scan's sums */
    __local uint *out_base = sg_masks + OS_BINS; /* digit's output slot - its first tile slot */
    __local uchar *tile_digits = (__local uchar *)(sg_masks + 3u * OS_BINS); /* tile order */
    const uint sg = zs_sg_id(), lane = zs_lane();
    const os_digit_form form = os_digit_form_of(shift, digit_mask, key_flags);
    const ulong tile_base = chain_base + (ulong)(tile - chain_first) * OS_TILE;
    const uint in_tile = (ulong)chain_end - tile_base < OS_TILE ? (uint)((ulong)chain_end - tile_base)
                                                                : OS_TILE;
    os_rank_tile(keys_in, values_in, tile_base, in_tile, form, key_flags, sg, lane, sg_counts,
                 sg_masks, tile_keys, tile_ranks OS_VALUES_ARG, flags);
    uint count;
    const uint start = os_publish_counts(status, tile, chain_first, sg_counts, recount, &count);
    const uint exclusive = os_look_back(keys_in, status, tile, chain_first, chain_base, chain_end,
                                        form, key_flags, recount, flags);
    const uint bin = (uint)get_local_id(0);
    if (bin < OS_BINS) { /* this tile's inclusive prefix, and where its keys go */
        if (tile != chain_first)
            atomic_xchg(&status[(ulong)tile * OS_STATUS_WORDS + OS_BINS + bin], exclusive + count);
        out_base[bin] = (uint)chain_base + digit_base[bin] + exclusive - start;
    }
    const uint tile_size = os_place_tile(sg, sg * (OS_BATCHES * ZS_LANES) + lane, sg_counts,
                                         tile_keys, tile_ranks OS_VALUES_ARG, tile_digits, flags);
    os_write_tile(keys_out, values_out, chain_end, key_flags, tile_size, out_base, tile_digits,
                  tile_keys OS_VALUES_ARG);
}

ZS_KERNEL_WG(OS_WG)
__kernel void os_pass(__global const zs_key *keys_in, __global zs_key *keys_out,
                      __global const zs_value *values_in, __global zs_value *values_out,
                      __global uint *hist, __global uint *status, __global const uint *params,
                      uint shift, uint digit_mask, uint key_flags, uint pass)
{
    OS_PASS_LOCALS
    const uint n = min(params[0], params[1]); /* params[1]: max n (clamps indirect counts) */
    const uint tiles = (uint)(((ulong)n + OS_TILE - 1u) / OS_TILE);
    const uint tile = os_pass_start(&hist[ZS_OS_HIST_COUNTERS + pass], sg_counts, sg_masks, flags);
    if (tile >= tiles)
        return; /* uniform */
    os_status_clear(os_status_region(status, params, pass + 1u), tile);
    os_pass_tile(keys_in, keys_out, values_in, values_out, hist + pass * OS_BINS,
                 os_status_region(status, params, pass), tile, 0u, 0ul, n, shift, digit_mask,
                 key_flags, OS_PASS_LOCAL_ARGS);
}

/* One pass of every large segment: tile ids in start order over all their
 * tiles (the segments' in list order), each tile's chain its segment's. */
ZS_KERNEL_WG(OS_WG)
__kernel void os_seg_pass(__global const zs_key *keys_in, __global zs_key *keys_out,
                          __global const zs_value *values_in, __global zs_value *values_out,
                          __global const uint *hist, __global uint *status,
                          __global uint *large, uint shift, uint digit_mask, uint key_flags,
                          uint pass, uint passes)
{
    OS_PASS_LOCALS
    const uint tile =
        os_pass_start(&large[ZS_SEG_LARGE_COUNTERS + pass], sg_counts, sg_masks, flags);
    if (tile >= large[ZS_SEG_LARGE_TILES])
        return; /* uniform */
    const uint j = os_seg_of_tile(large, tile);
    __global const uint *e = os_seg_entry(large, j);
    os_pass_tile(keys_in, keys_out, values_in, values_out,
                 hist + ((ulong)j * passes + pass) * OS_BINS, status, tile, e[0], (ulong)e[1], e[2],
                 shift, digit_mask, key_flags, OS_PASS_LOCAL_ARGS);
}
#undef shared_tile
#undef need_recount
#undef pending
#undef tile_keys_held
#undef opaque_zero
#endif /* ZS_SERIAL */
