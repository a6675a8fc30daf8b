/*
 * plan.c — the planner of sorts: which kernels run, in which order, over which
 * buffers (CM passes, onesweep, a small sort), and the step builders the
 * other planners share (plan_steps.h). The kernels it picks are the
 * catalogue's (catalog.c); segmented sorts are planned in plan_segments.c.
 * Knows nothing about Level Zero or OpenCL (see plan.h for the kernel interface).
 * Every size of a kernel's shape comes from kernels/zesort_tuning.h.
 */
#include "plan/plan.h"
#include "plan/plan_steps.h"

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

static int push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes)
{
    zs_step *s = push(plan);
    if (!s)
        return -1;
    s->kind = ZS_STEP_COPY;
    s->src = src;
    s->dst = dst;
    s->bytes = bytes;
    return 0;
}

/* In place: KEYS -> TMP -> KEYS ..., and a copy home after an odd number of
 * passes. Out of place: the first pass reads KEYS_IN and writes KEYS or TMP,
 * whichever makes the last pass write KEYS (no copy home, input never written). */
zs_ping_pong zs_plan_ping_pong_start(const zs_plan_request *req, unsigned passes)
{
    const zs_buffer out = req->out_of_place && passes % 2 ? ZS_BUF_KEYS : ZS_BUF_TMP;
    const zs_buffer vout = out == ZS_BUF_KEYS ? ZS_BUF_VALUES : ZS_BUF_VALUES_TMP;
    zs_ping_pong p = {req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS, out, 0, 0,
                      req->iota_values ? ZS_IOTA_VALUES : 0u};
    if (!req->value_bytes) { /* keys only */
        p.values_in = p.keys_in;
        p.values_out = p.keys_out;
    } else {
        /* argsort: the first pass reads no values; any value buffer will do */
        p.values_in = req->iota_values ? vout : req->out_of_place ? ZS_BUF_VALUES_IN
                                                                  : ZS_BUF_VALUES;
        p.values_out = vout;
    }
    return p;
}

void zs_plan_ping_pong_swap(zs_ping_pong *p, int pairs)
{
    const zs_buffer k = p->keys_out == ZS_BUF_KEYS ? ZS_BUF_TMP : ZS_BUF_KEYS;
    const zs_buffer v = k == ZS_BUF_KEYS ? ZS_BUF_VALUES : ZS_BUF_VALUES_TMP;
    *p = (zs_ping_pong){p->keys_out, k, pairs ? p->values_out : p->keys_out, pairs ? v : k, 0};
}

/* After an odd number of in-place passes the result is in the temporaries:
 * bring it home, or, keep_result, leave it there and say so (plan->result). */
static int ping_pong_finish(zs_plan *plan, const zs_ping_pong *p, const zs_plan_request *req)
{
    if (p->keys_in == ZS_BUF_KEYS)
        return 0;
    if (req->keep_result && p->keys_in == ZS_BUF_TMP) {
        plan->result = ZS_BUF_TMP;
        return 0;
    }
    return push_copy(plan, p->keys_in, ZS_BUF_KEYS, req->n * req->key_bytes) ||
           (req->value_bytes &&
            push_copy(plan, p->values_in, ZS_BUF_VALUES, req->n * req->value_bytes));
}

uint32_t zs_plan_digit_mask(const zs_plan_request *req, unsigned shift, unsigned bits)
{
    const unsigned width = req->bit_hi - shift < bits ? req->bit_hi - shift : bits;
    return (1u << width) - 1u;
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
        zs_arg a[] = {zs_buf(data), zs_buf(data), zs_buf(ZS_BUF_PARAMS), zs_val(bins),
                      zs_val(level), zs_val(0)};
        return push_kernel(plan, ZS_K_SCAN_APPLY, 1, ZS_SCAN_LOCAL, 6, a);
    }
    if (level + 1 > ZS_MAX_SCAN_LEVELS)
        return -1; /* unreachable for n < 2^32 */
    zs_buffer sums = (zs_buffer)(ZS_BUF_SUMS0 + level);
    plan->buffer_bytes[sums] = blocks * sizeof(uint32_t);
    zs_arg r[] = {zs_buf(data), zs_buf(sums), zs_buf(ZS_BUF_PARAMS), zs_val(bins),
                  zs_val(level)};
    if (push_kernel(plan, ZS_K_SCAN_REDUCE, blocks, ZS_SCAN_LOCAL, 5, r) ||
        plan_device_scan(plan, bins, level + 1))
        return -1;
    zs_arg a[] = {zs_buf(data), zs_buf(sums), zs_buf(ZS_BUF_PARAMS), zs_val(bins),
                  zs_val(level), zs_val(1)};
    return push_kernel(plan, ZS_K_SCAN_APPLY, blocks, ZS_SCAN_LOCAL, 6, a);
}

int zs_plan_push_fill(zs_plan *plan, zs_kernel fill, zs_buffer b, uint32_t value,
                      uint64_t words)
{
    zs_arg a[] = {zs_buf(b), zs_val(value), zs_val((uint32_t)words)};
    return push_kernel(plan, fill, (words + ZS_OS_FILL_WG - 1) / ZS_OS_FILL_WG, ZS_OS_FILL_WG, 3,
                       a);
}

