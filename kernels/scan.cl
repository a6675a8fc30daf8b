/*
 * scan.cl — exclusive scan of the bin-major count table on the device, for
 * tables of any length: reduce-then-scan by blocks of SCAN_BLOCK entries,
 * applied recursively by the planner (level k scans the block sums of level k-1).
 *
 *   len(0) = bins * ceil(n / ZS_CHUNK_KEYS),  len(k + 1) = ceil(len(k) / SCAN_BLOCK)
 *
 * Plain OpenCL C 1.2 (local memory + barriers): the same in every flavor.
 * Sizes: zesort_tuning.h. onesweep.cl has its own copies of the Hillis-Steele
 * scan of scan_apply (os_scan_hist, os_exclusive_scan_256): sharing one scan
 * function between os_scan_hist and os_pass made IGC spill in os_pass
 * (bench/isa_report.py), so the copies stay; a helper shared with this file
 * has not been tried against the ISA report.
 */
#include "zesort_tuning.h"

#define SCAN_LOCAL ZS_SCAN_LOCAL
#define SCAN_PER_ITEM ZS_SCAN_PER_ITEM
#define SCAN_BLOCK ZS_SCAN_BLOCK

inline ulong scan_level_len(uint n, uint bins, uint level)
{
    ulong len = (ulong)bins * (((ulong)n + ZS_CHUNK_KEYS - 1u) / ZS_CHUNK_KEYS);
    for (uint l = 0; l < level; ++l)
        len = (len + SCAN_BLOCK - 1u) / SCAN_BLOCK;
    return len;
}

/* sums[g] = sum of block g of data. */
__attribute__((reqd_work_group_size(SCAN_LOCAL, 1, 1)))
__kernel void scan_reduce(__global const uint *data, __global uint *sums,
                          __global const uint *params, uint bins, uint level)
{
    __local uint partial[SCAN_LOCAL];
    const ulong len = scan_level_len(min(params[0], params[1]), bins, level);
    const ulong block = get_group_id(0);
    if (block * SCAN_BLOCK >= len)
        return; /* uniform: grid sized for the largest n */
    const uint lid = (uint)get_local_id(0);
    const ulong first = block * SCAN_BLOCK + lid * SCAN_PER_ITEM;
    uint sum = 0;
    for (uint k = 0; k < SCAN_PER_ITEM; ++k)
        if (first + k < len)
            sum += data[first + k];
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = SCAN_LOCAL / 2u; stride > 0; stride >>= 1) {
        if (lid < stride)
            partial[lid] += partial[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[block] = partial[0];
}

/* Exclusive scan of block g of data in place, plus sums[g] (already scanned)
 * when has_sums. */
__attribute__((reqd_work_group_size(SCAN_LOCAL, 1, 1)))
__kernel void scan_apply(__global uint *data, __global const uint *sums,
                         __global const uint *params, uint bins, uint level, uint has_sums)
{
    __local uint partial[SCAN_LOCAL];
    const ulong len = scan_level_len(min(params[0], params[1]), bins, level);
    const ulong block = get_group_id(0);
    if (block * SCAN_BLOCK >= len)
        return;
    const uint lid = (uint)get_local_id(0);
    const ulong first = block * SCAN_BLOCK + lid * SCAN_PER_ITEM;

    uint v[SCAN_PER_ITEM];
    uint total = 0;
    for (uint k = 0; k < SCAN_PER_ITEM; ++k) {
        v[k] = first + k < len ? data[first + k] : 0u;
        total += v[k];
    }
    /* inclusive Hillis-Steele scan of the per-item totals */
    partial[lid] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < SCAN_LOCAL; off <<= 1) {
        const uint add = lid >= off ? partial[lid - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        partial[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint running = partial[lid] - total + (has_sums ? sums[block] : 0u);
    for (uint k = 0; k < SCAN_PER_ITEM; ++k) {
        if (first + k < len)
            data[first + k] = running;
        running += v[k];
    }
}
