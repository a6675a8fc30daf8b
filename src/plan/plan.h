/*
 * plan.h — the planner: turns (algorithm, scan mode, n) into a list of kernel
 * launches over named buffers. It knows nothing about Level Zero or OpenCL;
 * device backends execute a plan (see run_plan.c).
 *
 * Kernel interface (kernels/cm_radix.cl, kernels/scan.cl). Every kernel reads
 * n as min(params[0], params[1]) (a device buffer: the count, then the plan's
 * n, which the grids are sized for) so that the same launches serve a count
 * known only on the device (indirect sorts), and a count above the maximum is
 * clamped on the device (nothing at or past the plan's n is read or written).
 *
 *   CM programs, one per (digit bits 2|4, key width 32|64, keys|u32|u64 values), each in
 *   three flavors (sg|portable|serial):
 *     cm_count (keys, table, params, shift, digit_mask, key_flags)
 *     cm_bucket(keys_in, keys_out, values_in, values_out, table, params,
 *               shift, digit_mask, key_flags)
 *       local ZS_LANES, one work-group per chunk of ZS_CHUNK_KEYS keys (serial
 *       flavor: one work-item per chunk). key_flags: bits 0-1 the
 *       kind (0 unsigned, 1 signed, 2 float), bit 2 descending, bit 3 the
 *       values are the input positions (argsort's first pass), bits 4-5
 *       (32-bit programs) narrow keys' width in memory (ZS_NARROW_*: every
 *       program of 32-bit keys sorts 8- and 16-bit ones too). Keys-only
 *       programs ignore the value buffers (the plan passes the key buffers).
 *   program SCAN (flavor independent), local ZS_SCAN_LOCAL:
 *     scan_reduce(data, sums, params, bins, level)    one group per ZS_SCAN_BLOCK entries
 *     scan_apply (data, sums, params, bins, level, has_sums)
 *
 *   onesweep programs, one per (key width, keys|pairs), kernels/onesweep.cl:
 *     os_fill, os_histogram, os_scan_hist, os_pass (see that file), and the
 *     large segments' forms: os_seg_histogram(keys, hist, large,
 *     bit_lo, bit_hi, key_flags), os_seg_pass(keys_in, keys_out, values_in,
 *     values_out, hist, status, large, shift, digit_mask, key_flags, pass,
 *     passes), os_seg_copy(src, dst, values_src, values_dst, large, key_flags): a
 *     work-group per tile of the large segments (SEG_LARGE), grids sized for
 *     the most tiles there can be.
 *
 *   segmented-sort programs, one per (key width, keys|pairs), kernels/segsort.cl:
 *     seg_sort(keys_in, keys, tmp, values_in, values, values_tmp, offsets,
 *              params, segments, max_len, bit_lo, bit_hi, key_flags)
 *       one work-group (ZS_LANES items; serial flavor: 1) per window of
 *       ZS_SEG_WINDOW(serial) key positions; sorts the segments of at most
 *       max_len keys that start in its window (zs_plan_segments).
 *     seg_check(begins, ends, count, status, n, max_segments, flags)
 *       one work-group of ZS_LANES items: validates segments that only the
 *       device reads, writes the status word (zs_plan_segments_device)
 *     seg_sort_ranges(keys, tmp, values, values_tmp, begins, ends, count,
 *                     status, params, max_segments, n, flags, bit_lo, bit_hi,
 *                     key_flags)
 *       a work-group (ZS_LANES items; serial: 1) per segment, by stride;
 *       nothing when status[0] != 0; with a device-side key count, each
 *       segment cut at min(params[0], params[1]); with ZS_SEG_F_SKIP_LARGE
 *       the segments of more than ZS_SEG_LARGE_MIN keys left out
 *       with ZS_SEG_F_CHECK (a grid of one work-group) it checks the
 *       segments itself, as seg_check would: a small sort's one launch
 *     small_sort(keys_in, keys, tmp, values_in, values, values_tmp, out_keys,
 *                out_values, params, out_count, bit_lo, bit_hi, key_flags)
 *       one work-group (ZS_LANES items; serial: 1) sorts all n keys, at most
 *       ZS_SMALL_MAX, as seg_sort sorts a segment, then copies the first
 *       min(out_count, n) to out_keys (out_values) where those differ from
 *       keys (a top-k's outputs): zs_plan_build with `small`
 *     seg_classify(begins, ends, count, status, params, large, max_segments,
 *                  flags, max_large)
 *       one work-group of ZS_LANES items: lists those large segments and
 *       their tiles in SEG_LARGE (zesort_tuning.h has the layout)
 *
 *   select programs, one per (key width, keys|pairs), kernels/select.cl, planned
 *   with a sort of the candidates by zs_plan_topk (plan_topk.h):
 *     sel_init, sel_hist, sel_pick (one work-item), sel_count, sel_scatter
 *
 * Table layout: bin-major, table[bin * chunks + chunk], chunks = ceil(n/ZS_CHUNK_KEYS).
 * One linear exclusive scan of it yields every (chunk, bin)'s first output slot.
 * Scan level lengths: len(0) = bins * chunks; len(k+1) = ceil(len(k) / ZS_SCAN_BLOCK).
 */
