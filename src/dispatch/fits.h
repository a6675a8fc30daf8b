/*
 * fits.h — what fits (fits.c): the most keys one sort takes at once on
 * a device (its memory and largest allocation, the test budget,
 * ZESORT_MAX_KEYS) or on the C fallback, and whether the host has the
 * memory a sort needs. The dispatcher's questions before it picks a path.
 */
#ifndef ZESORT_DISPATCH_FITS_H
#define ZESORT_DISPATCH_FITS_H

#include <stdint.h>

#include "plan/plan.h"
#include "run/context.h"

/* The device memory a plan of n keys of req allocates: its buffers' sum
 * and its biggest. 0 when out of host memory. */
int zs_plan_bytes(const zs_plan_request *req, uint64_t n, uint64_t *total, uint64_t *biggest);

/* Whether a sort of n keys fits the device: memory (0: unknown) and largest. */
int zs_fits_device(const zs_plan_request *req, uint64_t n, uint64_t memory, uint64_t largest);

/* The most keys one sort on ctx's device can take at once with req (at
 * least 1; req->n or more when the whole sort fits). */
uint64_t zs_part_max_keys(zesort_context *ctx, const zs_plan_request *req);

/* The most keys one part may have on the first `devices` devices of ctx's
 * group: the smallest device's. */
uint64_t zs_group_max_keys(zesort_context *ctx, const zs_plan_request *req, unsigned devices);

/* The host memory a sort of req in `parts` parts of at most part_keys keys
 * needs, checked against the host's before anything is read:
 * OUT_OF_HOST_MEMORY with a message on ctx saying what needs how much. */
zesort_status zs_check_host(zesort_context *ctx, const zs_plan_request *req, uint64_t parts,
                            uint64_t part_keys);

#endif
