/*
 * zesort_subgroup.h — the only place where the two sub-group kernel flavors
 * (sg, portable) differ; the serial flavor (ZS_SERIAL, below) does not rank
 * with sub-groups at all.
 *
 * A "sub-group" here is ZS_LANES (32) lanes that own one CM chunk.
 *   ZS_FLAVOR_SG = 1 : hardware sub-groups of 32 (an Intel SIMD32 thread, an
 *                      NVIDIA warp: zesort_warp.h): ballot, reduce and
 *                      shuffle are register operations.
 *   ZS_FLAVOR_SG = 0 : portable OpenCL C 1.2: a work-group of 32 work-items
 *                      emulates the sub-group through local memory and barriers.
 * Every primitive must be reached by all 32 lanes (no divergent calls): the
 * portable flavor uses barriers inside.
 *
 * Kernels declare ZS_SG_SCRATCH at kernel scope (OpenCL 1.2 only allows local
 * variables there) and pass ZS_SG_SCRATCH_ARG to the primitives.
 */
#ifndef ZESORT_SUBGROUP_H
#define ZESORT_SUBGROUP_H

#include "zesort_tuning.h" /* ZS_LANES */

/*
 * ZS_SERIAL = 1 — the `serial` flavor, portable OpenCL C 1.2 for CPU devices
 * (PoCL): one work-item ranks a whole CM chunk or onesweep tile in key order
 * with plain counters, instead of 32 lanes building peer masks. A CPU runs a
 * work-group as a loop on one core, where emulating one ballot costs 32 loads
 * and two barriers per key but a serial walk costs one increment; the
 * parallelism is across work-groups. Same tables, same look-back, same output
 * as the other flavors; the planner sizes grids for it (plan.h, `serial`).
 */
#ifndef ZS_SERIAL
#define ZS_SERIAL 0
#endif
#if ZS_SERIAL && ZS_FLAVOR_SG
#error "the serial flavor (ZS_SERIAL) is built without sub-groups"
#endif

#if ZS_FLAVOR_SG
#include "zesort_warp.h" /* ZS_KERNEL_WG, the Intel or NVIDIA warp operations */
#define ZS_SG_KERNEL ZS_KERNEL_WG(32)
#define ZS_SG_SCRATCH
#define ZS_SG_SCRATCH_PARAM int zs_unused_scratch
#define ZS_SG_SCRATCH_ARG 0

#define zs_lane() zs_warp_lane()
#define zs_sg_id() zs_warp_id()

/* Orders the sub-group's local memory accesses before / after this point. */
#define zs_sg_barrier() zs_warp_sync()

/* Valid lanes whose digit equals mine, from bits + 1 ballots. (zs_digit_masks
 * with its owned mask unused computes the same, but in os_pass that made IGC
 * spill on dg2, skl and tgllp for 64-bit keys: bench/isa_report.py.) */
inline uint zs_peer_mask(uint digit, uint valid, uint bits, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    uint p = zs_warp_ballot(valid != 0u);
    for (uint j = 0; j < bits; ++j) {
        const uint m = zs_warp_ballot((digit >> j) & 1u);
        p &= ((digit >> j) & 1u) ? m : ~m;
    }
    return p;
}

/* Value of x held by lane `src` (every lane may ask for a different lane). */
inline uint zs_shuffle(uint x, uint src, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    return zs_warp_shuffle(x, src);
}

/* Packed lane masks of one batch (the CM cm_pack_mask + cm_cbit step):
 *   *peers = valid lanes whose digit equals mine,
 *   *owned = valid lanes whose digit equals my lane id.
 * Built from `bits` + 1 ballots (one per digit bit, one for validity), each
 * lane AND-ing a ballot or its complement, instead of one ballot per bin. */
inline void zs_digit_masks(uint digit, uint valid, uint bits, uint *peers, uint *owned,
                           ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    const uint lane = zs_lane();
    uint p = zs_warp_ballot(valid != 0u);
    uint o = p;
    for (uint j = 0; j < bits; ++j) {
        const uint m = zs_warp_ballot((digit >> j) & 1u);
        p &= ((digit >> j) & 1u) ? m : ~m;
        o &= ((lane >> j) & 1u) ? m : ~m;
    }
    *peers = p;
    *owned = o;
}

