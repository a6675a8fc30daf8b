/*
 * plan_topk.c — the plan of a top-k: a radix select of the candidates
 * (kernels/select.cl), then the sort plan of zs_plan_build over them,
 * composed into one plan (plan_topk.h).
 */
#include "plan/plan_topk.h"

#include <string.h>

#include "common/test_hooks.h"
#include "plan/plan_steps.h"

static zs_arg buf(zs_buffer b) { return (zs_arg){1, (uint32_t)b}; }
static zs_arg val(uint32_t v) { return (zs_arg){0, v}; }

uint64_t zs_topk_room(uint64_t n, uint64_t k)
{
    /* A select pass reads every key; sorting the slack costs about as much
     * as a pass reads once it is n / 8 or so: n / 32 lets random keys stop
     * after the first pass (its bucket holds n / 256 of them) for any k. */
    const uint64_t slack = zs_test_slack() ? zs_test_slack() : n / 32 > 4096 ? n / 32 : 4096;
    return k < n && n - k > slack ? k + slack : n;
}

/* The plan's steps and buffers appended to out, buffer b of sub becoming
 * map[b]; a buffer both use gets the larger size. */
static int compose(zs_plan *out, const zs_plan *sub, const zs_buffer *map)
{
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        if (sub->buffer_bytes[b] > out->buffer_bytes[map[b]])
            out->buffer_bytes[map[b]] = sub->buffer_bytes[b];
    for (size_t i = 0; i < sub->nsteps; i++) {
        zs_step *s = zs_plan_push_step(out);
        if (!s)
            return -1;
        *s = sub->steps[i];
        for (int a = 0; a < s->nargs; a++)
            if (s->args[a].is_buffer)
                s->args[a].value = map[s->args[a].value];
        s->src = map[s->src];
        s->dst = map[s->dst];
    }
    return 0;
}

/* Pass p's digit, most significant first: its shift and mask. */
static void sel_digit(const zs_plan_request *req, unsigned p, uint32_t *shift, uint32_t *mask)
{
    const unsigned top = req->bit_hi - ZS_OS_BITS * p;
    const unsigned lo = top - req->bit_lo > ZS_OS_BITS ? top - ZS_OS_BITS : req->bit_lo;
    *shift = lo;
    *mask = (1u << (top - lo)) - 1u;
}

/* sel_init, then a histogram and a pick per digit. */
static int plan_select_passes(const zs_plan_request *req, uint64_t k, uint64_t cap, zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const unsigned passes = (req->bit_hi - req->bit_lo + ZS_OS_BITS - 1) / ZS_OS_BITS;
    const uint64_t tile = ZS_SEL_TILE(req->serial != 0), tiles = (req->n + tile - 1) / tile;
    const uint32_t local = ZS_SEL_LOCAL(req->serial != 0);
    zs_arg init[] = {buf(ZS_BUF_SEL_STATE), buf(ZS_BUF_SEL_HIST), buf(ZS_BUF_CAND_PARAMS),
                     buf(ZS_BUF_PARAMS), val((uint32_t)k), val((uint32_t)cap)};
    if (zs_plan_push_kernel(out, zs_sel_kernel(key64, 0, ZS_SEL_INIT), 1, ZS_SEL_WG, 6, init))
        return -1;
    for (unsigned p = 0; p < passes; p++) {
        uint32_t shift, mask;
        sel_digit(req, p, &shift, &mask);
        zs_arg h[] = {buf(ZS_BUF_KEYS_IN), buf(ZS_BUF_SEL_HIST), buf(ZS_BUF_SEL_STATE),
                      buf(ZS_BUF_PARAMS), val(shift), val(mask), val(req->key_flags), val(p)};
        zs_arg pick[] = {buf(ZS_BUF_SEL_HIST), buf(ZS_BUF_SEL_STATE), buf(ZS_BUF_CAND_PARAMS),
                         val(p), val(shift), val(mask), val((uint32_t)cap),
                         val(p + 1 == passes)};
        if (zs_plan_push_kernel(out, zs_sel_kernel(key64, 0, ZS_SEL_HIST), tiles, local, 8, h) ||
            zs_plan_push_kernel(out, zs_sel_kernel(key64, 0, ZS_SEL_PICK), 1, 1, 8, pick))
            return -1;
    }
    return 0;
}

/* The select: its passes, then the candidates counted per chunk, the
 * counts scanned (2 bins: before the prefix, tied with it) and the
 * candidates gathered in input order into CAND_KEYS (CAND_VALUES). */
static int plan_select(const zs_plan_request *req, uint64_t k, uint64_t cap, zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const unsigned vb = req->value_bytes;
    const uint64_t per_group = ZS_SEL_CHUNKS(req->serial != 0);
    const uint64_t groups = (zs_chunks(req->n) + per_group - 1) / per_group;
    const uint32_t local = ZS_SEL_LOCAL(req->serial != 0);
    out->buffer_bytes[ZS_BUF_SEL_STATE] = ZS_SEL_STATE_WORDS * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_SEL_HIST] = ZS_SEL_HIST_WORDS * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_CAND_PARAMS] = 4 * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_TABLE] = 2 * zs_chunks(req->n) * sizeof(uint32_t);
    /* keys-only programs ignore the value buffers: the key buffers stand in */
    const zs_buffer values_in = vb && !req->iota_values ? ZS_BUF_VALUES_IN : ZS_BUF_KEYS_IN;
    const zs_buffer cand_values = vb ? ZS_BUF_CAND_VALUES : ZS_BUF_CAND_KEYS;
    const uint32_t flags = req->key_flags | (req->iota_values ? ZS_IOTA_VALUES : 0u);
    zs_arg c[] = {buf(ZS_BUF_KEYS_IN), buf(ZS_BUF_TABLE), buf(ZS_BUF_SEL_STATE),
                  buf(ZS_BUF_PARAMS), val(req->key_flags)};
    zs_arg s[] = {buf(ZS_BUF_KEYS_IN), buf(values_in), buf(ZS_BUF_CAND_KEYS), buf(cand_values),
                  buf(ZS_BUF_TABLE), buf(ZS_BUF_SEL_STATE), buf(ZS_BUF_PARAMS), val(flags)};
    return plan_select_passes(req, k, cap, out) ||
           zs_plan_push_kernel(out, zs_sel_kernel(key64, 0, ZS_SEL_COUNT), groups, local, 5, c) ||
           zs_plan_device_scan(out, 2) ||
           zs_plan_push_kernel(out, zs_sel_kernel(key64, vb, ZS_SEL_SCATTER), groups, local, 8,
                               s);
}