#ifndef ZESORT_PLAN_H
#define ZESORT_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Every kernel-shape size (chunk, lanes, tiles, work-groups, scan block,
 * onesweep status layout) comes from the header the kernels include too. */
#include "zesort_tuning.h" /* kernels/, on the build's include path */
#include "zesort.h" /* ZESORT_MAX_KEYS */

/* key_flags bit of a pairs program's first pass: the values are the keys'
 * input positions (argsort), kernels/zesort_keys.h ZS_IOTA_VALUES. */
#define ZS_IOTA_VALUES 8u
/* key_flags bits 4-5 of narrow keys (kernels/zesort_keys.h has the same):
 * the 32-bit programs load and store them at 16 or 8 bits. */
#define ZS_NARROW_16 (2u << 4)
#define ZS_NARROW_8 (3u << 4)

#define ZS_MAX_SCAN_LEVELS 4 /* ZS_SCAN_BLOCK^4 entries > any table of n < 2^32 keys */
/* onesweep keys per tile for a plan: ZS_OS_TILE of zesort_tuning.h. */
uint32_t zs_os_tile(int key64, int pairs, int serial);
/* status words hold ZS_OS_NOT_READY until published */
#define ZS_OS_MAX_KEYS ((uint64_t)ZS_OS_NOT_READY - 1u)
#if ZS_OS_NOT_READY - 1u < ZESORT_MAX_KEYS
#error "ZESORT_MAX_KEYS (zesort.h) promises every algorithm, onesweep included, that many keys"
#endif

/* CM program index = (radix_bits == 4) | key64 << 1 | vals << 2;
 * onesweep program index = ZS_PROG_OS + (key64 | vals << 1), segmented
 * sort ZS_PROG_SEG + the same; vals: 0 keys
 * only, 1 u32 values (PAIRS), 2 8-byte values (PAIRS64). */
/* The kernel flavors, which plans depend on (a serial plan's tiles, AUTO's
 * choice). sg: Intel sub-groups; sg (nv): the same kernels on NVIDIA warps
 * (inline PTX), built from source only; portable: sub-groups emulated in
 * local memory; serial: portable with serial ranking (ZS_SERIAL,
 * kernels/zesort_subgroup.h), built from source only. Which one a device
 * runs: programs/kernel_select.h. */
typedef enum zs_flavor {
    ZS_FLAVOR_PORTABLE = 0,
    ZS_FLAVOR_SG = 1,
    ZS_FLAVOR_SERIAL = 2,
    ZS_FLAVOR_SG_NV = 3 /* the sg algorithm on an NVIDIA warp (kernels/zesort_warp.h) */
} zs_flavor;

