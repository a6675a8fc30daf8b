/*
 * topk.c — a checked host top-k (topk.h). Per segment (one, [0, n), when
 * not segmented) the candidates are chosen in input order: on the C
 * fallback, for a segment longer than k, the k its radix select finds
 * (cpu_topk.h); otherwise every key of the segment, or, for one top-k of
 * k above a quarter of the keys, the keys up to a sampled bound (about k of
 * them, zs_cpu_topk_bounded). One top-k on a device
 * backend that fits it runs as one plan there instead, the device's radix
 * select included (topk_select.h); segments, and a top-k too big for the
 * device, sort every key of each segment (the first k of a stable sort are
 * the answer) on the device. The candidates are gathered with
 * their input positions (8 bytes, as values) and sorted by the dispatcher's
 * own sort, segmented when there are several segments: stable, and the
 * candidates are in input order, so ties keep input order. Then the first
 * min(k, len) of each segment are written out, values gathered through the
 * positions.
 */
#include "dispatch/topk.h"

#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_topk.h"
#include "dispatch/dispatch.h"
#include "dispatch/topk_select.h"
#include "plan/sort_request.h"

/* The candidates: keys (m of them, segment after segment), their input
 * positions in keys (global; NULL when no output needs them), and where
 * each segment's start. */
typedef struct cands {
    char *keys;
    uint64_t *pos;
    uint64_t *offsets; /* segments + 1 */
    uint64_t m, segments, non_empty;
    int own_keys; /* 0: keys is the caller's keys_out */
} cands;

typedef struct topk_job {
    const zs_topk_call *c;
    unsigned kb, vb, bit_lo, bit_hi;
    uint32_t key_flags;
    int select; /* the C fallback: radix select in segments longer than k */
} topk_job;

static uint64_t seg_begin(const zs_topk_call *c, uint64_t i)
{
    return c->segmented ? c->offsets[i] : 0;
}

static uint64_t seg_end(const zs_topk_call *c, uint64_t i)
{
    return c->segmented ? c->offsets[i + 1] : c->n;
}

/* How many candidates segment i contributes. */
static uint64_t seg_cands(const topk_job *j, uint64_t i)
{
    const uint64_t len = seg_end(j->c, i) - seg_begin(j->c, i);
    /* beyond a quarter of the keys, the select's three reads and the sort of
     * k cost more than the C fallback's sort of them all (16M random u32 on
     * 2 cores: k = n/2 0.6-0.9x the sort's speed selected, k = n/8 1.2x) */
    return j->select && j->c->k < len && j->c->k <= len / 4 ? j->c->k : len;
}

/* Candidates' arrays sized and their offsets set; 0, or -1 out of memory. */
static int cands_alloc(const topk_job *j, cands *cd, int want_pos)
{
    cd->segments = j->c->segmented ? j->c->segments : 1;
    if (!(cd->offsets = malloc((size_t)(cd->segments + 1) * sizeof *cd->offsets)))
        return -1;
    cd->offsets[0] = 0;
    for (uint64_t i = 0; i < cd->segments; i++) {
        const uint64_t m = seg_cands(j, i);
        cd->offsets[i + 1] = cd->offsets[i] + m;
        cd->non_empty += m > 0;
    }
    cd->m = cd->offsets[cd->segments];
    const size_t m = cd->m ? (size_t)cd->m : 1;
    /* one top-k of keys only: the candidates are gathered and sorted in
     * keys_out itself (min(k, n) keys: exactly them), no copy of ours (its
     * allocation's page faults cost as much as the gather) */
    cd->own_keys = j->c->segmented || want_pos || !j->c->keys_out || cd->m > j->c->k;
    cd->keys = cd->own_keys ? malloc(m * j->kb) : j->c->keys_out;
    cd->pos = want_pos ? malloc(m * sizeof *cd->pos) : NULL;
    return cd->keys && (cd->pos || !want_pos) ? 0 : -1;
}

/* One top-k of many keys on the C fallback (k above a quarter of them):
 * the keys at or below a sampled bound above the k-th key's, in input order
 * (zs_cpu_topk_bounded), so the sort takes about k keys instead of n.
 * 1 when they are in cd (its count cut to them), 0 to take every key. */
static int bounded(const topk_job *j, cands *cd, uint64_t *p)
{
    const zs_topk_call *c = j->c;
    if (!j->select || c->segmented || c->k >= c->n)
        return 0;
    const uint64_t m = zs_cpu_topk_bounded(c->keys, c->n, c->k, j->kb, j->key_flags, j->bit_lo,
                                           j->bit_hi, p, cd->keys);
    if (m)
        cd->m = cd->offsets[1] = m;
    return m != 0;
}

/* Each segment's candidates, in input order: their keys, and their
 * positions when an output needs them (want_pos). */
