/*
 * segsort.cl — segmented sort of short and medium segments: one
 * work-group sorts whole segments, each on its own, by LSD passes over the
 * segment's own stretch of global memory (ping-pong with TMP). No count
 * table, no scan and no second launch: a segment of 16 keys costs a few
 * batches, not a plan's launch sequence, and thousands of segments sort in
 * one launch.
 *
 *   seg_sort(keys_in, keys, tmp, values_in, values, values_tmp, offsets,
 *            params, segments, max_len, bit_lo, bit_hi, key_flags)
 *
 * offsets: segments + 1 ulong key positions, checked by the host
 * (non-decreasing, offsets[segments] <= n). Work-group g owns the key
 * positions [g * SEG_WINDOW, (g + 1) * SEG_WINDOW) and sorts every segment
 * that STARTS there and holds at most max_len keys (longer ones are the
 * host's: global passes; ~0u sorts every segment here). Windows are fixed by
 * position, so the grid is ceil(n / SEG_WINDOW) whatever the offsets, which
 * only the device reads (interop: the caller's device memory). A window's
 * work is its own segments: at most SEG_WINDOW + max_len keys.
 *
 * sg and portable flavors: 32 lanes walk a segment in batches of 32 keys;
 * per 4-bit digit one counting walk (bin b's count on lane b, from the CM
 * lane masks: popcount(owned)) and one scatter walk ranked exactly as
 * cm_bucket ranks (popcount(peers & lanes below) + the bin's next slot), so
 * every pass is stable. The shapes of the code (one loop for both walks,
 * buffers as kernel arguments, 32-bit indices, a branch-free digit, a
 * sub-group scan) are what keep both IGCs from spilling in SIMD32
 * (bench/isa_report.py). serial flavor (CPU devices): one work-item per
 * window, insertion sort up to SEG_INSERTION keys, above that every digit's
 * counts in one walk, then 8-bit passes, skipping a digit all keys share:
 * up to ZS_SEG_LOCAL_SERIAL keys between two arrays in local memory (copied
 * in and out), longer ones with zs_serial_scatter between keys and tmp.
 *
 * keys_in (values_in) is the input: keys itself for a sort in place, else
 * a buffer only read (the caller's host memory on devices that share it:
 * run_plan.c borrows it), and every segment is then written to keys: those
 * of fewer than two keys copied, and the plan has none above max_len.
 *
 * Build defines: ZS_FLAVOR_SG, ZS_SERIAL, ZS_KEY64, ZS_PAIRS, ZS_VAL64 (as for
 * the other programs). key_flags: kind, descending and the narrow width
 * (zesort_keys.h; never ZS_IOTA_VALUES).
 */
#include "zesort_keys.h"
#include "zesort_subgroup.h"
#include "zesort_tuning.h"

#ifndef ZS_PAIRS
#define ZS_PAIRS 0
#endif

#define SEG_WINDOW ZS_SEG_WINDOW(ZS_SERIAL)
#define SEG_INSERTION ZS_SEG_INSERTION
#define SEG_LARGE_MIN ZS_SEG_LARGE_MIN(ZS_SERIAL)