typedef enum zs_program {
    ZS_PROG_CM2, ZS_PROG_CM4,
    ZS_PROG_CM2_K64, ZS_PROG_CM4_K64,
    ZS_PROG_CM2_PAIRS, ZS_PROG_CM4_PAIRS,
    ZS_PROG_CM2_K64_PAIRS, ZS_PROG_CM4_K64_PAIRS,
    ZS_PROG_CM2_PAIRS64, ZS_PROG_CM4_PAIRS64,
    ZS_PROG_CM2_K64_PAIRS64, ZS_PROG_CM4_K64_PAIRS64,
    ZS_PROG_SCAN,
    ZS_PROG_OS, ZS_PROG_OS_K64, ZS_PROG_OS_PAIRS, ZS_PROG_OS_K64_PAIRS,
    ZS_PROG_OS_PAIRS64, ZS_PROG_OS_K64_PAIRS64,
    ZS_PROG_SEG, ZS_PROG_SEG_K64, ZS_PROG_SEG_PAIRS, ZS_PROG_SEG_K64_PAIRS,
    ZS_PROG_SEG_PAIRS64, ZS_PROG_SEG_K64_PAIRS64,
    ZS_PROG_SEL, ZS_PROG_SEL_K64, ZS_PROG_SEL_PAIRS, ZS_PROG_SEL_K64_PAIRS,
    ZS_PROG_SEL_PAIRS64, ZS_PROG_SEL_K64_PAIRS64,
    ZS_PROG_COUNT
} zs_program;

/* Kernels, densely numbered: 2 per CM program (count, bucket), 2 for SCAN
 * (reduce, apply), 7 per onesweep program (fill, histogram, scan_hist, pass,
 * and the large segments' seg_histogram, seg_pass, seg_copy), 4 per
 * segmented-sort program (seg_sort, seg_check, seg_sort_ranges,
 * seg_classify, small_sort), 5 per select program (zs_sel_entry). */
#define ZS_OS_KERNELS 7  /* kernels per onesweep program (zs_os_entry) */
#define ZS_SEG_KERNELS 5 /* kernels per segmented-sort program (zs_seg_entry) */
#define ZS_SEL_KERNELS 5 /* kernels per select program (zs_sel_entry) */
typedef enum zs_kernel {
    ZS_K_CM2_COUNT = 0, ZS_K_CM2_BUCKET = 1,
    ZS_K_CM4_COUNT = 2, ZS_K_CM4_BUCKET = 3,
    ZS_K_SCAN_REDUCE = 2 * ZS_PROG_SCAN, ZS_K_SCAN_APPLY = 2 * ZS_PROG_SCAN + 1,
    ZS_K_OS_FIRST = 2 * ZS_PROG_SCAN + 2,
    ZS_K_SEG_FIRST = ZS_K_OS_FIRST + ZS_OS_KERNELS * (ZS_PROG_SEG - ZS_PROG_OS),
    ZS_K_SEL_FIRST = ZS_K_SEG_FIRST + ZS_SEG_KERNELS * (ZS_PROG_SEL - ZS_PROG_SEG),
    ZS_K_COUNT = ZS_K_SEL_FIRST + ZS_SEL_KERNELS * (ZS_PROG_COUNT - ZS_PROG_SEL)
} zs_kernel;

typedef enum zs_os_entry {
    ZS_OS_FILL, ZS_OS_HISTOGRAM, ZS_OS_SCAN_HIST, ZS_OS_PASS,
    ZS_OS_SEG_HISTOGRAM, ZS_OS_SEG_PASS, ZS_OS_SEG_COPY /* large segments */
} zs_os_entry;
/* The kernels of a segmented-sort program (seg_check reads no keys: every
 * program has it, the plan takes the one of the program it sorts with). */
