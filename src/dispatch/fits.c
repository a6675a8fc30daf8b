/*
 * fits.c — what fits (fits.h): a device's memory and largest allocation
 * against a plan's buffers, the C fallback's limits, the host's memory.
 */
#include "dispatch/fits.h"

#include <stdio.h>
#include <unistd.h>

#include "backends/cpu/backend_cpu.h"
#include "common/test_hooks.h"
#include "dispatch/group.h"

int zs_plan_bytes(const zs_plan_request *req, uint64_t n, uint64_t *total, uint64_t *biggest)
{
    zs_plan_request r = *req;
    r.n = n;
    zs_plan plan;
    if (zs_plan_build(&r, &plan) != 0)
        return 0;
    *total = *biggest = 0;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        *total += plan.buffer_bytes[b];
        if (plan.buffer_bytes[b] > *biggest)
            *biggest = plan.buffer_bytes[b];
    }
    zs_plan_free(&plan);
    return 1;
}

int zs_fits_device(const zs_plan_request *req, uint64_t n, uint64_t memory, uint64_t largest)
{
    uint64_t total, biggest;
    return zs_plan_bytes(req, n, &total, &biggest) && biggest <= largest &&
           (!memory || total <= memory);
}

/* The most keys ctx sorts in one go for req (at least 1; req->n or more when
 * the whole sort fits): a device's memory and largest allocation (or the
 * test hook's budget, when smaller) and ZESORT_MAX_KEYS; the C fallback's
 * zs_cpu_max_keys (and the budget at 2 * (key + value bytes) a key). */
uint64_t zs_part_max_keys(zesort_context *ctx, const zs_plan_request *req)
{
    const uint64_t budget = zs_test_budget();
    if (!ctx->ops) {
        uint64_t max = zs_cpu_max_keys(req->value_bytes != 0, req->key_bytes, req->bit_lo,
                                       req->bit_hi);
        const uint64_t per_key = 2u * (req->key_bytes + req->value_bytes);
        if (budget && budget / per_key < max)
            max = budget / per_key ? budget / per_key : 1;
        return max;
    }
    uint64_t memory = 0, largest = UINT64_MAX;
    ctx->ops->memory(ctx->dev, &memory, &largest);
    if (budget && (!memory || budget < memory))
        memory = budget;
    if (req->n <= ZESORT_MAX_KEYS && zs_fits_device(req, req->n, memory, largest))
        return req->n;
    uint64_t lo = 1, hi = req->n < ZESORT_MAX_KEYS ? req->n : ZESORT_MAX_KEYS; /* fits(lo) */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (zs_fits_device(req, mid, memory, largest))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint64_t zs_group_max_keys(zesort_context *ctx, const zs_plan_request *req, unsigned devices)
{
    uint64_t max = UINT64_MAX;
    for (unsigned d = 0; d < devices; d++) {
        const uint64_t m = zs_part_max_keys(zs_group_device(ctx, d), req);
        max = m < max ? m : max;
    }
    return max;
}

/* The host memory of this machine (0: unknown). */
static uint64_t host_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* The host memory a sort of req in `parts` parts of at most part_keys keys
 * needs, checked against the host's before anything is read (zesort_check
 * says the same): the caller's arrays, the split's copy of them (parts >
 * 1), and the C fallback's scratch for a part's radix passes (a balanced
 * part's keys and values; none beyond 2^32 - 1 keys: vqsort, in place). */
zesort_status zs_check_host(zesort_context *ctx, const zs_plan_request *req, uint64_t parts,
                                uint64_t part_keys)
{
    const uint64_t per_key = req->key_bytes + req->value_bytes, host = host_memory();
    const uint64_t arrays = req->n * per_key, copy = parts > 1 ? arrays : 0;
    const uint64_t share = (req->n + parts - 1) / parts;
    const uint64_t part = share < part_keys ? share : part_keys;
    const uint64_t scratch = !ctx->ops && part <= UINT32_MAX ? part * per_key : 0;
    if (!host || arrays + copy + scratch <= host)
        return ZESORT_OK;
    const double gib = 1u << 30;
    char what[200];
    int len = snprintf(what, sizeof what, "its arrays %.2f GiB", (double)arrays / gib);
    if (copy)
        len += snprintf(what + len, sizeof what - (size_t)len,
                        ", the split's copy %.2f GiB (%llu parts of about %llu keys)",
                        (double)copy / gib, (unsigned long long)parts, (unsigned long long)part);
    if (scratch)
        snprintf(what + len, sizeof what - (size_t)len, ", the C fallback's scratch %.2f GiB",
                 (double)scratch / gib);
    return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                        "a sort of %llu keys needs %.2f GiB of host memory, more than the host "
                        "has (%.2f GiB): %s", (unsigned long long)req->n,
                        (double)(arrays + copy + scratch) / gib, (double)host / gib, what);
}
