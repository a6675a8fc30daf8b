/*
 * zesort_tuning.h — every number that gives a kernel launch its shape, in one
 * place: the planner (src/plan/plan.h, C) and every kernel (the .cl files here, OpenCL C)
 * include this file, so changing the onesweep tile or the CM chunk is a
 * one-line edit here that the planner's grids and buffer sizes and all
 * kernels follow. Plain #defines, valid C and OpenCL C.
 *
 * Per-flavor values are rows of this file (ZS_OS_SERIAL_TILE beside
 * ZS_OS_BATCHES_*), never options passed by one backend. Each value can be
 * overridden with -D when the library AND the kernels are built with the same
 * -D: only the test build `retuned` does that (tests/unit/meson.build), to
 * check that nothing else hard-codes these sizes.
 *
 * Why these values: README "Tuning" (measurements on PoCL) and the ISA report
 * (bench/isa_report.py: no kernel may spill on any Intel target).
 */
#ifndef ZESORT_TUNING_H
#define ZESORT_TUNING_H

/* ---- sub-groups ------------------------------------------------------ */

/* Lanes of a sub-group: one SIMD32 hardware thread on Intel. Fixed: the
 * kernels' lane masks are 32-bit words. */
#define ZS_LANES 32u

/* ---- CM passes (cm2, cm4: kernels/cm_radix.cl) ------------------------ */

/* Batches of ZS_LANES keys one sub-group walks per chunk; a chunk is the CM
 * design's unit: one count-table column. sg and portable flavors: one
 * work-group of ZS_LANES items per chunk; serial flavor: one work-item per
 * chunk, ZS_LANES chunks per work-group. */
#ifndef ZS_CM_BATCHES
#define ZS_CM_BATCHES 8u
#endif
#define ZS_CHUNK_KEYS (ZS_CM_BATCHES * ZS_LANES) /* keys per chunk: 256 */

/* ---- device scan of the count table (kernels/scan.cl) ----------------- */

#ifndef ZS_SCAN_LOCAL
#define ZS_SCAN_LOCAL 256u /* work-group size of scan_reduce / scan_apply */
#endif
#ifndef ZS_SCAN_PER_ITEM
#define ZS_SCAN_PER_ITEM 4u /* entries per work-item */
#endif
#define ZS_SCAN_BLOCK (ZS_SCAN_LOCAL * ZS_SCAN_PER_ITEM) /* entries per work-group: 1024 */

/* ---- onesweep (kernels/onesweep.cl) ------------------------------------ */

#define ZS_OS_BITS 8u                  /* digit width */
#define ZS_OS_BINS 256u                /* 1 << ZS_OS_BITS */
#define ZS_OS_MAX_PASSES 8u            /* 64-bit keys */

/* sg and portable flavors: work-groups of ZS_OS_SUBGROUPS sub-groups (os_pass
 * gives one bin to each work-item: at least 8), each ranking ZS_OS_BATCHES_*
 * batches of ZS_LANES keys per tile. 8 batches of 64-bit keys or of pairs held
 * in registers spilled on Intel targets (bench/isa_report.py): 4 there. */
#ifndef ZS_OS_SUBGROUPS
#define ZS_OS_SUBGROUPS 8u
#endif
#ifndef ZS_OS_BATCHES_K32
#define ZS_OS_BATCHES_K32 8u  /* 32-bit keys only: tiles of 2048 keys */
#endif
#ifndef ZS_OS_BATCHES_WIDE
#define ZS_OS_BATCHES_WIDE 4u /* 64-bit keys or pairs: tiles of 1024 keys */
#endif
#define ZS_OS_WG (ZS_OS_SUBGROUPS * ZS_LANES) /* work-items per tile: 256 */

/* serial flavor: one work-item per tile of this many keys, any key width.
 * 65536 measured fastest on PoCL among 8192..131072 (README, "Tuning"). */
#ifndef ZS_OS_SERIAL_TILE
#define ZS_OS_SERIAL_TILE 65536u
#endif

/* Keys per onesweep tile: serial (0|1) flavor, wide (0|1): 64-bit keys or pairs. */
#define ZS_OS_TILE(serial, wide)                                                               \
    ((serial) ? ZS_OS_SERIAL_TILE : ZS_OS_WG * ((wide) ? ZS_OS_BATCHES_WIDE : ZS_OS_BATCHES_K32))

/* os_fill: work-group size (any flavor). */
#define ZS_OS_FILL_WG 256u

/* Buffer OS_HIST: ZS_OS_MAX_PASSES digit histograms of ZS_OS_BINS words (each
 * digit's global base after os_scan_hist), then one tile counter per pass. */