typedef enum zs_seg_entry {
    ZS_SEG_SORT, ZS_SEG_CHECK, ZS_SEG_SORT_RANGES, ZS_SEG_CLASSIFY,
    ZS_SEG_SMALL /* small_sort: a whole sort of at most ZS_SMALL_MAX keys */
} zs_seg_entry;
/* The kernels of a select program (kernels/select.cl). */
typedef enum zs_sel_entry {
    ZS_SEL_INIT, ZS_SEL_HIST, ZS_SEL_PICK, ZS_SEL_COUNT, ZS_SEL_SCATTER
} zs_sel_entry;

/* value_bytes: 0 (keys only), 4 or 8 */
zs_program zs_cm_program(int radix_bits, int key64, unsigned value_bytes);
zs_kernel zs_cm_kernel(zs_program program, int bucket);
zs_program zs_os_program(int key64, unsigned value_bytes);
zs_kernel zs_os_kernel(zs_program program, zs_os_entry entry);
zs_kernel zs_seg_kernel(int key64, unsigned value_bytes); /* seg_sort of that program */
zs_kernel zs_seg_entry_kernel(int key64, unsigned value_bytes, zs_seg_entry entry);
zs_kernel zs_sel_kernel(int key64, unsigned value_bytes, zs_sel_entry entry);
int zs_kernel_is_bucket(zs_kernel k); /* cm_bucket, os_pass, os_seg_pass, sel_scatter: a scatter */
const char *zs_program_name(zs_program p); /* "cm2", "cm4_k64_pairs", "scan", ... */

/* Buffers a plan refers to. KEYS (and VALUES) hold the input and, after the
 * plan, the output; TMP and VALUES_TMP are the ping-pong partners. An
 * out-of-place plan reads its input from KEYS_IN (and VALUES_IN), which no
 * step writes, and leaves the output in KEYS (and VALUES). */
typedef enum zs_buffer {
    ZS_BUF_KEYS, ZS_BUF_TMP, ZS_BUF_TABLE, ZS_BUF_PARAMS,
    ZS_BUF_SUMS0, ZS_BUF_SUMS1, ZS_BUF_SUMS2, ZS_BUF_SUMS3,
    ZS_BUF_VALUES, ZS_BUF_VALUES_TMP,
    ZS_BUF_OS_HIST,   /* onesweep: 8 x 256 digit bases, then 8 tile counters */
    ZS_BUF_OS_STATUS, /* onesweep: per (tile, bin) aggregate and inclusive prefix (two
                         arrays for the plain sort, by pass parity) */
    ZS_BUF_KEYS_IN, ZS_BUF_VALUES_IN, /* out-of-place plans: the input, read only */
    ZS_BUF_SEG_OFFSETS, /* segmented sorts: segments + 1 u64 key positions */
    /* device-side segments (zs_plan_segments_device): OFFSETS holds the
     * S + 1 offsets or the begins, SEG_ENDS the ends, SEG_COUNT the count,
     * SEG_STATUS the status word (2 uint32) */
    ZS_BUF_SEG_ENDS, ZS_BUF_SEG_COUNT, ZS_BUF_SEG_STATUS,
    ZS_BUF_SEG_LARGE, /* the large segments' list and tiles (seg_classify) */
    /* top-k (zs_plan_topk): the select's state and histograms, then the
     * candidates' sort: its keys, values, ping-pong partners and params
     * (written on the device: the candidates found, then the room) */
    ZS_BUF_SEL_STATE, ZS_BUF_SEL_HIST,
    ZS_BUF_CAND_KEYS, ZS_BUF_CAND_TMP, ZS_BUF_CAND_VALUES, ZS_BUF_CAND_VALUES_TMP,
    ZS_BUF_CAND_PARAMS,
    ZS_BUF_COUNT
} zs_buffer;

typedef struct zs_arg {
    int is_buffer;  /* 1: buffer (device pointer), 0: uint32 scalar */
    uint32_t value; /* zs_buffer id or scalar value */
} zs_arg;

