/*
 * zesort_subgroup.h — the only place where the two kernel flavors differ.
 *
 * A "sub-group" here is 32 lanes that own one 256-key chunk.
 *   ZS_FLAVOR_SG = 1 : Intel sub-groups (SIMD32 hardware thread): ballot,
 *                      reduce and shuffle are register operations.
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

#define ZS_LANES 32u

#if ZS_FLAVOR_SG
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
#define ZS_SG_KERNEL __attribute__((reqd_work_group_size(32, 1, 1))) \
                     __attribute__((intel_reqd_sub_group_size(32)))
#define ZS_SG_SCRATCH
#define ZS_SG_SCRATCH_PARAM int zs_unused_scratch
#define ZS_SG_SCRATCH_ARG 0

inline uint zs_lane(void) { return get_sub_group_local_id(); }

inline uint zs_reduce_add(uint x, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    return sub_group_reduce_add(x);
}

/* Value of x held by lane `src` (every lane may ask for a different lane). */
inline uint zs_shuffle(uint x, uint src, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    return intel_sub_group_shuffle(x, src);
}

/* masks[j] = packed lane mask of bit j of `value` over the 32 lanes, j < nbits
 * (the CM cm_pack_mask, one ballot per bit). */
inline void zs_ballot_bits(uint value, uint nbits, uint *masks, ZS_SG_SCRATCH_PARAM)
{
    (void)zs_unused_scratch;
    for (uint j = 0; j < nbits; ++j)
        masks[j] = sub_group_ballot((value >> j) & 1u).x;
}

#else /* portable */

#define ZS_SG_KERNEL __attribute__((reqd_work_group_size(32, 1, 1)))
#define ZS_SG_SCRATCH __local uint zs_scratch[ZS_LANES];
#define ZS_SG_SCRATCH_PARAM __local uint *zs_scratch
#define ZS_SG_SCRATCH_ARG zs_scratch

inline uint zs_lane(void) { return (uint)get_local_id(0); }

inline uint zs_reduce_add(uint x, ZS_SG_SCRATCH_PARAM)
{
    uint lane = zs_lane();
    zs_scratch[lane] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
    for (uint i = 0; i < ZS_LANES; ++i)
        sum += zs_scratch[i];
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch is reused by the next primitive */
    return sum;
}

inline uint zs_shuffle(uint x, uint src, ZS_SG_SCRATCH_PARAM)
{
    zs_scratch[zs_lane()] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = zs_scratch[src & (ZS_LANES - 1u)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* One exchange serves all nbits ballots: each lane publishes its value once
 * and packs the masks itself (cheaper than nbits separate exchanges). */
inline void zs_ballot_bits(uint value, uint nbits, uint *masks, ZS_SG_SCRATCH_PARAM)
{
    zs_scratch[zs_lane()] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < nbits; ++j)
        masks[j] = 0;
    for (uint i = 0; i < ZS_LANES; ++i) {
        uint v = zs_scratch[i];
        for (uint j = 0; j < nbits; ++j)
            masks[j] |= ((v >> j) & 1u) << i;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif /* ZS_FLAVOR_SG */

/* Lanes strictly below the calling lane. */
inline uint zs_lanes_below(void)
{
    uint lane = zs_lane();
    return lane == 0 ? 0u : (0xFFFFFFFFu >> (ZS_LANES - lane));
}

#endif /* ZESORT_SUBGROUP_H */
