/*
 * catalog.c — the kernel catalogue: which program and kernel a sort of a
 * width and kind runs, their names, and the key flags the kernels take
 * (plan.h). The planners (plan.c, plan_segments.c, plan_topk.c) pick from it.
 */
#include "plan/plan.h"

static const char *const program_names[ZS_PROG_COUNT] = {
    "cm2", "cm4", "cm2_k64", "cm4_k64", "cm2_pairs", "cm4_pairs", "cm2_k64_pairs",
    "cm4_k64_pairs", "cm2_pairs64", "cm4_pairs64", "cm2_k64_pairs64", "cm4_k64_pairs64",
    "scan", "os", "os_k64", "os_pairs", "os_k64_pairs", "os_pairs64", "os_k64_pairs64",
    "seg", "seg_k64", "seg_pairs", "seg_k64_pairs", "seg_pairs64", "seg_k64_pairs64",
    "sel", "sel_k64", "sel_pairs", "sel_k64_pairs", "sel_pairs64", "sel_k64_pairs64",
};

/* 0 keys only, 1 u32 values, 2 8-byte values: the program index's `vals` */
static int vals_of(unsigned value_bytes) { return (int)(value_bytes / 4); }

zs_program zs_cm_program(int radix_bits, int key64, unsigned value_bytes)
{
    return (zs_program)((radix_bits == 4 ? 1 : 0) | (key64 ? 2 : 0) | vals_of(value_bytes) << 2);
}

zs_kernel zs_cm_kernel(zs_program program, int bucket)
{
    return (zs_kernel)(2 * (int)program + (bucket ? 1 : 0));
}

int zs_kernel_is_bucket(zs_kernel k)
{
    if (k >= ZS_K_SEL_FIRST) /* sel_scatter gathers the candidates */
        return (k - ZS_K_SEL_FIRST) % ZS_SEL_KERNELS == ZS_SEL_SCATTER;
    if (k >= ZS_K_SEG_FIRST) { /* seg_sort, seg_sort_ranges scatter the keys */
        const int e = (k - ZS_K_SEG_FIRST) % ZS_SEG_KERNELS;
        return e == ZS_SEG_SORT || e == ZS_SEG_SORT_RANGES || e == ZS_SEG_SMALL;
    }
    if (k >= ZS_K_OS_FIRST) {
        const int e = (k - ZS_K_OS_FIRST) % ZS_OS_KERNELS;
        return e == ZS_OS_PASS || e == ZS_OS_SEG_PASS;
    }
    return k < ZS_K_SCAN_REDUCE && (k & 1);
}

const char *zs_program_name(zs_program p)
{
    return (unsigned)p < ZS_PROG_COUNT ? program_names[p] : "unknown";
}

zs_program zs_os_program(int key64, unsigned value_bytes)
{
    return (zs_program)(ZS_PROG_OS + (key64 ? 1 : 0) + 2 * vals_of(value_bytes));
}

uint32_t zs_os_tile(int key64, int pairs, int serial)
{
    return ZS_OS_TILE(serial != 0, key64 || pairs);
}

zs_kernel zs_os_kernel(zs_program program, zs_os_entry entry)
{
    return (zs_kernel)(ZS_K_OS_FIRST + ZS_OS_KERNELS * ((int)program - ZS_PROG_OS) + (int)entry);
}

zs_kernel zs_seg_kernel(int key64, unsigned value_bytes)
{
    return zs_seg_entry_kernel(key64, value_bytes, ZS_SEG_SORT);
}

zs_kernel zs_seg_entry_kernel(int key64, unsigned value_bytes, zs_seg_entry entry)
{
    const int program = (key64 ? 1 : 0) + 2 * vals_of(value_bytes);
    return (zs_kernel)(ZS_K_SEG_FIRST + ZS_SEG_KERNELS * program + (int)entry);
}

zs_kernel zs_sel_kernel(int key64, unsigned value_bytes, zs_sel_entry entry)
{
    const int program = (key64 ? 1 : 0) + 2 * vals_of(value_bytes);
    return (zs_kernel)(ZS_K_SEL_FIRST + ZS_SEL_KERNELS * program + (int)entry);
}

const char *zs_kernel_name(zs_kernel k)
{
    static const char *const os_names[ZS_OS_KERNELS] = {
        "os_fill", "os_histogram", "os_scan_hist", "os_pass",
        "os_seg_histogram", "os_seg_pass", "os_seg_copy"};
    static const char *const seg_names[ZS_SEG_KERNELS] = {
        "seg_sort", "seg_check", "seg_sort_ranges", "seg_classify", "small_sort"};
    static const char *const sel_names[ZS_SEL_KERNELS] = {"sel_init", "sel_hist", "sel_pick",
                                                          "sel_count", "sel_scatter"};
    if (k >= ZS_K_SEL_FIRST)
        return sel_names[(k - ZS_K_SEL_FIRST) % ZS_SEL_KERNELS];
    if (k >= ZS_K_SEG_FIRST)
        return seg_names[(k - ZS_K_SEG_FIRST) % ZS_SEG_KERNELS];
    if (k >= ZS_K_OS_FIRST)
        return os_names[(k - ZS_K_OS_FIRST) % ZS_OS_KERNELS];
    if (k == ZS_K_SCAN_REDUCE)
        return "scan_reduce";
    if (k == ZS_K_SCAN_APPLY)
        return "scan_apply";
    return (k & 1) ? "cm_bucket" : "cm_count";
}

zs_program zs_kernel_program(zs_kernel k)
{
    if (k >= ZS_K_SEL_FIRST)
        return (zs_program)(ZS_PROG_SEL + (k - ZS_K_SEL_FIRST) / ZS_SEL_KERNELS);
    if (k >= ZS_K_SEG_FIRST)
        return (zs_program)(ZS_PROG_SEG + (k - ZS_K_SEG_FIRST) / ZS_SEG_KERNELS);
    if (k >= ZS_K_OS_FIRST)
        return (zs_program)(ZS_PROG_OS + (k - ZS_K_OS_FIRST) / ZS_OS_KERNELS);
    return (zs_program)(k / 2);
}

uint32_t zs_key_flags(int key_type, int descending)
{
    /* kind: 0 unsigned, 1 signed, 2 float, by zesort_key_type (U32 I32 F32
     * U64 I64 F64, then U8 I8 U16 I16 F16 BF16) */
    static const unsigned char kind[] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 1, 2, 2};
    /* the narrow types run the 32-bit programs at their width */
    static const uint32_t narrow[] = {0, 0, 0, 0, 0, 0, ZS_NARROW_8, ZS_NARROW_8,
                                      ZS_NARROW_16, ZS_NARROW_16, ZS_NARROW_16, ZS_NARROW_16};
    const unsigned t = (unsigned)key_type < sizeof kind ? (unsigned)key_type : 0u;
    return (uint32_t)kind[t] | narrow[t] | (descending ? 4u : 0u);
}