typedef enum zs_step_kind {
    ZS_STEP_KERNEL,    /* launch `kernel` with `groups` work-groups of `local` items */
    ZS_STEP_HOST_SCAN, /* read TABLE (table_len entries), exclusive scan on host, write back */
    ZS_STEP_COPY       /* copy `bytes` from buffer src to buffer dst */
} zs_step_kind;

#define ZS_MAX_ARGS 15 /* seg_sort_ranges */
typedef struct zs_step {
    zs_step_kind kind;
    zs_kernel kernel;
    uint64_t groups;
    uint32_t local;
    int nargs;
    zs_arg args[ZS_MAX_ARGS];
    uint64_t table_len;           /* HOST_SCAN */
    zs_buffer src, dst;           /* COPY */
    uint64_t bytes;               /* COPY */
} zs_step;

typedef struct zs_plan {
    uint64_t n;
    uint64_t buffer_bytes[ZS_BUF_COUNT]; /* 0: buffer unused */
    size_t nsteps, cap;
    zs_step *steps;
    /* Buffers a runner fills from host memory before the first step (NULL:
     * none; the caller's memory, which must outlive the run): the segmented
     * sort's offsets. Interop binds the caller's device memory instead. */
    const void *host_init[ZS_BUF_COUNT];
    /* Where the sorted keys are after the plan: KEYS (always, unless the
     * request's keep_result), or TMP (VALUES_TMP for the values): an odd
     * number of in-place passes with keep_result. */
    zs_buffer result;
    int selects; /* a top-k plan that runs the radix select (plan_topk.h) */
} zs_plan;

/* Planner request. */
typedef struct zs_plan_request {
    int radix_bits;     /* 2 or 4: CM passes; ZS_OS_BITS (8): onesweep */
    int host_scan;      /* 1: host scan steps (needs a host round trip) */
    uint64_t n;         /* keys (maximum n for indirect sorts) */
    unsigned key_bytes; /* 1, 2 or 4 (the 32-bit programs, key_flags' width), or 8 */
    unsigned value_bytes; /* 0: keys only; 4 or 8: values of that size move with the keys */
    int iota_values;    /* 1 (with value_bytes): the values are the keys' input
                           positions, made by the first pass (argsort); nothing
                           reads VALUES / VALUES_IN before it is written */
    int out_of_place;   /* 1: the input is KEYS_IN (VALUES_IN), never written; the
                           passes alternate so that the last one writes KEYS */
    uint32_t key_flags; /* kernel key_flags: kind | descending << 2 */
    int key_type;       /* the zesort_key_type key_bytes and key_flags came from (messages) */
    unsigned bit_lo;    /* digits cover bits [bit_lo, bit_hi) of the ordered key */
    unsigned bit_hi;
    int serial;         /* 1: kernels of the serial flavor (ZS_SERIAL): CM kernels
                           take a work-item per chunk, onesweep a work-item per
                           tile of ZS_OS_SERIAL_TILE keys */
    int small;          /* 1: the whole sort by one small_sort launch (n at most
                           ZS_SMALL_MAX of the flavor and width; radix_bits
                           and host_scan are ignored); segmented sorts of
                           device-side segments by one seg_sort_ranges launch */
    int keep_result;    /* 1 (in place): no copy home after an odd number of
                           passes; the result stays in TMP (VALUES_TMP) and the
                           plan's `result` says so. For TMP bound to the
                           caller's alternate buffers (interop), whose result
                           is wherever the last pass wrote it. */
} zs_plan_request;

/* A segmented sort in place of KEYS (and VALUES) by one seg_sort launch: the
 * segments of at most max_len keys among `segments` (< 2^32) whose offsets
 * are in SEG_OFFSETS (host_offsets: the runner uploads them; NULL: the
 * caller binds the buffer). req: n (the keys the buffers hold), key and
 * value bytes, key_flags, bits, serial, out_of_place; the rest is ignored.
 * Out of place (the input in KEYS_IN, VALUES_IN, only read) every segment
 * must hold at most max_len keys: KEYS gets every key of them. Returns 0,
 * or -1 when out of host memory. */
