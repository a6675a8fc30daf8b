/*
 * topk_select.c — a host top-k by the device's radix select (topk_select.h).
 */
#include "dispatch/topk_select.h"

#include "common/test_hooks.h"
#include "dispatch/fits.h"
#include "dispatch/one_device.h"
#include "plan/plan_topk.h"
#include "plan/sort_request.h"

/* The request of c's plan: values (values_in's or the positions' width)
 * when an output needs them; the positions made on the device when
 * indices_out wants them (then values_out, if given too, is gathered
 * through them on the host: a plan moves one value per key). */
static zesort_status topk_request(zesort_context *ctx, const zs_topk_call *c,
                                  const zesort_options *opts, zs_plan_request *req,
                                  zesort_algo *ran)
{
    const int second = c->values_out || c->indices_out;
    /* AUTO picks the candidates' sort for their room, not for n */
    zesort_status st = zs_make_host_request(opts, zs_topk_room(c->n, c->k), second,
                                            zs_ctx_flavor(ctx), req, ran, &ctx->err);
    req->n = c->n;
    req->iota_values = c->indices_out != NULL;
    req->out_of_place = 1;
    return st;
}

int zs_topk_select_fits(zesort_context *ctx, const zs_topk_call *c, const zesort_options *opts)
{
    if (!ctx->ops || c->segmented)
        return 0;
    zs_plan_request req; /* checked by the API already: it cannot fail here */
    if (topk_request(ctx, c, opts, &req, NULL) != ZESORT_OK)
        return 0;
    /* the plan holds the input, the room's candidates and their partners:
     * about what an out-of-place sort of n keys holds */
    return req.n <= ZESORT_MAX_KEYS &&
           zs_part_max_keys(ctx, &req) >= req.n;
}

/* values_out[t] = values_in[indices_out[t]] for the min(k, n) results. */
static void gather_values(const zs_topk_call *c, unsigned vb)
{
    const uint64_t m = c->k < c->n ? c->k : c->n;
    for (uint64_t t = 0; t < m; t++) {
        if (vb == 8)
            ((uint64_t *)c->values_out)[t] =
                ((const uint64_t *)c->values_in)[((const uint64_t *)c->indices_out)[t]];
        else
            ((uint32_t *)c->values_out)[t] =
                ((const uint32_t *)c->values_in)[((const uint32_t *)c->indices_out)[t]];
    }
}

zesort_status zs_topk_select_run(zesort_context *ctx, const zs_topk_call *c,
                                 const zesort_options *opts, zesort_algo *ran)
{
    zs_plan_request req;
    zesort_status st = topk_request(ctx, c, opts, &req, ran);
    if (st != ZESORT_OK)
        return st;
    zs_plan plan;
    if (zs_plan_topk(&req, c->k, 0, &plan) != 0)
        return zs_error_set(&ctx->err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "%s: out of host memory planning the top-k", c->fn);
    const zs_host_arrays io = {c->keys, c->indices_out ? NULL : c->values_in, c->keys_out,
                               c->indices_out ? c->indices_out : c->values_out};
    st = zs_run_on_device(ctx, &plan, &io, NULL);
    if (st == ZESORT_OK && c->indices_out && c->values_out)
        gather_values(c, req.value_bytes);
    if (st == ZESORT_OK && plan.selects)
        zs_test_count_select();
    zs_plan_free(&plan);
    return st;
}