/* The first s in [0, count] with offsets[s] >= pos (offsets non-decreasing). */
inline uint seg_lower_bound(__global const ulong *offsets, uint count, ulong pos)
{
    uint lo = 0, hi = count + 1u;
    while (lo < hi) {
        const uint mid = lo + (hi - lo) / 2u;
        if (offsets[mid] < pos)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

/* The mask of the digit at `shift`: `bits` wide, narrower at the top of the range. */
inline uint seg_digit_mask(uint shift, uint bit_hi, uint bits)
{
    const uint width = bit_hi - shift < bits ? bit_hi - shift : bits;
    return (1u << width) - 1u;
}

/* [b, e) of the input copied to keys (and values) where they differ (out
 * of place): the work-group's lanes share the copy, then meet. */
inline void seg_copy_in(__global const zs_key *keys_in, __global zs_key *keys,
                        __global const zs_value *values_in, __global zs_value *values, uint b,
                        uint e, uint key_flags)
{
#if !ZS_PAIRS
    (void)values_in;
    (void)values;
#endif
    if (keys_in == (__global const zs_key *)keys)
        return; /* uniform: kernel arguments */
#if ZS_SERIAL
    const uint first = b, stride = 1u;
#else
    const uint first = b + zs_lane(), stride = ZS_LANES;
#endif
    for (uint i = first; i < e; i += stride) {
        zs_key_store(keys, i, zs_key_load(keys_in, i, key_flags), key_flags);
#if ZS_PAIRS
        values[i] = values_in[i];
#endif
    }
#if !ZS_SERIAL
    barrier(CLK_GLOBAL_MEM_FENCE);
#endif
}

#if ZS_SERIAL
#include "zesort_serial.h"

#define SEG_BITS 8u
#define SEG_BINS (1u << SEG_BITS)

/* The bits [bit_lo, bit_hi) of the ordered key: what equal keys share. */
inline zs_key seg_rank_key(zs_key k, uint bit_lo, uint bit_hi, uint key_flags)
{
    const zs_key r = zs_serial_ordered(k, key_flags) >> bit_lo;
    const uint width = bit_hi - bit_lo;
    return width >= sizeof(zs_key) * 8u ? r : r & (((zs_key)1 << width) - 1u);
}

/* Stable insertion sort of [b, e): short segments, where a pass's 256
 * counters cost more than the compares. */
inline void seg_insertion(__global zs_key *keys, __global zs_value *values, ulong b, ulong e,
                          uint bit_lo, uint bit_hi, uint key_flags)
{
#if !ZS_PAIRS
    (void)values;
#endif
    for (ulong i = b + 1u; i < e; ++i) {
        const zs_key k = zs_key_load(keys, i, key_flags);
        const zs_key r = seg_rank_key(k, bit_lo, bit_hi, key_flags);
#if ZS_PAIRS
        const zs_value v = values[i];
#endif
        ulong j = i;
        for (; j > b && seg_rank_key(zs_key_load(keys, j - 1u, key_flags), bit_lo, bit_hi,
                                     key_flags) > r;
             --j) {
            zs_key_store(keys, j, zs_key_load(keys, j - 1u, key_flags), key_flags);
#if ZS_PAIRS
            values[j] = values[j - 1u];
#endif
        }
        zs_key_store(keys, j, k, key_flags);
#if ZS_PAIRS
        values[j] = v;
#endif
    }
}

#define SEG_MAX_PASSES (ZS_KEY64 ? 8u : 4u)

/* counts[p * SEG_BINS + d]: the keys of [b, e) whose pass-p digit is d, all
 * passes' counts from one walk (onesweep's histogram step). The pass loop
 * has a constant trip count and the digits' masks are hoisted, so it
 * unrolls: with a run-time count the per-key loop recomputed every mask and
 * was half the kernel's time on PoCL (perf). A pass beyond `passes` counts
 * into its bin 0 (mask 0: zeroed, never read). */
inline void seg_histograms(__global const zs_key *keys, ulong b, ulong e, uint *counts,
                           uint passes, uint bit_lo, uint bit_hi, uint key_flags)
{
    uint mask[SEG_MAX_PASSES];
    for (uint p = 0; p < SEG_MAX_PASSES; ++p)
        mask[p] = p < passes ? seg_digit_mask(bit_lo + p * SEG_BITS, bit_hi, SEG_BITS) : 0u;
    for (uint i = 0; i < passes * SEG_BINS; ++i)
        counts[i] = 0;
    for (uint p = passes; p < SEG_MAX_PASSES; ++p)
        counts[p * SEG_BINS] = 0;
    for (ulong i = b; i < e; ++i) {
        const zs_key k = zs_serial_ordered(zs_key_load(keys, i, key_flags), key_flags) >> bit_lo;
#pragma unroll
        for (uint p = 0; p < SEG_MAX_PASSES; ++p)
            ++counts[p * SEG_BINS + ((uint)(k >> (p * SEG_BITS)) & mask[p])];
    }
}

/* next[d] (d <= mask): base + the counts of the digits below d. 1 when one
 * digit holds all len keys: the pass would move nothing. */
inline uint seg_starts(uint *next, uint mask, uint base, uint len)
{
    uint sum = base, shared = 0;
    for (uint d = 0; d <= mask; ++d) {
        const uint c = next[d];
        shared |= c == len;
        next[d] = sum;
        sum += c;
    }
    return shared;
}

#define SEG_LOCAL ZS_SEG_LOCAL_SERIAL
#define SEG_LOCAL_VALUES (ZS_PAIRS ? SEG_LOCAL : 1u)

/* zs_serial_scatter within local memory (seg_sort_local). */
ZS_SERIAL_SCATTER(seg_local_scatter, __local, ZS_LOCAL_KEY_LOAD, ZS_LOCAL_KEY_STORE)

/* A segment [b, e) of at most SEG_LOCAL keys, counted already: in, every
 * pass between the local arrays (cache-resident whatever the segment), out. */
inline void seg_sort_local(__global const zs_key *keys_in, __global zs_key *keys,
                           __global const zs_value *values_in, __global zs_value *values, uint b,
                           uint e, uint *counts, uint passes, uint bit_lo, uint bit_hi, uint key_flags,
                           __local zs_key *la, __local zs_key *lb, __local zs_value *lva,
                           __local zs_value *lvb)
{
    const uint len = e - b;
    for (uint i = 0; i < len; ++i) {
        la[i] = zs_key_load(keys_in, b + i, key_flags);
#if ZS_PAIRS
        lva[i] = values_in[b + i];
#endif
    }
    __local zs_key *src = la, *dst = lb;
    __local zs_value *vsrc = lva, *vdst = lvb;
    uint moved = 0;
    for (uint p = 0; p < passes; ++p) {
        const uint shift = bit_lo + p * SEG_BITS, mask = seg_digit_mask(shift, bit_hi, SEG_BITS);
        uint *next = counts + p * SEG_BINS;
        if (seg_starts(next, mask, 0u, len))
            continue;
        seg_local_scatter(src, dst, vsrc, vdst, ZS_PAIRS, 0, len, next, shift, mask, key_flags);
        __local zs_key *t = src;
        src = dst, dst = t;
        __local zs_value *vt = vsrc;
        vsrc = vdst, vdst = vt;
        moved = 1;
    }
    /* out of place, unmoved keys go out too */
    moved |= keys_in != (__global const zs_key *)keys;
    for (uint i = 0; moved && i < len; ++i) {
        zs_key_store(keys, b + i, src[i], key_flags);
#if ZS_PAIRS
        values[b + i] = vsrc[i];
#endif
    }
}

/* One segment [b, e) by 8-bit LSD passes, counted in one walk, in local
 * memory (seg_sort_local) or, longer, between keys and tmp; a digit every
 * key shares moves nothing and is skipped; an odd count of passes made
 * between keys and tmp ends with a copy home. */
inline void seg_sort_one(__global const zs_key *keys_in, __global zs_key *keys,
                         __global zs_key *tmp, __global const zs_value *values_in,
                         __global zs_value *values, __global zs_value *values_tmp, uint b, uint e,
                         uint bit_lo, uint bit_hi, uint key_flags, __local zs_key *la,
                         __local zs_key *lb, __local zs_value *lva, __local zs_value *lvb)
{
    if (e - b <= SEG_INSERTION) {
        seg_copy_in(keys_in, keys, values_in, values, b, e, key_flags);
        seg_insertion(keys, values, b, e, bit_lo, bit_hi, key_flags);
        return;
    }
    const uint passes = (bit_hi - bit_lo + SEG_BITS - 1u) / SEG_BITS;
    uint counts[SEG_MAX_PASSES * SEG_BINS]; /* every pass: seg_histograms */
    seg_histograms(keys_in, b, e, counts, passes, bit_lo, bit_hi, key_flags);
    if (e - b <= SEG_LOCAL) { /* read from the input: no copy to keys first */
        seg_sort_local(keys_in, keys, values_in, values, b, e, counts, passes, bit_lo, bit_hi,
                       key_flags, la, lb, lva, lvb);
        return;
    }
    seg_copy_in(keys_in, keys, values_in, values, b, e, key_flags);
    __global zs_key *src = keys, *dst = tmp;
    __global zs_value *vsrc = values, *vdst = values_tmp;
    for (uint p = 0; p < passes; ++p) {
        const uint shift = bit_lo + p * SEG_BITS, mask = seg_digit_mask(shift, bit_hi, SEG_BITS);
        uint *next = counts + p * SEG_BINS;
        if (seg_starts(next, mask, b, e - b))
            continue;
        zs_serial_scatter(src, dst, vsrc, vdst, ZS_PAIRS, b, e, next, shift, mask, key_flags);
        __global zs_key *t = src;
        src = dst, dst = t;
        __global zs_value *vt = vsrc;
        vsrc = vdst, vdst = vt;
    }
    if (src != keys)
        for (ulong i = b; i < e; ++i) {
            zs_key_store(keys, i, zs_key_load(src, i, key_flags), key_flags);
#if ZS_PAIRS
            values[i] = vsrc[i];
#endif
        }
}

#else /* sg and portable: 32 lanes per segment */

#define SEG_BITS 4u
#define SEG_BINS (1u << SEG_BITS)

/* The digit of the ordered key (zs_ordered), branch-free: with zs_ordered's
 * branches inside the segment loops IGC spilled (bench/isa_report.py). */
inline uint seg_digit(zs_key k, uint shift, uint mask, uint key_flags)
{
    const uint kind = key_flags & 3u;
    const zs_key width = zs_key_all(key_flags), top = zs_key_sign(key_flags);
    const zs_key sign = kind ? top : (zs_key)0;
    const zs_key all = (key_flags & ZS_DESCENDING) ? width : (zs_key)0;
    const zs_key neg = (kind == ZS_KIND_FLOAT && (k & top)) ? width ^ top : (zs_key)0;
    return (uint)((k ^ sign ^ all ^ neg) >> shift) & mask;
}

/* Lane b (< SEG_BINS): b0 + the counts of the bins below b (lanes from
 * SEG_BINS up hold copies of the low lanes' counts: left out). Indices are
 * 32-bit here (n < 2^32): a 64-bit one costs SIMD32 twice the registers. */
inline uint seg_bin_starts(uint count, uint b0, ZS_SG_SCRATCH_PARAM)
{
    return b0 + zs_lanes_below_sum(zs_lane() < SEG_BINS ? count : 0u, ZS_SG_SCRATCH_ARG);
}

/* One stable pass of [b, e) from src to dst: a counting walk, then a
 * scatter walk ranked as cm_bucket ranks. One loop body serves both walks
 * (two walks as two loops spilled on every Intel target). Ends with a
 * barrier: the next pass reads what other lanes wrote. */
inline void seg_pass(__global const zs_key *src, __global zs_key *dst,
                     __global const zs_value *vsrc, __global zs_value *vdst, uint b, uint e,
                     uint shift, uint bit_hi, uint key_flags, ZS_SG_SCRATCH_PARAM)
{
#if !ZS_PAIRS
    (void)vsrc;
    (void)vdst;
#endif
    const uint mask = seg_digit_mask(shift, bit_hi, SEG_BITS);
    const uint below = zs_lanes_below();
    uint next = 0; /* walk 0: bin lane's count; walk 1: its next slot */
    for (uint walk = 0; walk < 2u; ++walk) {
        if (walk)
            next = seg_bin_starts(next, b, ZS_SG_SCRATCH_ARG);
        for (uint base = b; base < e; base += ZS_LANES) {
            const uint i = base + zs_lane();
            const uint valid = i < e ? 1u : 0u;
            const zs_key key = valid ? zs_key_load(src, i, key_flags) : (zs_key)0;
            const uint d = seg_digit(key, shift, mask, key_flags);
            uint peers, owned;
            zs_digit_masks(d, valid, SEG_BITS, &peers, &owned, ZS_SG_SCRATCH_ARG);
            const uint slot = zs_shuffle(next, d, ZS_SG_SCRATCH_ARG) + popcount(peers & below);
            if (walk && valid) {
                zs_key_store(dst, slot, key, key_flags);
#if ZS_PAIRS
                vdst[slot] = vsrc[i];
#endif
            }
            next += popcount(owned); /* meaningful on lanes < SEG_BINS only */
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
}

/* Each pass between keys and tmp by its parity; an odd count of passes ends
 * with a copy home. Two call sites, each on kernel arguments: a pointer
 * chosen at run time costs IGC 64-bit addresses per lane (stateless), and
 * spilled the pairs programs of IGC 2.x on Gen12 (bench/isa_report.py). */
inline void seg_sort_one(__global zs_key *keys, __global zs_key *tmp, __global zs_value *values,
                         __global zs_value *values_tmp, uint b, uint e, uint bit_lo,
                         uint bit_hi, uint key_flags, ZS_SG_SCRATCH_PARAM)
{
    uint odd = 0;
    for (uint shift = bit_lo; shift < bit_hi; shift += SEG_BITS, odd ^= 1u) {
        if (odd)
            seg_pass(tmp, keys, values_tmp, values, b, e, shift, bit_hi, key_flags,
                     ZS_SG_SCRATCH_ARG);
        else
            seg_pass(keys, tmp, values, values_tmp, b, e, shift, bit_hi, key_flags,
                     ZS_SG_SCRATCH_ARG);
    }
    if (odd) {
        for (uint i = b + zs_lane(); i < e; i += ZS_LANES) {
            zs_key_store(keys, i, zs_key_load(tmp, i, key_flags), key_flags);
#if ZS_PAIRS
            values[i] = values_tmp[i];
#endif
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}
#endif /* ZS_SERIAL */

/* The kernels that sort whole segments: their shape (one work-item, or one
 * sub-group of ZS_LANES), their local memory, and the sort of [b, e) of
 * keys_in into keys (tmp its partner; values along) by the flavor's
 * seg_sort_one, the serial one specialised by key width. */
#if ZS_SERIAL
#define SEG_KERNEL ZS_KERNEL_WG(1)
#define SEG_SCRATCH                                                                            \
    __local zs_key seg_la[SEG_LOCAL], seg_lb[SEG_LOCAL];                                       \
    __local zs_value seg_lva[SEG_LOCAL_VALUES], seg_lvb[SEG_LOCAL_VALUES];
#define SEG_SORT_RANGE(keys_in, keys, tmp, values_in, values, values_tmp, b, e, bit_lo, bit_hi, \
                       key_flags)                                                              \
    ZS_BY_WIDTH(key_flags, f_,                                                                 \
                seg_sort_one(keys_in, keys, tmp, values_in, values, values_tmp, b, e, bit_lo,  \
                             bit_hi, f_, seg_la, seg_lb, seg_lva, seg_lvb))
#else
#define SEG_KERNEL ZS_SG_KERNEL
#define SEG_SCRATCH ZS_SG_SCRATCH
#define SEG_SORT_RANGE(keys_in, keys, tmp, values_in, values, values_tmp, b, e, bit_lo, bit_hi, \
                       key_flags)                                                              \
    do {                                                                                       \
        seg_copy_in(keys_in, keys, values_in, values, b, e, key_flags);                        \
        seg_sort_one(keys, tmp, values, values_tmp, b, e, bit_lo, bit_hi, key_flags,           \
                     ZS_SG_SCRATCH_ARG);                                                       \
    } while (0)
#endif

SEG_KERNEL
__kernel void seg_sort(__global const zs_key *keys_in, __global zs_key *keys,
                       __global zs_key *tmp, __global const zs_value *values_in,
                       __global zs_value *values, __global zs_value *values_tmp,
                       __global const ulong *offsets,
                       __global const uint *params, uint segments, uint max_len, uint bit_lo,
                       uint bit_hi, uint key_flags)
{
    SEG_SCRATCH
    const uint n = min(params[0], params[1]);
    const ulong window = (ulong)get_group_id(0) * SEG_WINDOW;
    if (window >= n)
        return; /* uniform: the grid is sized for the plan's n */
    const uint last = seg_lower_bound(offsets, segments, window + SEG_WINDOW);
    for (uint s = seg_lower_bound(offsets, segments, window); s < last && s < segments; ++s) {
        const uint b = (uint)offsets[s], e = (uint)min(offsets[s + 1u], (ulong)n);
        if (e - b > max_len)
            continue; /* uniform: every lane reads the same offsets */
        if (e <= b + 1u) {
            seg_copy_in(keys_in, keys, values_in, values, b, e, key_flags);
            continue;
        }
        SEG_SORT_RANGE(keys_in, keys, tmp, values_in, values, values_tmp, b, e, bit_lo, bit_hi,
                       key_flags);
    }
}

/*
 * small_sort: a whole sort of at most ZS_SMALL_MAX keys by one work-group,
 * the single launch of every sort that fits (zs_plan_small): no count
 * table, no scan, no clear and no second launch.
 *
 *   small_sort(keys_in, keys, tmp, values_in, values, values_tmp, out_keys,
 *              out_values, params, out_count, bit_lo, bit_hi, key_flags)
 *
 * n = min(params[0], params[1]). The keys [0, n) of keys_in (values_in;
 * with ZS_IOTA_VALUES the positions instead) are sorted into keys (values),
 * tmp and values_tmp serving as the passes' partners, as seg_sort sorts a
 * segment. Then the first min(out_count, n) of them go to out_keys
 * (out_values) where those differ from keys: a top-k's outputs, sized for
 * its k (keys here is the candidates' buffer of n).
 */
inline void small_iota(__global zs_value *values, uint n)
{
#if ZS_PAIRS
#if ZS_SERIAL
    for (uint i = 0; i < n; ++i)
        values[i] = (zs_value)i;
#else
    for (uint i = zs_lane(); i < n; i += ZS_LANES)
        values[i] = (zs_value)i;
    barrier(CLK_GLOBAL_MEM_FENCE);
#endif
#else
    (void)values;
    (void)n;
#endif
}

SEG_KERNEL
__kernel void small_sort(__global const zs_key *keys_in, __global zs_key *keys,
                         __global zs_key *tmp, __global const zs_value *values_in,
                         __global zs_value *values, __global zs_value *values_tmp,
                         __global zs_key *out_keys, __global zs_value *out_values,
                         __global const uint *params, uint out_count, uint bit_lo, uint bit_hi,
                         uint key_flags)
{
    SEG_SCRATCH
    const uint n = min(params[0], params[1]);
    const uint flags = key_flags & ~ZS_IOTA_VALUES;
    if (key_flags & ZS_IOTA_VALUES) { /* argsort: the positions are the input values */
        small_iota(values, n);
        values_in = values;
    }
    SEG_SORT_RANGE(keys_in, keys, tmp, values_in, values, values_tmp, 0u, n, bit_lo, bit_hi,
                   flags);
    /* a top-k's first out_count: the lanes share the copy (none where out_keys is keys) */
    seg_copy_in(keys, out_keys, values, out_values, 0u, min(out_count, n), flags);
}

/*
 * Segments read on the device only (the interop's segmented
 * sorts): seg_check validates them and writes a status word; seg_sort_ranges
 * sorts them unless the status says they are invalid.
 *
 *   seg_check(begins, ends, count, status, n, max_segments, flags)
 *     one work-group of ZS_LANES items: status[0] = 0 or a ZS_SEG_BAD_*
 *     code, status[1] = the first bad segment (the count for COUNT_OVER_MAX)
 *   seg_sort_ranges(keys, tmp, values, values_tmp, begins, ends, count,
 *                   status, params, max_segments, n, flags, bit_lo, bit_hi,
 *                   key_flags)
 *     work-group g sorts segments g, g + groups, ... in place (ZS_LANES
 *     items, serial flavor 1), nothing when status[0] != 0; with
 *     ZS_SEG_F_N_COUNT each segment cut at the device-side key count
 *     min(params[0], params[1]) (nothing at or past it is written)
 *
 * flags (plan.h has the same): ZS_SEG_F_U64 offsets are ulong, else uint;
 * ZS_SEG_F_BEGIN_END segment s is [begins[s], ends[s]), else [begins[s],
 * begins[s + 1]) (ends unused); ZS_SEG_F_COUNT the number of segments is
 * count[0], else max_segments (count unused); ZS_SEG_F_N_COUNT the keys
 * are cut at min(params[0], params[1]) (params[1] is n; params unused
 * without it); ZS_SEG_F_SKIP_LARGE (the planner's) the segments of more
 * than ZS_SEG_LARGE_MIN keys are left to the global passes (seg_classify
 * lists them); ZS_SEG_F_CHECK (the planner's, a grid of one work-group)
 * seg_sort_ranges checks the segments itself against n (the plan's) and
 * writes the status words as seg_check does: a small sort's one launch.
 * Unused buffers are bound to some other buffer of the plan and never
 * read. The buffers are passed as
 * uint and read as ulong when ZS_SEG_F_U64: one kernel serves both widths.
 * The sort reads the offsets itself, after seg_check has accepted them: no
 * normalized copy (a later "describe segments" step may write one, beside
 * the status word, for kernels that pick a strategy per segment size).
 */
#define ZS_SEG_F_U64 1u
#define ZS_SEG_F_BEGIN_END 2u
#define ZS_SEG_F_COUNT 4u
#define ZS_SEG_F_N_COUNT 8u
#define ZS_SEG_F_SKIP_LARGE 16u
#define ZS_SEG_F_CHECK 32u
/* the codes of zesort.h's zesort_segments_check */
#define ZS_SEG_BAD_DECREASING 1u
#define ZS_SEG_BAD_PAST_N 2u
#define ZS_SEG_BAD_BEGIN_AFTER_END 3u
#define ZS_SEG_BAD_COUNT_OVER_MAX 4u

inline ulong seg_offset_at(__global const uint *p, uint i, uint flags)
{
    return (flags & ZS_SEG_F_U64) ? ((__global const ulong *)p)[i] : (ulong)p[i];
}

/* Segment s's [*b, *e) as the caller gave it (not yet checked). */
inline void seg_bounds(__global const uint *begins, __global const uint *ends, uint s,
                       uint flags, ulong *b, ulong *e)
{
    *b = seg_offset_at(begins, s, flags);
    *e = (flags & ZS_SEG_F_BEGIN_END) ? seg_offset_at(ends, s, flags)
                                      : seg_offset_at(begins, s + 1u, flags);
}

inline uint seg_count_of(__global const uint *count, uint max_segments, uint flags)
{
    return (flags & ZS_SEG_F_COUNT) ? count[0] : max_segments;
}

/* One work-group (any size up to ZS_LANES): the lanes walk the segments by
 * stride, each stops at its first bad one (so holds its smallest), and
 * lane 0 keeps the smallest of all and writes the status words. Every lane
 * gets the code. Deterministic (the first bad segment, whatever the
 * schedule) and needs no atomics, nor a status filled beforehand: every
 * run writes both words. O(segments / lanes) per lane, against a sort that
 * reads every key several times. */
inline uint seg_check_group(__global const uint *begins, __global const uint *ends,
                            __global const uint *count, __global uint *status, uint n,
                            uint max_segments, uint flags, __local uint *first_bad,
                            __local uint *bad_code)
{
    const uint lane = get_local_id(0), lanes = get_local_size(0);
    const uint segs = seg_count_of(count, max_segments, flags);
    uint first = UINT_MAX, code = 0;
    for (uint s = lane; segs <= max_segments && s < segs; s += lanes) {
        ulong b, e;
        seg_bounds(begins, ends, s, flags, &b, &e);
        if (b > e || e > (ulong)n) {
            first = s;
            code = b > e ? ((flags & ZS_SEG_F_BEGIN_END) ? ZS_SEG_BAD_BEGIN_AFTER_END
                                                         : ZS_SEG_BAD_DECREASING)
                         : ZS_SEG_BAD_PAST_N;
            break;
        }
    }
    first_bad[lane] = first;
    bad_code[lane] = code;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 0) {
        for (uint l = 1; l < lanes; ++l)
            if (first_bad[l] < first) {
                first = first_bad[l];
                code = bad_code[l];
            }
        if (segs > max_segments) {
            code = ZS_SEG_BAD_COUNT_OVER_MAX;
            first = segs;
        }
        status[0] = code;
        status[1] = code ? first : 0u;
        bad_code[0] = code;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return bad_code[0];
}

ZS_KERNEL_WG(ZS_LANES)
__kernel void seg_check(__global const uint *begins, __global const uint *ends,
               __global const uint *count, __global uint *status, uint n, uint max_segments,
               uint flags)
{
    __local uint first_bad[ZS_LANES], bad_code[ZS_LANES];
    (void)seg_check_group(begins, ends, count, status, n, max_segments, flags, first_bad,
                          bad_code);
}

SEG_KERNEL
__kernel void seg_sort_ranges(__global zs_key *keys, __global zs_key *tmp,
                              __global zs_value *values, __global zs_value *values_tmp,
                              __global const uint *begins, __global const uint *ends,
                              __global const uint *count, __global uint *status,
                              __global const uint *params, uint max_segments, uint n,
                              uint flags, uint bit_lo, uint bit_hi, uint key_flags)
{
    SEG_SCRATCH
    __local uint first_bad[ZS_LANES], bad_code[ZS_LANES];
    /* ZS_SEG_F_CHECK (one work-group): this launch checks the segments
     * against n itself; else seg_check ran before it */
    const uint bad = (flags & ZS_SEG_F_CHECK) ? seg_check_group(begins, ends, count, status, n,
                                                                max_segments, flags, first_bad,
                                                                bad_code)
                                              : status[0];
    if (bad != 0u)
        return; /* uniform: the segments were refused; the keys stay as they are */
    /* at most max_segments: seg_check refuses more */
    const uint segs = seg_count_of(count, max_segments, flags);
    /* a device-side key count: the segments (checked against n) end there */
    const uint cut = (flags & ZS_SEG_F_N_COUNT) ? min(params[0], params[1]) : UINT_MAX;
    for (uint s = get_group_id(0); s < segs; s += get_num_groups(0)) {
        ulong b64, e64;
        seg_bounds(begins, ends, s, flags, &b64, &e64);
        const uint b = min((uint)b64, cut), e = min((uint)e64, cut); /* <= n < 2^32: checked */
        if (e <= b + 1u || ((flags & ZS_SEG_F_SKIP_LARGE) && e - b > SEG_LARGE_MIN))
            continue; /* uniform: every lane reads the same offsets; large: os_seg_pass */
        SEG_SORT_RANGE(keys, keys, tmp, values, values, values_tmp, b, e, bit_lo, bit_hi,
                       key_flags); /* in place: no copy in */
    }
}

/* Lists the segments of more than SEG_LARGE_MIN keys (cut at a device-side
 * key count as seg_sort_ranges cuts them) in `large` (zesort_tuning.h has
 * the layout) with each one's first tile of the onesweep passes, so that
 * os_seg_* sort them over tiles that never straddle two segments. One
 * work-group: the lanes walk the segments by stride and append through a
 * local counter (the list's order is the atomics', which only decides the
 * tiles' numbering); lane 0 then numbers the tiles, at most max_large
 * segments (the planner's bound: n / (SEG_LARGE_MIN + 1) for segments that
 * do not overlap), and clears the passes' tile counters. Segments refused
 * by seg_check (status[0] != 0): none listed. */
ZS_KERNEL_WG(ZS_LANES)
__kernel void seg_classify(__global const uint *begins, __global const uint *ends,
                           __global const uint *count, __global const uint *status,
                           __global const uint *params, __global uint *large, uint max_segments,
                           uint flags, uint max_large)
{
    __local uint listed[1];
    const uint lane = get_local_id(0);
    if (lane == 0)
        listed[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint segs = status[0] != 0u ? 0u : seg_count_of(count, max_segments, flags);
    const uint cut = (flags & ZS_SEG_F_N_COUNT) ? min(params[0], params[1]) : UINT_MAX;
    for (uint s = lane; s < segs; s += ZS_LANES) {
        ulong b64, e64;
        seg_bounds(begins, ends, s, flags, &b64, &e64);
        const uint b = min((uint)b64, cut), e = min((uint)e64, cut); /* checked: <= n */
        if (e > b && e - b > SEG_LARGE_MIN) {
            const uint j = atomic_inc(&listed[0]);
            if (j < max_large) {
                large[ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * j + 1u] = b;
                large[ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * j + 2u] = e;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (lane != 0)
        return;
    const uint n_large = min(listed[0], max_large);
    const uint tile = ZS_OS_TILE(ZS_SERIAL, ZS_KEY64 || ZS_PAIRS);
    uint tiles = 0;
    for (uint j = 0; j < n_large; ++j) {
        __global uint *e = large + ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * j;
        e[0] = tiles;
        tiles += (e[2] - e[1] + tile - 1u) / tile;
    }
    large[ZS_SEG_LARGE_COUNT] = n_large;
    large[ZS_SEG_LARGE_TILES] = tiles;
    for (uint p = 0; p < ZS_OS_MAX_PASSES; ++p)
        large[ZS_SEG_LARGE_COUNTERS + p] = 0;
}
