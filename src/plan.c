/*
 * plan.c — the planner: which kernels run, in which order, over which buffers.
 * Knows nothing about Level Zero or OpenCL (see plan.h for the kernel interface).
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

uint64_t zs_chunks(uint64_t n) { return (n + ZS_CHUNK_KEYS - 1) / ZS_CHUNK_KEYS; }

uint64_t zs_scan_level_len(uint64_t n, unsigned bins, unsigned level)
{
    uint64_t len = (uint64_t)bins * zs_chunks(n);
    for (unsigned l = 0; l < level; ++l)
        len = (len + ZS_SCAN_BLOCK - 1) / ZS_SCAN_BLOCK;
    return len;
}

static const struct {
    const char *name;
    zs_program program;
} kernel_info[ZS_K_COUNT] = {
    [ZS_K_CM2_COUNT] = {"cm_count", ZS_PROG_CM2},
    [ZS_K_CM2_BUCKET] = {"cm_bucket", ZS_PROG_CM2},
    [ZS_K_CM4_COUNT] = {"cm_count", ZS_PROG_CM4},
    [ZS_K_CM4_BUCKET] = {"cm_bucket", ZS_PROG_CM4},
    [ZS_K_SCAN_REDUCE] = {"scan_reduce", ZS_PROG_SCAN},
    [ZS_K_SCAN_APPLY] = {"scan_apply", ZS_PROG_SCAN},
};

const char *zs_kernel_name(zs_kernel k) { return kernel_info[k].name; }
zs_program zs_kernel_program(zs_kernel k) { return kernel_info[k].program; }

void zs_host_exclusive_scan(uint32_t *table, uint64_t len)
{
    uint32_t running = 0;
    for (uint64_t i = 0; i < len; ++i) {
        uint32_t v = table[i];
        table[i] = running;
        running += v;
    }
}

static zs_step *push(zs_plan *plan)
{
    if (plan->nsteps == plan->cap) {
        size_t cap = plan->cap ? plan->cap * 2 : 64;
        zs_step *grown = realloc(plan->steps, cap * sizeof *grown);
        if (!grown)
            return NULL;
        plan->steps = grown;
        plan->cap = cap;
    }
    zs_step *s = &plan->steps[plan->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

static zs_arg buf(zs_buffer b) { return (zs_arg){1, (uint32_t)b}; }
static zs_arg val(uint32_t v) { return (zs_arg){0, v}; }

static int push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                       const zs_arg *args)
{
    zs_step *s = push(plan);
    if (!s)
        return -1;
    s->kind = ZS_STEP_KERNEL;
    s->kernel = k;
    s->groups = groups;
    s->local = local;
    s->nargs = nargs;
    memcpy(s->args, args, (size_t)nargs * sizeof *args);
    return 0;
}

/* Exclusive scan of the level-`level` array (TABLE for level 0, SUMS[level-1]
 * above) in place: reduce blocks into SUMS[level], scan those recursively,
 * then scan each block plus its offset. */
static int plan_device_scan(zs_plan *plan, unsigned bins, unsigned level)
{
    uint64_t len = zs_scan_level_len(plan->n, bins, level);
    uint64_t blocks = (len + ZS_SCAN_BLOCK - 1) / ZS_SCAN_BLOCK;
    zs_buffer data = level == 0 ? ZS_BUF_TABLE : (zs_buffer)(ZS_BUF_SUMS0 + level - 1);
    if (blocks <= 1) {
        zs_arg a[] = {buf(data), buf(data), buf(ZS_BUF_PARAMS), val(bins), val(level), val(0)};
        return push_kernel(plan, ZS_K_SCAN_APPLY, 1, ZS_SCAN_LOCAL, 6, a);
    }
    if (level + 1 > ZS_MAX_SCAN_LEVELS)
        return -1; /* unreachable for n < 2^32 */
    zs_buffer sums = (zs_buffer)(ZS_BUF_SUMS0 + level);
    plan->buffer_bytes[sums] = blocks * sizeof(uint32_t);
    zs_arg r[] = {buf(data), buf(sums), buf(ZS_BUF_PARAMS), val(bins), val(level)};
    if (push_kernel(plan, ZS_K_SCAN_REDUCE, blocks, ZS_SCAN_LOCAL, 5, r) ||
        plan_device_scan(plan, bins, level + 1))
        return -1;
    zs_arg a[] = {buf(data), buf(sums), buf(ZS_BUF_PARAMS), val(bins), val(level), val(1)};
    return push_kernel(plan, ZS_K_SCAN_APPLY, blocks, ZS_SCAN_LOCAL, 6, a);
}

int zs_plan_build(const zs_plan_request *req, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0)
        return 0;
    const unsigned bits = (unsigned)req->radix_bits;
    const unsigned bins = 1u << bits;
    const uint64_t chunks = zs_chunks(req->n);
    const zs_kernel count = bits == 2 ? ZS_K_CM2_COUNT : ZS_K_CM4_COUNT;
    const zs_kernel bucket = bits == 2 ? ZS_K_CM2_BUCKET : ZS_K_CM4_BUCKET;

    out->buffer_bytes[ZS_BUF_KEYS] = req->n * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_TMP] = req->n * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_TABLE] = (uint64_t)bins * chunks * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_PARAMS] = 4 * sizeof(uint32_t);

    zs_buffer src = ZS_BUF_KEYS, dst = ZS_BUF_TMP;
    for (unsigned shift = req->shift_lo; shift < req->key_bits; shift += bits) {
        zs_arg c[] = {buf(src), buf(ZS_BUF_TABLE), buf(ZS_BUF_PARAMS), val(shift)};
        if (push_kernel(out, count, chunks, ZS_LANES, 4, c))
            goto oom;
        if (req->host_scan) {
            zs_step *s = push(out);
            if (!s)
                goto oom;
            s->kind = ZS_STEP_HOST_SCAN;
            s->table_len = (uint64_t)bins * chunks;
        } else if (plan_device_scan(out, bins, 0)) {
            goto oom;
        }
        zs_arg b[] = {buf(src), buf(dst), buf(ZS_BUF_TABLE), buf(ZS_BUF_PARAMS), val(shift)};
        if (push_kernel(out, bucket, chunks, ZS_LANES, 5, b))
            goto oom;
        zs_buffer t = src;
        src = dst;
        dst = t;
    }
    if (src != ZS_BUF_KEYS) { /* odd number of passes: bring the result home */
        zs_step *s = push(out);
        if (!s)
            goto oom;
        s->kind = ZS_STEP_COPY;
        s->src = src;
        s->dst = ZS_BUF_KEYS;
        s->bytes = req->n * sizeof(uint32_t);
    }
    return 0;
oom:
    zs_plan_free(out);
    return -1;
}

void zs_plan_free(zs_plan *plan)
{
    free(plan->steps);
    memset(plan, 0, sizeof *plan);
}
