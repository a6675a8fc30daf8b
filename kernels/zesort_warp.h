/*
 * zesort_warp.h — the 32-wide sub-group operations the sg flavor is built on,
 * for the two kinds of hardware that have them:
 *   Intel (ZS_SG_NV = 0): OpenCL sub-group built-ins (cl_khr_subgroups,
 *     cl_khr_subgroup_ballot, cl_intel_subgroups), sub-groups of 32 asked for
 *     with intel_reqd_sub_group_size;
 *   NVIDIA (ZS_SG_NV = 1): a warp of 32 through inline PTX, for NVIDIA's
 *     OpenCL C 1.2 compiler, which has no sub-group functions. Four warp
 *     instructions (lane id, vote.sync.ballot, shfl.sync.idx, bar.warp.sync),
 *     every other operation built from them here. The .sync forms name all 32
 *     lanes: since Volta a warp's lanes are scheduled independently, so each
 *     operation waits for the whole warp instead of assuming lock-step.
 * With ZS_SG_NV_EMULATE = 1 (a test build, never shipped) the four are taken
 * from Intel sub-groups instead, so that everything built from them runs
 * where Intel sub-groups of 32 run (PoCL 6 on the CPU); the PTX itself is
 * compiled by clang for nvptx64 in the tests (tests/nv).
 *
 * Every operation must be reached by all 32 lanes of the sub-group.
 */
#ifndef ZESORT_WARP_H
#define ZESORT_WARP_H

#ifndef ZS_SG_NV
#define ZS_SG_NV 0
#endif
#ifndef ZS_SG_NV_EMULATE
#define ZS_SG_NV_EMULATE 0
#endif

#if !ZS_SG_NV || ZS_SG_NV_EMULATE
#if !ZS_SG_NV
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
#endif
/* Work-groups of wg items made of 32-wide sub-groups. */
#define ZS_KERNEL_WG(wg) __attribute__((reqd_work_group_size(wg, 1, 1))) \
                         __attribute__((intel_reqd_sub_group_size(32)))
#else
/* A warp is 32 lanes, consecutive work-items of a 1-D work-group. */
#define ZS_KERNEL_WG(wg) __attribute__((reqd_work_group_size(wg, 1, 1)))
#endif

#if ZS_SG_NV

#if ZS_SG_NV_EMULATE
inline uint zs_warp_lane(void) { return get_sub_group_local_id(); }
inline uint zs_warp_ballot(int pred)
{
    return sub_group_reduce_add(pred ? 1u << get_sub_group_local_id() : 0u);
}
inline uint zs_warp_shuffle(uint x, uint src) { return intel_sub_group_shuffle(x, src); }
inline void zs_warp_sync(void) { sub_group_barrier(CLK_LOCAL_MEM_FENCE); }
#else
inline uint zs_warp_lane(void)
{
    uint lane;
    __asm__ volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}
inline uint zs_warp_ballot(int pred)
{
    uint mask;
    __asm__ volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.sync.ballot.b32 %0, p, -1; }"
                     : "=r"(mask) : "r"(pred));
    return mask;
}
inline uint zs_warp_shuffle(uint x, uint src)
{
    uint r;
    __asm__ volatile("shfl.sync.idx.b32 %0, %1, %2, 31, -1;" : "=r"(r) : "r"(x), "r"(src));
    return r;
}
/* Also orders the warp's local memory accesses (bar.warp.sync does). */
inline void zs_warp_sync(void) { __asm__ volatile("bar.warp.sync -1;" ::: "memory"); }
#endif

inline uint zs_warp_id(void) { return (uint)get_local_id(0) / 32u; }

/* Inclusive sum over lanes 0..mine: a Kogge-Stone scan of five shuffles. */
inline uint zs_warp_scan_inclusive(uint x)
{
    const uint lane = zs_warp_lane();
    for (uint d = 1; d < 32u; d <<= 1) {
        const uint y = zs_warp_shuffle(x, lane >= d ? lane - d : lane);
        x += lane >= d ? y : 0u;
    }
    return x;
}
inline uint zs_warp_scan_exclusive(uint x) { return zs_warp_scan_inclusive(x) - x; }

/* Sum over the 32 lanes, in every lane: a butterfly of five shuffles. */
inline uint zs_warp_reduce(uint x)
{
    const uint lane = zs_warp_lane();
    for (uint d = 1; d < 32u; d <<= 1)
        x += zs_warp_shuffle(x, lane ^ d);
    return x;
}
inline uint zs_warp_broadcast(uint x, uint src) { return zs_warp_shuffle(x, src); }

#else /* Intel */

/* Macros, not functions: the built-ins reach IGC as the sg kernels call
 * them, with no layer between (the Intel ISA stays as it was). */
#define zs_warp_lane() get_sub_group_local_id()
#define zs_warp_id() get_sub_group_id()
#define zs_warp_ballot(pred) sub_group_ballot(pred).x
#define zs_warp_shuffle(x, src) intel_sub_group_shuffle(x, src)
#define zs_warp_sync() sub_group_barrier(CLK_LOCAL_MEM_FENCE)
#define zs_warp_scan_inclusive(x) sub_group_scan_inclusive_add(x)
#define zs_warp_scan_exclusive(x) sub_group_scan_exclusive_add(x)
#define zs_warp_reduce(x) sub_group_reduce_add(x)
#define zs_warp_broadcast(x, src) sub_group_broadcast(x, src)

#endif /* ZS_SG_NV */

#endif /* ZESORT_WARP_H */
