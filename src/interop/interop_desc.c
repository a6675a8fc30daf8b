/*
 * interop_desc.c — a zesort_desc resolved for both interop APIs
 * (interop_desc.h).
 */
#include "interop/interop_desc.h"

#include <string.h>

#include "plan/desc.h"

/* The segmented form: offsets or begin/end of either width, the count of
 * segments on the device or not, the keys' count on the device or not, the
 * caller's status word or one in temp. */
static zesort_status resolve_segments(const zesort_desc *d, zs_interop_call *c, zs_error *err,
                                      const char *fn)
{
    zesort_status st = zs_interop_seg_shape(err, fn, 1, d->offset_type, d->offsets != NULL,
                                            d->begin_offsets || d->end_offsets,
                                            d->num_segments_device != NULL, d->num_segments,
                                            zs_desc_pairs(d), &c->shape);
    if (st != ZESORT_OK)
        return st;
    if (c->n_device)
        c->shape.flags |= ZS_SEG_F_N_COUNT;
    c->shape.status_callers = d->status != NULL;
    c->caller[ZS_BUF_KEYS] = d->keys;
    c->caller[ZS_BUF_VALUES] = d->values;
    c->caller[ZS_BUF_SEG_OFFSETS] = (void *)(d->offsets ? d->offsets : d->begin_offsets);
    c->caller[ZS_BUF_SEG_ENDS] = (void *)d->end_offsets;
    c->caller[ZS_BUF_SEG_COUNT] = (void *)d->num_segments_device;
    c->caller[ZS_BUF_SEG_STATUS] = d->status;
    return ZESORT_OK;
}

/* Top-k: keys_in (values_in) read, min(k, n) keys (values or positions)
 * written; one array, not per segment. */
static zesort_status resolve_topk(const zesort_desc *d, zs_interop_call *c, zs_error *err,
                                  const char *fn)
{
    if (d->offsets || d->begin_offsets || d->num_segments || d->num_segments_device)
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s: offsets: top-k per segment runs on the host API (zesort_run) "
                            "only; a recorded top-k takes one array", fn);
    if (d->values && d->indices)
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s: indices: a recorded top-k writes values or indices, not both",
                            fn);
    zesort_status st = zs_interop_topk_shape(err, fn, c->n, d->k, d->values_in != NULL,
                                             d->keys != NULL, d->values != NULL,
                                             d->indices != NULL, &c->shape.base);
    c->caller[ZS_BUF_KEYS_IN] = (void *)d->keys_in;
    c->caller[ZS_BUF_VALUES_IN] = (void *)d->values_in;
    c->caller[ZS_BUF_KEYS] = d->keys;
    c->caller[ZS_BUF_VALUES] = d->indices ? d->indices : d->values;
    return st;
}

/* The shape and buffers of the sorts that are not segmented or top-k. */
static void resolve_sort(const zesort_desc *d, zs_interop_call *c)
{
    static const zs_sort_kind kinds[] = {ZS_SORT_IN_PLACE, ZS_SORT_COPY, ZS_SORT_ARGSORT};
    const int argsort = d->kind == ZESORT_ARGSORT;
    c->shape.base = (zs_sort_shape){kinds[d->kind], zs_desc_pairs(d), argsort && !d->keys, 0,
                                    d->keys_alt != NULL};
    if (d->kind == ZESORT_SORT) {
        c->caller[ZS_BUF_KEYS] = d->keys;
        c->caller[ZS_BUF_VALUES] = d->values;
    } else {
        c->caller[ZS_BUF_KEYS_IN] = (void *)d->keys_in; /* only read: never a plan's output */
        c->caller[ZS_BUF_VALUES_IN] = (void *)d->values_in;
        c->caller[ZS_BUF_KEYS] = d->keys;
        c->caller[ZS_BUF_VALUES] = argsort ? d->indices : d->values;
    }
}

/* The count: n, or max_n read on the device (nothing to read for 0 keys). */
static zesort_status resolve_count(const zesort_desc *d, zs_interop_call *c, zs_error *err,
                                   const char *fn)
{
    c->n = d->n_device ? d->max_n : d->n;
    c->n_device = d->n_device && d->max_n > 0 ? d->n_device : NULL;
    if (d->n_device && d->n_type == ZESORT_INT_U64)
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "%s: n_type: a recorded sort reads a 32-bit device-side count "
                            "(ZESORT_INT_U32); n is at most ZESORT_MAX_KEYS", fn);
    return ZESORT_OK;
}

zesort_status zs_interop_resolve(const zesort_desc *in, zs_interop_call *out, zs_error *err,
                                 const char *fn)
{
    memset(out, 0, sizeof *out);
    zesort_desc d;
    zesort_status st = zs_desc_read(in, &d, err, fn);
    if (st == ZESORT_OK)
        st = resolve_count(&d, out, err, fn);
    if (st != ZESORT_OK)
        return st;
    out->opts = zs_desc_options(&d);
    out->temp = d.temp;
    out->temp_bytes = d.temp_bytes;
    out->result_in_alt = d.result_in_alt;
    if (d.kind == ZESORT_SEGMENTED)
        st = resolve_segments(&d, out, err, fn);
    else if (d.kind == ZESORT_TOPK)
        st = resolve_topk(&d, out, err, fn);
    else
        resolve_sort(&d, out);
    if (st == ZESORT_OK && d.keys_alt) {
        out->shape.base.alt = 1;
        out->caller[ZS_BUF_TMP] = d.keys_alt;
        out->caller[ZS_BUF_VALUES_TMP] = d.values_alt;
    }
    return st;
}

zesort_status zs_interop_requirements(const zs_interop_call *c, zs_flavor flavor, uint64_t align,
                                      uint64_t min_align, zesort_requirements *req,
                                      zs_plan *plan, zs_error *err, const char *fn)
{
    memset(req, 0, sizeof *req);
    zesort_algo algo = ZESORT_ALGO_AUTO;
    zesort_status st = zs_interop_plan(&c->opts, c->n, &c->shape.base, flavor, plan, &algo, err,
                                       fn);
    if (st != ZESORT_OK)
        return st;
    zs_buffer_table t;
    zs_interop_buffer_table(&c->shape.base, plan, c->n, align, &t);
    req->temp_bytes = t.temp_bytes;
    req->temp_alignment = min_align;
    req->result_in_alt = c->shape.base.alt && plan->result == ZS_BUF_TMP;
    req->algo = algo;
    req->launches = zs_plan_launches(plan);
    return ZESORT_OK;
}

zesort_status zs_interop_check_reserved(const uint64_t *reserved, size_t count, zs_error *err,
                                        const char *fn)
{
    for (size_t i = 0; reserved && i < count; i++)
        if (reserved[i])
            return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                                "%s: sync reserved[%zu] is not 0", fn, i);
    return ZESORT_OK;
}

zesort_status zs_interop_refuse(pthread_mutex_t *lock, zs_error *sorter_err, zs_error *thread_err,
                                const zs_error *refusal, zesort_status st)
{
    if (!lock) {
        *thread_err = *refusal;
        return st;
    }
    pthread_mutex_lock(lock);
    *sorter_err = *refusal;
    pthread_mutex_unlock(lock);
    return st;
}