static void cands_fill(const topk_job *j, cands *cd, int want_pos)
{
    const zs_topk_call *c = j->c;
    for (uint64_t i = 0; i < cd->segments; i++) {
        const uint64_t b = seg_begin(c, i), len = seg_end(c, i) - b;
        const uint64_t at = cd->offsets[i], m = cd->offsets[i + 1] - at;
        uint64_t *p = want_pos ? cd->pos + at : NULL;
        if (m < len) {
            zs_cpu_topk_select((const char *)c->keys + b * j->kb, len, m, j->kb, j->key_flags,
                               j->bit_lo, j->bit_hi, p, cd->keys + at * j->kb);
            for (uint64_t t = 0; p && t < m; t++)
                p[t] += b;
        } else if (!bounded(j, cd, p)) {
            memcpy(cd->keys + at * j->kb, (const char *)c->keys + b * j->kb,
                   (size_t)(m * j->kb));
            for (uint64_t t = 0; p && t < m; t++)
                p[t] = b + t;
        }
    }
}

/* The candidates sorted (with their positions when an output needs them),
 * by opts' order and bits: one sort, or a segmented one. */
static zesort_status cands_sort(zesort_context *ctx, const topk_job *j, const cands *cd,
                                const zesort_options *opts, zesort_algo *ran)
{
    const zs_topk_call *c = j->c;
    zesort_options o = *opts;
    o.value_type = ZESORT_VALUE_U64;
    void *pv = cd->pos; /* given when an output needs the positions */
    zs_plan_request req;
    zesort_status st = zs_make_host_request(&o, cd->m, pv != NULL, zs_ctx_flavor(ctx), &req,
                                            ran, &ctx->err);
    if (st != ZESORT_OK)
        return st;
    const int segmented = cd->non_empty > 1;
    const zs_sort_call sc = {{cd->keys, pv, cd->keys, pv}, 0, c->fn, segmented,
                             segmented ? cd->offsets : NULL, segmented ? cd->segments : 0, 0, 0};
    return zs_dispatch(ctx, &sc, &req, &o, NULL, ran, NULL);
}

/* The first min(k, len) sorted candidates of each segment, written out. */
static void cands_write(const topk_job *j, const cands *cd)
{
    const zs_topk_call *c = j->c;
    for (uint64_t i = 0; i < cd->segments; i++) {
        const uint64_t b = seg_begin(c, i), len = seg_end(c, i) - b;
        const uint64_t take = c->k < len ? c->k : len, from = cd->offsets[i];
        const uint64_t row = c->segmented ? i * c->k : 0;
        if (c->keys_out && cd->own_keys)
            memcpy((char *)c->keys_out + row * j->kb, cd->keys + from * j->kb,
                   (size_t)take * j->kb);
        for (uint64_t t = 0; c->indices_out && t < take; t++) {
            const uint64_t at = cd->pos[from + t] - (c->segmented ? b : 0);
            if (j->vb == 8)
                ((uint64_t *)c->indices_out)[row + t] = at;
            else
                ((uint32_t *)c->indices_out)[row + t] = (uint32_t)at;
        }
        for (uint64_t t = 0; c->values_out && t < take; t++) {
            const uint64_t p = cd->pos[from + t];
            if (j->vb == 8)
                ((uint64_t *)c->values_out)[row + t] = ((const uint64_t *)c->values_in)[p];
            else
                ((uint32_t *)c->values_out)[row + t] = ((const uint32_t *)c->values_in)[p];
        }
    }
}

zesort_status zs_topk_dispatch(zesort_context *ctx, const zs_topk_call *c,
                               const zesort_options *opts, unsigned key_bytes,
                               unsigned value_bytes, uint32_t key_flags, unsigned bit_lo,
                               unsigned bit_hi, zesort_algo *ran)
{
    if (c->n == 0 || c->k == 0)
        return ZESORT_OK;
    if (zs_topk_select_fits(ctx, c, opts))
        return zs_topk_select_run(ctx, c, opts, ran);
    const topk_job j = {c, key_bytes, value_bytes, bit_lo, bit_hi, key_flags, ctx->ops == NULL};
    cands cd = {0};
    zesort_status st = ZESORT_OK;
    const int want_pos = c->values_out || c->indices_out;
    if (cands_alloc(&j, &cd, want_pos) != 0) {
        st = zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                          "%s: out of host memory for %llu candidates", c->fn,
                          (unsigned long long)cd.m);
    } else {
        cands_fill(&j, &cd, want_pos);
        st = cands_sort(ctx, &j, &cd, opts, ran);
        if (st == ZESORT_OK)
            cands_write(&j, &cd);
    }
    if (cd.own_keys)
        free(cd.keys);
    free(cd.pos);
    free(cd.offsets);
    return st;
}