#define ZS_OS_HIST_COUNTERS (ZS_OS_MAX_PASSES * ZS_OS_BINS)
#define ZS_OS_HIST_WORDS (ZS_OS_HIST_COUNTERS + ZS_OS_MAX_PASSES)

/* Buffer OS_STATUS, per tile: ZS_OS_BINS aggregates (the tile's own counts),
 * then ZS_OS_BINS inclusive prefixes over tiles 0..tile. A word holds
 * ZS_OS_NOT_READY until published, so onesweep sorts at most
 * ZS_OS_NOT_READY - 1 keys. */
#define ZS_OS_STATUS_WORDS (2u * ZS_OS_BINS)
#define ZS_OS_NOT_READY 0xFFFFFFFFu

/* ---- segmented sort (kernels/segsort.cl) ------------------------------ */

/* Key positions per seg_sort work-group: it sorts the segments that start
 * there (so at most this many keys plus one segment). sg and portable
 * flavors: 32 lanes; serial flavor: one work-item, sized like the onesweep
 * serial tile so that a CPU gets a few hundred work-groups for 16M keys. */
#ifndef ZS_SEG_WINDOW_SG
#define ZS_SEG_WINDOW_SG 4096u
#endif
#ifndef ZS_SEG_WINDOW_SERIAL
#define ZS_SEG_WINDOW_SERIAL 65536u
#endif
#define ZS_SEG_WINDOW(serial) ((serial) ? ZS_SEG_WINDOW_SERIAL : ZS_SEG_WINDOW_SG)

/* seg_sort_ranges (segments read on the device, any order): one work-group
 * per this many keys of n, at most one per segment, each taking segments by
 * stride. sg and portable: enough work-groups to fill a GPU with short
 * segments; serial: a few per CPU core. */
#ifndef ZS_SEG_STRIDE_KEYS_SG
#define ZS_SEG_STRIDE_KEYS_SG 512u
#endif
#ifndef ZS_SEG_STRIDE_KEYS_SERIAL
#define ZS_SEG_STRIDE_KEYS_SERIAL 8192u
#endif
#define ZS_SEG_STRIDE_KEYS(serial) ((serial) ? ZS_SEG_STRIDE_KEYS_SERIAL : ZS_SEG_STRIDE_KEYS_SG)

/* serial flavor: segments of at most this many keys by insertion sort. */
#ifndef ZS_SEG_INSERTION
#define ZS_SEG_INSERTION 16u
#endif

/* serial flavor: segments of at most this many keys sort in local memory
 * (two arrays of keys, two of values for pairs: 128 KiB for 8-byte keys and
 * values, of PoCL's 1 MiB); longer ones ping-pong with TMP in global memory,
 * whose stretch of a segment is cold every call: its first pass's stores
 * missed the caches, most of seg_sort's time at 4096 keys (perf annotate). */
#ifndef ZS_SEG_LOCAL_SERIAL
#define ZS_SEG_LOCAL_SERIAL 4096u
#endif

/* ---- small sorts: one work-group, one launch (small_sort, segsort.cl) -- */

/* The most keys (n, or max_n for a count read on the device) that the
 * planner sorts by the one launch of small_sort or, segmented, of
 * seg_sort_ranges: per flavor (serial: one work-item, sg and portable: one
 * sub-group of ZS_LANES) and key width (wide: 64-bit keys or pairs). sg
 * and portable sort by 4-bit passes in global memory, serial by 8-bit
 * passes in local memory up to ZS_SEG_LOCAL_SERIAL keys. sg and portable
 * stop at 2048, where the portable flavor's one sub-group stopped beating
 * onesweep on PoCL; serial goes to 4096, still well ahead there
 * (docs/results.md, "Small sorts and launches per sort"). At most a large
 * segment's threshold: a small segmented sort has no large segment. */
#ifndef ZS_SMALL_MAX_K32
#define ZS_SMALL_MAX_K32 2048u
#endif
#ifndef ZS_SMALL_MAX_WIDE
#define ZS_SMALL_MAX_WIDE 2048u
#endif
#ifndef ZS_SMALL_MAX_SERIAL
#define ZS_SMALL_MAX_SERIAL ZS_SEG_LOCAL_SERIAL
#endif
#define ZS_SMALL_MAX(serial, wide)                                                            \
    ((serial) ? ZS_SMALL_MAX_SERIAL : (wide) ? ZS_SMALL_MAX_WIDE : ZS_SMALL_MAX_K32)

/* ---- large segments: the global passes per segment ---------------------- */