/* The sum of x over the lanes below the calling one. */
inline uint zs_lanes_below_sum(uint x, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    return zs_warp_scan_exclusive(x);
}

/* Lane b (< nbins) receives the sum over all lanes of counters[b]. */
inline uint zs_bin_totals(const uint *counters, uint nbins, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    const uint lane = zs_lane();
    uint mine = 0;
    for (uint b = 0; b < nbins; ++b) {
        const uint total = zs_warp_reduce(counters[b]);
        mine = lane == b ? total : mine;
    }
    return mine;
}

#else /* portable */

#define ZS_SG_KERNEL __attribute__((reqd_work_group_size(32, 1, 1)))
#define ZS_SG_SCRATCH __local uint zs_scratch[ZS_LANES];
#define ZS_SG_SCRATCH_PARAM __local uint *zs_scratch
#define ZS_SG_SCRATCH_ARG zs_scratch

#define ZS_KERNEL_WG(wg) __attribute__((reqd_work_group_size(wg, 1, 1)))

/* Several emulated sub-groups may share a work-group: each needs its own
 * 32-entry scratch, and every primitive is called by the whole work-group
 * (its barriers are work-group barriers). */
inline uint zs_lane(void) { return (uint)get_local_id(0) % ZS_LANES; }
inline uint zs_sg_id(void) { return (uint)get_local_id(0) / ZS_LANES; }
inline void zs_sg_barrier(void) { barrier(CLK_LOCAL_MEM_FENCE); }

inline uint zs_peer_mask(uint digit, uint valid, uint bits, ZS_SG_SCRATCH_PARAM)
{
    const uint tag = 1u << bits; /* marks a valid lane */
    zs_scratch[zs_lane()] = valid ? (digit | tag) : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint want = valid ? (digit | tag) : 0xFFFFFFFFu;
    uint p = 0;
    for (uint i = 0; i < ZS_LANES; ++i)
        p |= (zs_scratch[i] == want ? 1u : 0u) << i;
    barrier(CLK_LOCAL_MEM_FENCE);
    return p;
}

inline uint zs_shuffle(uint x, uint src, ZS_SG_SCRATCH_PARAM)
{
    zs_scratch[zs_lane()] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = zs_scratch[src & (ZS_LANES - 1u)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* Same masks as the sg flavor. Without ballots, one exchange of the tagged
 * digits through local memory and two compares per lane are cheaper than
 * emulating bits + 1 ballots. */
inline void zs_digit_masks(uint digit, uint valid, uint bits, uint *peers, uint *owned,
                           ZS_SG_SCRATCH_PARAM)
{
    const uint lane = zs_lane();
    const uint tag = 1u << bits; /* marks a valid lane */
    zs_scratch[lane] = valid ? (digit | tag) : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint want_peer = valid ? (digit | tag) : 0xFFFFFFFFu;
    const uint want_owned = (lane & (tag - 1u)) | tag;
    uint p = 0, o = 0;
    for (uint i = 0; i < ZS_LANES; ++i) {
        const uint v = zs_scratch[i];
        p |= (v == want_peer ? 1u : 0u) << i;
        o |= (v == want_owned ? 1u : 0u) << i;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *peers = p;
    *owned = o;
}

/* The sum of x over the lanes below the calling one: through local memory. */
inline uint zs_lanes_below_sum(uint x, ZS_SG_SCRATCH_PARAM)
{
    const uint lane = zs_lane();
    zs_scratch[lane] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
    for (uint i = 0; i < lane; ++i)
        sum += zs_scratch[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}

/* Lane b (< nbins) receives the sum over all lanes of counters[b]: the
 * counters are transposed through local memory, one row sum per lane. */
inline uint zs_bin_totals(const uint *counters, uint nbins, ZS_SG_SCRATCH_PARAM)
{
    const uint lane = zs_lane();
    uint mine = 0;
    for (uint b = 0; b < nbins; ++b) {
        zs_scratch[lane] = counters[b];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == b)
            for (uint i = 0; i < ZS_LANES; ++i)
                mine += zs_scratch[i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return mine;
}

#endif /* ZS_FLAVOR_SG */

/* Lanes strictly below the calling lane. */
inline uint zs_lanes_below(void)
{
    uint lane = zs_lane();
    return lane == 0 ? 0u : (0xFFFFFFFFu >> (ZS_LANES - lane));
}

#endif /* ZESORT_SUBGROUP_H */