void zs_plan_data_buffers(const zs_plan_request *req, zs_plan *out)
{
    out->buffer_bytes[ZS_BUF_KEYS] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_TMP] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_PARAMS] = 4 * sizeof(uint32_t);
    if (req->out_of_place)
        out->buffer_bytes[ZS_BUF_KEYS_IN] = req->n * req->key_bytes;
    if (req->value_bytes) {
        out->buffer_bytes[ZS_BUF_VALUES] = req->n * req->value_bytes;
        out->buffer_bytes[ZS_BUF_VALUES_TMP] = req->n * req->value_bytes;
        if (req->out_of_place && !req->iota_values)
            out->buffer_bytes[ZS_BUF_VALUES_IN] = req->n * req->value_bytes;
    }
}

/* Onesweep: a fill of the histograms, all histograms in one read, their
 * scan, then one chained-scan pass per ZS_OS_BITS-bit digit: 3 + passes
 * launches (the kernels clear the passes' status words themselves). */
static int plan_onesweep(const zs_plan_request *req, zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const zs_program prog = zs_os_program(key64, req->value_bytes);
    const zs_kernel fill = zs_os_kernel(prog, ZS_OS_FILL);
    const uint64_t tile = zs_os_tile(key64, req->value_bytes != 0, req->serial);
    const uint64_t tiles = (req->n + tile - 1) / tile;
    const uint32_t local = req->serial ? 1 : ZS_OS_WG; /* serial flavor: a work-item per tile */
    const unsigned passes = (req->bit_hi - req->bit_lo + ZS_OS_BITS - 1) / ZS_OS_BITS;
    /* status: one array per pass parity; the histogram kernel clears pass 0's
     * words, each pass the next pass's (kernels/onesweep.cl) */
    const uint64_t hist_words = ZS_OS_HIST_WORDS, status_words = 2 * tiles * ZS_OS_STATUS_WORDS;

    zs_plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_OS_HIST] = hist_words * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_OS_STATUS] = status_words * sizeof(uint32_t);

    zs_ping_pong pp = zs_plan_ping_pong_start(req, passes);
    zs_arg h[] = {zs_buf(pp.keys_in), zs_buf(ZS_BUF_OS_HIST), zs_buf(ZS_BUF_OS_STATUS),
                  zs_buf(ZS_BUF_PARAMS), zs_val(req->bit_lo), zs_val(req->bit_hi),
                  zs_val(req->key_flags)};
    zs_arg sh[] = {zs_buf(ZS_BUF_OS_HIST)};
    if (zs_plan_push_fill(out, fill, ZS_BUF_OS_HIST, 0, hist_words) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_HISTOGRAM), tiles, local, 7, h) ||
        push_kernel(out, zs_os_kernel(prog, ZS_OS_SCAN_HIST), passes, ZS_OS_BINS, 1, sh))
        return -1;

    for (unsigned p = 0; p < passes; ++p) {
        const unsigned shift = req->bit_lo + ZS_OS_BITS * p;
        zs_arg a[] = {zs_buf(pp.keys_in), zs_buf(pp.keys_out), zs_buf(pp.values_in),
                      zs_buf(pp.values_out), zs_buf(ZS_BUF_OS_HIST), zs_buf(ZS_BUF_OS_STATUS),
                      zs_buf(ZS_BUF_PARAMS), zs_val(shift),
                      zs_val(zs_plan_digit_mask(req, shift, ZS_OS_BITS)),
                      zs_val(req->key_flags | pp.first_flags), zs_val(p)};
        if (push_kernel(out, zs_os_kernel(prog, ZS_OS_PASS), tiles, local, 11, a))
            return -1;
        zs_plan_ping_pong_swap(&pp, req->value_bytes != 0);
    }
    return ping_pong_finish(out, &pp, req);
}