/* A segment read on the device that holds more than this many keys is
 * sorted by the onesweep passes over its own tiles (os_seg_* kernels in
 * kernels/onesweep.cl), shorter ones by one work-group each
 * (seg_sort_ranges). At least a onesweep tile, so that the tiles of all
 * large segments are at most ceil(n / tile) + n / (this + 1). serial: 64K,
 * where seg_sort was measured against other paths (docs/design.md §1.5);
 * sg and portable: the portable flavor's seg_sort beat other paths up to
 * 16K keys on PoCL. */
#ifndef ZS_SEG_LARGE_MIN_SG
#define ZS_SEG_LARGE_MIN_SG 16384u
#endif
#ifndef ZS_SEG_LARGE_MIN_SERIAL
#define ZS_SEG_LARGE_MIN_SERIAL 65536u
#endif
#define ZS_SEG_LARGE_MIN(serial) ((serial) ? ZS_SEG_LARGE_MIN_SERIAL : ZS_SEG_LARGE_MIN_SG)
#if ZS_SEG_LARGE_MIN_SERIAL < ZS_OS_SERIAL_TILE || ZS_SEG_LARGE_MIN_SG < ZS_OS_TILE(0, 0)
#error "a large segment holds more keys than a onesweep tile (the planner's bound on tiles)"
#endif
#if ZS_SMALL_MAX_SERIAL > ZS_SEG_LARGE_MIN_SERIAL || ZS_SMALL_MAX_K32 > ZS_SEG_LARGE_MIN_SG ||    \
    ZS_SMALL_MAX_WIDE > ZS_SEG_LARGE_MIN_SG
#error "a small sort's segments are all short ones (seg_sort_ranges alone)"
#endif

/* Buffer SEG_LARGE (uint words), written by seg_classify: [0] the large
 * segments listed, [1] their tiles in all, [2 + p] pass p's tile counter,
 * then per large segment j at ZS_SEG_LARGE_HEAD + ZS_SEG_LARGE_ENTRY * j
 * its first tile, begin and end (cut at a device-side key count). */
#define ZS_SEG_LARGE_COUNT 0u
#define ZS_SEG_LARGE_TILES 1u
#define ZS_SEG_LARGE_COUNTERS 2u
#define ZS_SEG_LARGE_HEAD 16u
#define ZS_SEG_LARGE_ENTRY 4u
/* ---- top-k radix select (kernels/select.cl) ---------------------------- */

/* Work-items of the select kernels but sel_pick (one) (sel_hist gives one bin to each: at
 * least ZS_OS_BINS). */
#define ZS_SEL_WG 256u
/* Keys per sel_hist work-group: ZS_SEL_WG items, this many keys each. */
#ifndef ZS_SEL_HIST_PER_ITEM
#define ZS_SEL_HIST_PER_ITEM 16u
#endif
#define ZS_SEL_HIST_TILE (ZS_SEL_WG * ZS_SEL_HIST_PER_ITEM)
/* sel_count and sel_scatter: CM chunks (ZS_CHUNK_KEYS keys, the count
 * table's rows, which the scan of scan.cl reads) per work-group. */
#ifndef ZS_SEL_CHUNKS_PER_GROUP
#define ZS_SEL_CHUNKS_PER_GROUP 16u
#endif
/* serial flavor (one work-item a work-group, no barrier, no local atomic:
 * a CPU runs those as loops over the items, and PoCL's local atomics cost
 * ~20 ns a key): keys per sel_hist work-item, and chunks per sel_count and
 * sel_scatter work-item. */
#ifndef ZS_SEL_SERIAL_TILE
#define ZS_SEL_SERIAL_TILE 65536u
#endif
#ifndef ZS_SEL_SERIAL_CHUNKS
#define ZS_SEL_SERIAL_CHUNKS 256u
#endif
#define ZS_SEL_TILE(serial) ((serial) ? ZS_SEL_SERIAL_TILE : ZS_SEL_HIST_TILE)
#define ZS_SEL_CHUNKS(serial) ((serial) ? ZS_SEL_SERIAL_CHUNKS : ZS_SEL_CHUNKS_PER_GROUP)
#define ZS_SEL_LOCAL(serial) ((serial) ? 1u : ZS_SEL_WG)

/* Buffer SEL_HIST: a ZS_OS_BINS-bin histogram per pass (8 for 64-bit keys).
 * Buffer SEL_STATE: the select's state words (kernels/select.cl). */
#define ZS_SEL_HIST_WORDS (ZS_OS_MAX_PASSES * ZS_OS_BINS)
#define ZS_SEL_STATE_WORDS 16u

#endif /* ZESORT_TUNING_H */
