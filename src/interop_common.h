/*
 * interop_common.h — what the Level Zero (interop_ze.c) and OpenCL
 * (interop_cl.c) interop APIs share: the plan of a sort recorded on the
 * caller's list or queue, the layout of the caller's temporary memory,
 * building every kernel ahead of time, and the overlap check of the caller's
 * buffers (also used by zesort_sort on host arrays). Each API keeps only
 * what is its own: handles, locking, commands.
 */
#ifndef ZESORT_INTEROP_COMMON_H
#define ZESORT_INTEROP_COMMON_H

#include "error.h"
#include "kernel_blobs.h"
#include "plan.h"
#include "zesort.h"

/* Validates the options for n keys (pairs: with values) as zesort_sort does
 * and builds the plan; refuses the host scan (UNSUPPORTED: a recorded sort
 * cannot make a host round trip). *algo (may be NULL): what AUTO chose. */
zesort_status zs_interop_plan(const zesort_options *opts, uint64_t n, int pairs, zs_flavor flavor,
                              zs_plan *plan, zesort_algo *algo, zs_error *err);

/* Offsets in the caller's temp memory of the plan's buffers (not KEYS and
 * VALUES, which are the caller's own; UINT64_MAX for unused ones), each a
 * multiple of `align`; returns the bytes temp must have. */
uint64_t zs_interop_temp_layout(const zs_plan *plan, uint64_t align,
                                uint64_t offsets[ZS_BUF_COUNT]);

/* The bytes of temp memory a sort of n keys with these options needs (its
 * plan's layout with `align`), in *bytes. */
zesort_status zs_interop_temp_bytes(const zesort_options *opts, uint64_t n, int pairs,
                                    zs_flavor flavor, uint64_t align, uint64_t *bytes,
                                    zs_error *err);

/* Builds, through build(user, kernel), every kernel a sort with these
 * options (NULL: defaults; AUTO: every algorithm AUTO may pick) and
 * with_values needs (what zesort_*_prepare promise). */
zesort_status zs_interop_prepare(const zesort_options *opts, int with_values, zs_flavor flavor,
                                 zesort_status (*build)(void *user, zs_kernel kernel), void *user,
                                 zs_error *err);

/* A caller buffer's bytes: `bytes` bytes at offset `off` of the allocation
 * `root` (NULL: none; Level Zero: one address space, so root is any non-NULL
 * token and off the address; OpenCL: the root cl_mem and the sub-buffer's
 * offset). */
typedef struct zs_range {
    void *root;
    uint64_t off, bytes;
} zs_range;

/* The range of `bytes` bytes at address p of one address space (host
 * memory, or Level Zero device pointers): every such range has the same
 * root, so any two of them are compared by address. p NULL: no range. */
zs_range zs_address_range(const void *p, uint64_t bytes);

/* Which of the caller's buffers overlap ("keys and temp", ...), or NULL. */
const char *zs_interop_overlap(const zs_range *keys, const zs_range *values,
                               const zs_range *temp, const zs_range *count);

#endif