/* The CM design: per digit, count, scan (host or device), bucket. */
static int plan_cm(const zs_plan_request *req, zs_plan *out)
{
    const unsigned bits = (unsigned)req->radix_bits;
    const unsigned bins = 1u << bits;
    const uint64_t chunks = zs_chunks(req->n);
    const int key64 = req->key_bytes == 8;
    /* sub-group flavors: a work-group (one sub-group) per chunk; serial flavor:
     * a work-item per chunk, ZS_LANES of them per work-group */
    const uint64_t groups = req->serial ? (chunks + ZS_LANES - 1) / ZS_LANES : chunks;
    /* counting never looks at values: the keys-only program serves pairs too */
    const zs_kernel count = zs_cm_kernel(zs_cm_program(req->radix_bits, key64, 0), 0);
    const zs_kernel bucket =
        zs_cm_kernel(zs_cm_program(req->radix_bits, key64, req->value_bytes), 1);
    const unsigned passes = (req->bit_hi - req->bit_lo + bits - 1) / bits;

    zs_plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_TABLE] = (uint64_t)bins * chunks * sizeof(uint32_t);

    zs_ping_pong pp = zs_plan_ping_pong_start(req, passes);
    for (unsigned shift = req->bit_lo; shift < req->bit_hi; shift += bits) {
        const uint32_t mask = zs_plan_digit_mask(req, shift, bits);
        zs_arg c[] = {zs_buf(pp.keys_in), zs_buf(ZS_BUF_TABLE), zs_buf(ZS_BUF_PARAMS),
                      zs_val(shift), zs_val(mask), zs_val(req->key_flags)};
        if (push_kernel(out, count, groups, ZS_LANES, 6, c))
            return -1;
        if (req->host_scan) {
            zs_step *s = push(out);
            if (!s)
                return -1;
            s->kind = ZS_STEP_HOST_SCAN;
            s->table_len = (uint64_t)bins * chunks;
        } else if (plan_device_scan(out, bins, 0)) {
            return -1;
        }
        zs_arg b[] = {zs_buf(pp.keys_in), zs_buf(pp.keys_out), zs_buf(pp.values_in),
                      zs_buf(pp.values_out), zs_buf(ZS_BUF_TABLE), zs_buf(ZS_BUF_PARAMS),
                      zs_val(shift), zs_val(mask), zs_val(req->key_flags | pp.first_flags)};
        if (push_kernel(out, bucket, groups, ZS_LANES, 9, b))
            return -1;
        zs_plan_ping_pong_swap(&pp, req->value_bytes != 0);
    }
    return ping_pong_finish(out, &pp, req);
}

uint64_t zs_small_max(int serial, unsigned key_bytes, unsigned value_bytes)
{
    return ZS_SMALL_MAX(serial != 0, key_bytes == 8 || value_bytes != 0);
}

uint64_t zs_plan_launches(const zs_plan *plan)
{
    uint64_t launches = 0;
    for (size_t i = 0; i < plan->nsteps; i++)
        launches += plan->steps[i].kind == ZS_STEP_KERNEL && plan->steps[i].groups > 0;
    return launches;
}

int zs_plan_push_small(zs_plan *plan, const zs_plan_request *req, const zs_small_buffers *b,
                       uint32_t out_count)
{
    const uint32_t flags = req->key_flags | (req->iota_values ? ZS_IOTA_VALUES : 0u);
    zs_arg a[] = {zs_buf(b->keys_in), zs_buf(b->keys), zs_buf(b->tmp), zs_buf(b->values_in),
                  zs_buf(b->values), zs_buf(b->values_tmp), zs_buf(b->out_keys),
                  zs_buf(b->out_values), zs_buf(b->params), zs_val(out_count),
                  zs_val(req->bit_lo), zs_val(req->bit_hi), zs_val(flags)};
    return push_kernel(plan, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                 ZS_SEG_SMALL),
                       1, req->serial ? 1 : ZS_LANES, 13, a);
}

/* A small sort: one small_sort launch over the plan's own buffers, the
 * result in KEYS (VALUES). Keys-only programs are given the key buffers as
 * values (ignored); an argsort's VALUES stands in for its input values. */
static int plan_small(const zs_plan_request *req, zs_plan *out)
{
    zs_plan_data_buffers(req, out);
    const int pairs = req->value_bytes != 0;
    const zs_buffer keys_in = req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS;
    const zs_buffer values = pairs ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_in = !pairs ? keys_in
                                : req->out_of_place && !req->iota_values ? ZS_BUF_VALUES_IN
                                                                         : ZS_BUF_VALUES;
    const zs_small_buffers b = {keys_in, ZS_BUF_KEYS, ZS_BUF_TMP, values_in, values,
                                pairs ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP, ZS_BUF_KEYS, values,
                                ZS_BUF_PARAMS};
    return zs_plan_push_small(out, req, &b, 0);
}

int zs_plan_build(const zs_plan_request *req, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0)
        return 0;
    const int rc = req->small                    ? plan_small(req, out)
                   : req->radix_bits == ZS_OS_BITS ? plan_onesweep(req, out)
                                                   : plan_cm(req, out);
    if (rc == 0)
        return 0;
    zs_plan_free(out);
    return -1;
}

void zs_plan_free(zs_plan *plan)
{
    free(plan->steps);
    memset(plan, 0, sizeof *plan);
}

/* plan_steps.h: the step builders, for the planners of composed plans. */
zs_step *zs_plan_push_step(zs_plan *plan) { return push(plan); }

int zs_plan_push_kernel(zs_plan *plan, zs_kernel k, uint64_t groups, uint32_t local, int nargs,
                        const zs_arg *args)
{
    return push_kernel(plan, k, groups, local, nargs, args);
}

int zs_plan_push_copy(zs_plan *plan, zs_buffer src, zs_buffer dst, uint64_t bytes)
{
    return push_copy(plan, src, dst, bytes);
}

int zs_plan_device_scan(zs_plan *plan, unsigned bins) { return plan_device_scan(plan, bins, 0); }