int zs_plan_segments(const zs_plan_request *req, const uint64_t *host_offsets, uint64_t segments,
                     uint32_t max_len, zs_plan *out);

/* flags of seg_check and seg_sort_ranges (kernels/segsort.cl has the same) */
#define ZS_SEG_F_U64 1u       /* offsets are uint64, else uint32 */
#define ZS_SEG_F_BEGIN_END 2u /* begins and ends (SEG_OFFSETS, SEG_ENDS), else S + 1 offsets */
#define ZS_SEG_F_COUNT 4u     /* the count is read from SEG_COUNT, else max_segments */
#define ZS_SEG_F_N_COUNT 8u   /* a device-side key count: segments cut at min(PARAMS[0..1]) */
#define ZS_SEG_F_SKIP_LARGE 16u /* the planner's: seg_sort_ranges leaves large segments out */
#define ZS_SEG_F_CHECK 32u      /* the planner's: seg_sort_ranges checks the segments itself */

/* Segments that only the device reads (the interop's segmented sorts): a
 * seg_check launch (one work-group) validates them and writes
 * SEG_STATUS, then a seg_sort_ranges launch sorts each segment in place of
 * KEYS (and VALUES) unless the status is non-zero. flags: ZS_SEG_F_*;
 * max_segments (< 2^32 - 1): the segments, or with ZS_SEG_F_COUNT the most
 * the count may say (sizes the grid). req: n (< 2^32), key and value bytes,
 * key_flags, bits, serial; in place only. Buffers a form does not use are
 * not planned (0 bytes): their arguments name SEG_STATUS, which is never
 * read through them. Offsets are checked against n; with ZS_SEG_F_N_COUNT
 * the plan has PARAMS (two words: the recording writes the device-side key
 * count in [0] and n in [1], as for every other plan) and seg_sort_ranges
 * cuts each segment at min(PARAMS[0], PARAMS[1]); without it, no PARAMS.
 * Segments of more than ZS_SEG_LARGE_MIN keys: when n can hold
 * one, seg_sort_ranges leaves them out and seg_classify lists them on the
 * device for the onesweep passes per segment (os_seg_*, over OS_HIST,
 * OS_STATUS and SEG_LARGE), whatever req's algorithm.
 * req->small (n at most ZS_SMALL_MAX): one launch, seg_sort_ranges of one
 * work-group checking the segments itself (ZS_SEG_F_CHECK) against n.
 * With n == 0 or no segment only seg_check is planned (when
 * check_only_status: the caller reads the status; else nothing).
 * Returns 0, or -1 when out of host memory. */
int zs_plan_segments_device(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                            int check_only_status, zs_plan *out);

/* key_flags of the kernels for a key type and order: kind, descending, and
 * for the narrow types their width in memory (ZS_NARROW_*). */
uint32_t zs_key_flags(int key_type, int descending);

/* Builds a plan. Returns 0, or -1 when out of host memory. */
int zs_plan_build(const zs_plan_request *req, zs_plan *out);

/* The most keys the one launch of a small sort takes on a flavor (serial
 * or not) for keys of key_bytes with value_bytes of values (0: none). */
uint64_t zs_small_max(int serial, unsigned key_bytes, unsigned value_bytes);

/* The kernel launches a plan makes (its kernel steps of at least one
 * work-group): what a recorder appends, what the report counts. */
uint64_t zs_plan_launches(const zs_plan *plan);
void zs_plan_free(zs_plan *plan);

/* Helpers shared by planner, backends and tests. */
uint64_t zs_chunks(uint64_t n);
uint64_t zs_scan_level_len(uint64_t n, unsigned bins, unsigned level);
const char *zs_kernel_name(zs_kernel k);   /* OpenCL kernel function name */
zs_program zs_kernel_program(zs_kernel k);
/* Exclusive scan on the host (host scan mode); uint32 wraps like the device. */
void zs_host_exclusive_scan(uint32_t *table, uint64_t len);

#endif
