/*
 * plan.h — the planner: turns (algorithm, scan mode, n) into a list of kernel
 * launches over named buffers. It knows nothing about Level Zero or OpenCL;
 * device backends execute a plan (see run_plan.c).
 *
 * Kernel interface (kernels/cm_radix.cl, kernels/scan.cl). Every kernel reads n from params[0]
 * (a device buffer) so that the same launches serve a count known only on the
 * device (indirect sorts); grids are sized for the maximum n.
 *
 *   program CM (per digit width RADIX_BITS = 2|4, flavor sg|portable):
 *     cm_count (keys, table, params, shift)           local 32, one group per 256-key chunk
 *     cm_bucket(keys_in, keys_out, table, params, shift)
 *   program SCAN (flavor independent), local ZS_SCAN_LOCAL:
 *     scan_reduce(data, sums, params, bins, level)    one group per ZS_SCAN_BLOCK entries
 *     scan_apply (data, sums, params, bins, level, has_sums)
 *
 * Table layout: bin-major, table[bin * chunks + chunk], chunks = ceil(n/256).
 * One linear exclusive scan of it yields every (chunk, bin)'s first output slot.
 * Scan level lengths: len(0) = bins * chunks; len(k+1) = ceil(len(k) / ZS_SCAN_BLOCK).
 */
#ifndef ZESORT_PLAN_H
#define ZESORT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define ZS_CHUNK_KEYS 256u   /* keys per chunk (one sub-group of 32 lanes, 8 batches) */
#define ZS_LANES 32u         /* sub-group width of the CM kernels */
#define ZS_SCAN_LOCAL 256u   /* work-group size of the scan kernels */
#define ZS_SCAN_BLOCK 1024u  /* entries scanned by one scan work-group */
#define ZS_MAX_SCAN_LEVELS 4 /* 1024^4 entries > any table of n < 2^32 keys */

typedef enum zs_program { ZS_PROG_CM2, ZS_PROG_CM4, ZS_PROG_SCAN, ZS_PROG_COUNT } zs_program;

typedef enum zs_kernel {
    ZS_K_CM2_COUNT, ZS_K_CM2_BUCKET,
    ZS_K_CM4_COUNT, ZS_K_CM4_BUCKET,
    ZS_K_SCAN_REDUCE, ZS_K_SCAN_APPLY,
    ZS_K_COUNT
} zs_kernel;

/* Buffers a plan refers to. KEYS holds the input and, after the plan, the output. */
typedef enum zs_buffer {
    ZS_BUF_KEYS, ZS_BUF_TMP, ZS_BUF_TABLE, ZS_BUF_PARAMS,
    ZS_BUF_SUMS0, ZS_BUF_SUMS1, ZS_BUF_SUMS2, ZS_BUF_SUMS3,
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

#define ZS_MAX_ARGS 6
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
} zs_plan;

/* Planner request. */
typedef struct zs_plan_request {
    int radix_bits;     /* 2 or 4 */
    int host_scan;      /* 1: host scan steps (needs a host round trip) */
    uint64_t n;         /* keys (maximum n for indirect sorts) */
    unsigned shift_lo;  /* first digit starts at this bit (0 for a full sort) */
    unsigned key_bits;  /* digits cover bits [shift_lo, key_bits) */
} zs_plan_request;

/* Builds a plan. Returns 0, or -1 when out of host memory. */
int zs_plan_build(const zs_plan_request *req, zs_plan *out);
void zs_plan_free(zs_plan *plan);

/* Helpers shared by planner, backends and tests. */
uint64_t zs_chunks(uint64_t n);
uint64_t zs_scan_level_len(uint64_t n, unsigned bins, unsigned level);
const char *zs_kernel_name(zs_kernel k);   /* OpenCL kernel function name */
zs_program zs_kernel_program(zs_kernel k);
/* Exclusive scan on the host (host scan mode); uint32 wraps like the device. */
void zs_host_exclusive_scan(uint32_t *table, uint64_t len);

#endif
