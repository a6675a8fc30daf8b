/*
 * ranges.h — the caller's arrays as byte ranges, and which two of them
 * share a byte (ranges.c): zesort_sort's host arrays (api_sort.c) and the
 * interop APIs' buffers (interop_ze.c, interop_cl.c) are refused when they
 * overlap.
 */
#ifndef ZESORT_RANGES_H
#define ZESORT_RANGES_H

#include <stdint.h>

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

/* A range with the name it has in messages ("keys", "temp", ...). */
typedef struct zs_named_range {
    const char *name;
    zs_range range;
} zs_named_range;

/* The first two of `count` named ranges that share a byte: 1 with their
 * names in *a and *b, or 0. */
int zs_ranges_overlap(const zs_named_range *r, int count, const char **a, const char **b);

#endif