/* The candidates' sort: after a select, in place over the room's CAND
 * buffers with its count in CAND_PARAMS; without one, every key out of
 * place from KEYS_IN into the CAND buffers. Then the first m to KEYS
 * (VALUES). */
static int plan_cands_sort(const zs_plan_request *req, uint64_t m, uint64_t room, int selects,
                           zs_plan *out)
{
    zs_plan_request r = *req;
    r.n = room;
    r.host_scan = 0;
    r.out_of_place = !selects;
    r.iota_values = selects ? 0 : req->iota_values;
    r.keep_result = 1;
    zs_buffer map[ZS_BUF_COUNT];
    for (int b = 0; b < ZS_BUF_COUNT; b++)
        map[b] = (zs_buffer)b;
    map[ZS_BUF_KEYS] = ZS_BUF_CAND_KEYS;
    map[ZS_BUF_TMP] = ZS_BUF_CAND_TMP;
    map[ZS_BUF_VALUES] = ZS_BUF_CAND_VALUES;
    map[ZS_BUF_VALUES_TMP] = ZS_BUF_CAND_VALUES_TMP;
    if (selects)
        map[ZS_BUF_PARAMS] = ZS_BUF_CAND_PARAMS;
    zs_plan sub;
    if (zs_plan_build(&r, &sub) != 0)
        return -1;
    const int in_tmp = sub.result == ZS_BUF_TMP;
    int rc = compose(out, &sub, map);
    zs_plan_free(&sub);
    if (rc == 0)
        rc = zs_plan_push_copy(out, in_tmp ? ZS_BUF_CAND_TMP : ZS_BUF_CAND_KEYS, ZS_BUF_KEYS,
                               m * req->key_bytes);
    if (rc == 0 && req->value_bytes)
        rc = zs_plan_push_copy(out, in_tmp ? ZS_BUF_CAND_VALUES_TMP : ZS_BUF_CAND_VALUES,
                               ZS_BUF_VALUES, m * req->value_bytes);
    return rc;
}

/* A small top-k: one small_sort of every key out of place into the CAND
 * buffers, which then writes the first m to KEYS (VALUES) itself. */
static int plan_small_topk(const zs_plan_request *req, uint64_t m, zs_plan *out)
{
    const int pairs = req->value_bytes != 0;
    out->buffer_bytes[ZS_BUF_CAND_KEYS] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_CAND_TMP] = req->n * req->key_bytes;
    out->buffer_bytes[ZS_BUF_CAND_VALUES] = req->n * req->value_bytes;
    out->buffer_bytes[ZS_BUF_CAND_VALUES_TMP] = req->n * req->value_bytes;
    const zs_buffer values_in = !pairs ? ZS_BUF_KEYS_IN
                                : req->iota_values ? ZS_BUF_CAND_VALUES : ZS_BUF_VALUES_IN;
    const zs_small_buffers b = {
        ZS_BUF_KEYS_IN, ZS_BUF_CAND_KEYS, ZS_BUF_CAND_TMP, values_in,
        pairs ? ZS_BUF_CAND_VALUES : ZS_BUF_CAND_KEYS,
        pairs ? ZS_BUF_CAND_VALUES_TMP : ZS_BUF_CAND_TMP, ZS_BUF_KEYS,
        pairs ? ZS_BUF_VALUES : ZS_BUF_KEYS, ZS_BUF_PARAMS};
    return zs_plan_push_small(out, req, &b, (uint32_t)m);
}

int zs_plan_topk(const zs_plan_request *req, uint64_t k, int force_select, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0 || k == 0)
        return 0;
    const uint64_t m = k < req->n ? k : req->n;
    uint64_t room = zs_topk_room(req->n, m);
    out->selects = !req->small && (force_select || room < req->n);
    out->buffer_bytes[ZS_BUF_KEYS_IN] = req->n * req->key_bytes;
    if (req->value_bytes && !req->iota_values)
        out->buffer_bytes[ZS_BUF_VALUES_IN] = req->n * req->value_bytes;
    out->buffer_bytes[ZS_BUF_KEYS] = m * req->key_bytes;
    out->buffer_bytes[ZS_BUF_VALUES] = m * req->value_bytes;
    out->buffer_bytes[ZS_BUF_PARAMS] = 4 * sizeof(uint32_t);
    if (req->small ? plan_small_topk(req, m, out) != 0
                   : (out->selects && plan_select(req, m, room, out) != 0) ||
                         plan_cands_sort(req, m, room, out->selects, out) != 0) {
        zs_plan_free(out);
        return -1;
    }
    return 0;
}
