/*
 * interop_common.c — the parts of a recorded sort that the Level Zero and
 * OpenCL interop APIs share (see interop_common.h).
 */
#include "interop/interop_common.h"

#include "common/names.h"
#include "run/context.h"

#include "plan/plan_topk.h"
#include "plan/sort_request.h"

static int is_callers(const zs_sort_shape *shape, int b);

zesort_status zs_sort_shape_of(int with_values, zs_sort_shape *shape, zs_error *err,
                               const char *fn)
{
    if (with_values < ZESORT_KEYS_ONLY || with_values > ZESORT_ARGSORT_NO_KEYS_OUT)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: with_values is %d: ZESORT_KEYS_ONLY (0), ZESORT_WITH_VALUES (1) "
                            "or ZESORT_ARGSORT_NO_KEYS_OUT (2)", fn, with_values);
    *shape = (zs_sort_shape){with_values == ZESORT_ARGSORT_NO_KEYS_OUT ? ZS_SORT_ARGSORT
                                                                       : ZS_SORT_IN_PLACE,
                             with_values != ZESORT_KEYS_ONLY,
                             with_values == ZESORT_ARGSORT_NO_KEYS_OUT, 0, 0};
    return ZESORT_OK;
}

uint32_t zs_interop_seg_flags(const zs_sort_shape *shape)
{
    return shape->kind == ZS_SORT_SEGMENTS_DEVICE ? ((const zs_seg_shape *)shape)->flags : 0u;
}

zs_seg_shape zs_interop_seg_offsets_shape(uint64_t num_segments, int pairs,
                                          int key_count_on_device)
{
    return (zs_seg_shape){.base = {.kind = ZS_SORT_SEGMENTS_DEVICE, .pairs = pairs,
                                   .segments = num_segments},
                          .flags = ZS_SEG_F_U64 | (key_count_on_device ? ZS_SEG_F_N_COUNT : 0u)};
}

zesort_status zs_interop_seg_shape(zs_error *err, const char *fn, int given, int offset_type,
                                   int offsets_given, int begin_end_given, int count_given,
                                   uint64_t num_segments, int pairs, zs_seg_shape *out)
{
    if (!given)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: segments is NULL", fn);
    if (offset_type != ZESORT_OFFSET_U64 && offset_type != ZESORT_OFFSET_U32)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: offset_type is %d: ZESORT_OFFSET_U64 (0) or ZESORT_OFFSET_U32 "
                            "(1)", fn, offset_type);
    if (offsets_given && begin_end_given)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: offsets and begin_offsets/end_offsets are both given: one form "
                            "or the other", fn);
    if (num_segments >= UINT32_MAX)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %llu segments: a recorded segmented sort takes fewer than "
                            "2^32 - 1", fn, (unsigned long long)num_segments);
    *out = (zs_seg_shape){.base = {.kind = ZS_SORT_SEGMENTS_DEVICE, .pairs = pairs,
                                   .segments = num_segments},
                          .flags = (offset_type == ZESORT_OFFSET_U64 ? ZS_SEG_F_U64 : 0u) |
                                   (begin_end_given ? ZS_SEG_F_BEGIN_END : 0u) |
                                   (count_given ? ZS_SEG_F_COUNT : 0u)};
    return ZESORT_OK;
}

/* The plan of a segmented sort: seg_check, then seg_sort_ranges; the check
 * alone (n or the segments 0) when the caller reads its status word. */
static zesort_status segments_plan(const zs_plan_request *req, const zs_sort_shape *shape,
                                   zs_plan *plan, zs_error *err, const char *fn)
{
    if (shape->segments >= UINT32_MAX)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %llu segments: a recorded segmented sort takes fewer than "
                            "2^32 - 1", fn, (unsigned long long)shape->segments);
    const int status_callers = is_callers(shape, ZS_BUF_SEG_STATUS);
    if (zs_plan_segments_device(req, zs_interop_seg_flags(shape), (uint32_t)shape->segments,
                                status_callers, plan) != 0)
        return zs_error_set(err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory building the sort plan");
    return ZESORT_OK;
}

/* The plan of a top-k (any k: the largest temp, k = n with the select). */
static zesort_status topk_plan(zs_plan_request *req, const zs_sort_shape *shape, zs_plan *plan,
                               zs_error *err)
{
    const int any = shape->segments == ZS_TOPK_ANY_K;
    req->out_of_place = 1;
    req->iota_values = shape->kind == ZS_SORT_TOPK_INDICES;
    if (zs_plan_topk(req, any ? req->n : shape->segments, any, plan) != 0)
        return zs_error_set(err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory building the top-k plan");
    return ZESORT_OK;
}

static int read_only(const zs_sort_shape *shape, int b)
{
    return shape->kind == ZS_SORT_SEGMENTS_DEVICE &&
           (b == ZS_BUF_SEG_OFFSETS || b == ZS_BUF_SEG_ENDS || b == ZS_BUF_SEG_COUNT);
}

int zs_interop_ranges_overlap(const zs_named_range *r, const int *ro, int count, const char **a,
                              const char **b)
{
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++) {
            const zs_named_range pair[2] = {r[i], r[j]};
            if (!(ro[i] && ro[j]) && zs_ranges_overlap(pair, 2, a, b))
                return 1;
        }
    return 0;
}

/* A top-k shape. */
static int is_topk(const zs_sort_shape *shape)
{
    return shape->kind == ZS_SORT_TOPK || shape->kind == ZS_SORT_TOPK_INDICES;
}

static uint64_t element_bytes(const zs_sort_shape *shape, const zs_plan *plan, int b,
                              uint64_t n)
{
    /* a top-k's outputs hold min(k, n) elements */
    if (is_topk(shape) && (b == ZS_BUF_KEYS || b == ZS_BUF_VALUES) && shape->segments < n)
        n = shape->segments;
    if (b == ZS_BUF_SEG_OFFSETS || b == ZS_BUF_SEG_ENDS)
        return zs_interop_seg_flags(shape) & ZS_SEG_F_U64 ? 8 : 4;
    if (b == ZS_BUF_SEG_COUNT || b == ZS_BUF_SEG_STATUS)
        return 4;
    return n ? plan->buffer_bytes[b] / n : 1;
}

zesort_status zs_interop_plan(const zesort_options *opts, uint64_t n, const zs_sort_shape *shape,
                              zs_flavor flavor, zs_plan *plan, zesort_algo *algo, zs_error *err,
                              const char *fn)
{
    zs_plan_request req;
    zesort_status st = zs_make_request(opts, n, shape->pairs, flavor, &req, algo, err);
    if (st != ZESORT_OK)
        return st;
    if (shape->kind == ZS_SORT_SEGMENTS_DEVICE)
        return segments_plan(&req, shape, plan, err, fn);
    if (is_topk(shape))
        return topk_plan(&req, shape, plan, err);
    req.out_of_place = shape->kind != ZS_SORT_IN_PLACE;
    req.iota_values = shape->kind == ZS_SORT_ARGSORT;
    /* the alternate buffers are the caller's: no copy home, the caller is told */
    req.keep_result = shape->alt;
    if (req.host_scan) /* CM only: onesweep has no separate prefix step */
        return zs_error_set(err, ZESORT_ERROR_UNSUPPORTED,
                            "the host scan needs a host round trip, which a sort recorded on "
                            "a command list or queue cannot make: use ZESORT_SCAN_DEVICE");
    if (zs_plan_build(&req, plan) != 0)
        return zs_error_set(err, ZESORT_ERROR_OUT_OF_HOST_MEMORY,
                            "out of host memory building the sort plan");
    return ZESORT_OK;
}

static int is_callers(const zs_sort_shape *shape, int b)
{
    if (b == ZS_BUF_SEG_STATUS) /* the status of the forms without a status word: a word of temp */
        return shape->kind == ZS_SORT_SEGMENTS_DEVICE &&
               ((const zs_seg_shape *)shape)->status_callers;
    return (b == ZS_BUF_KEYS && !shape->keys_in_temp) || b == ZS_BUF_VALUES ||
           b == ZS_BUF_KEYS_IN || b == ZS_BUF_VALUES_IN || b == ZS_BUF_SEG_OFFSETS ||
           b == ZS_BUF_SEG_ENDS || b == ZS_BUF_SEG_COUNT ||
           (shape->alt && (b == ZS_BUF_TMP || b == ZS_BUF_VALUES_TMP));
}

static const char *buffer_name(const zs_sort_shape *shape, int b)
{
    /* a segmented sort's keys and values are sorted where they are */
    const int in_place =
        shape->kind == ZS_SORT_IN_PLACE || shape->kind == ZS_SORT_SEGMENTS_DEVICE;
    const int begin_end = (zs_interop_seg_flags(shape) & ZS_SEG_F_BEGIN_END) != 0;
    switch (b) {
    case ZS_BUF_KEYS: return in_place ? "keys" : "keys_out";
    case ZS_BUF_VALUES:
        return shape->kind == ZS_SORT_ARGSORT        ? "indices"
               : shape->kind == ZS_SORT_TOPK_INDICES ? "indices_out"
               : in_place                            ? "values"
                                                     : "values_out";
    case ZS_BUF_KEYS_IN: return shape->kind == ZS_SORT_ARGSORT || is_topk(shape) ? "keys" : "keys_in";
    case ZS_BUF_VALUES_IN: return "values_in";
    case ZS_BUF_SEG_OFFSETS: return begin_end ? "begin_offsets" : "offsets";
    case ZS_BUF_SEG_ENDS: return "end_offsets";
    case ZS_BUF_SEG_COUNT: return "the segment count";
    case ZS_BUF_SEG_STATUS: return "status";
    case ZS_BUF_TMP: return shape->alt ? "keys_alt" : "temp";
    case ZS_BUF_VALUES_TMP:
        return !shape->alt ? "temp" : shape->kind == ZS_SORT_ARGSORT ? "indices_alt" : "values_alt";
    default: return "temp";
    }
}

void zs_interop_buffer_table(const zs_sort_shape *shape, const zs_plan *plan, uint64_t n,
                             uint64_t align, zs_buffer_table *t)
{
    t->temp_bytes = 0;
    for (int b = 0; b < ZS_BUF_COUNT; b++) {
        zs_buffer_entry *e = &t->buf[b];
        *e = (zs_buffer_entry){buffer_name(shape, b), plan->buffer_bytes[b], 1, UINT64_MAX,
                               is_callers(shape, b), read_only(shape, b)};
        if (e->callers)
            e->elem = element_bytes(shape, plan, b, n);
        if (e->callers || e->bytes == 0)
            continue;
        e->offset = t->temp_bytes;
        t->temp_bytes += (e->bytes + align - 1) / align * align;
    }
}

/* The bytes of temp memory of a plan of this shape: its layout. */
static zesort_status shape_temp_bytes(const zesort_options *opts, uint64_t n,
                                      const zs_sort_shape *shape, zs_flavor flavor,
                                      uint64_t align, uint64_t *bytes, zs_error *err)
{
    zs_plan plan;
    zesort_status st = zs_interop_plan(opts, n, shape, flavor, &plan, NULL, err, "temp size");
    if (st != ZESORT_OK)
        return st;
    zs_buffer_table t;
    zs_interop_buffer_table(shape, &plan, n, align, &t);
    *bytes = t.temp_bytes;
    zs_plan_free(&plan);
    return ZESORT_OK;
}

/* The bytes of temp memory of a sort of n keys with these options: its
 * plan's layout, and for keys (and values) in place at least the segmented
 * sort's of as many segments as keys (the most its large segments' passes
 * need: their histograms and tiles grow with n alone), which the same temp
 * serves (docs/interop.md, "Rules"). Both grow with n, so their maximum
 * does. */
static zesort_status temp_bytes(const zesort_options *opts, uint64_t n, int with_values,
                                zs_flavor flavor, uint64_t align, uint64_t *bytes, zs_error *err)
{
    zs_sort_shape shape;
    zesort_status st = zs_sort_shape_of(with_values, &shape, err, "temp size");
    if (st == ZESORT_OK)
        st = shape_temp_bytes(opts, n, &shape, flavor, align, bytes, err);
    if (st != ZESORT_OK || with_values == ZESORT_ARGSORT_NO_KEYS_OUT || n >= UINT32_MAX)
        return st;
    const zs_seg_shape seg =
        zs_interop_seg_offsets_shape(n, with_values == ZESORT_WITH_VALUES, 1);
    uint64_t seg_bytes = 0;
    st = shape_temp_bytes(opts, n, &seg.base, flavor, align, &seg_bytes, err);
    if (st == ZESORT_OK && seg_bytes > *bytes)
        *bytes = seg_bytes;
    return st;
}

zesort_status zs_interop_temp_requirements(const char *fn, const zesort_options *opts, uint64_t n,
                                           int with_values, zs_flavor flavor, uint64_t align,
                                           uint64_t min_align, uint64_t *bytes,
                                           uint64_t *alignment, zs_error *err)
{
    if (!bytes)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", fn);
    *bytes = 0;
    if (alignment)
        *alignment = min_align;
    zesort_status st = temp_bytes(opts, n, with_values, flavor, align, bytes, err);
    if (st == ZESORT_OK)
        zs_error_clear(err);
    return st;
}

zesort_status zs_interop_topk_shape(zs_error *err, const char *fn, uint64_t n, uint64_t k,
                                    int values_in, int keys_out, int values_out, int indices_out,
                                    zs_sort_shape *out)
{
    const uint64_t m = k < n ? k : n;
    if (values_in != values_out || (values_out && indices_out) ||
        (m > 0 && !keys_out && !values_out && !indices_out))
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: values_in and values_out go together, not with indices_out, "
                            "and at least one output is needed", fn);
    *out = (zs_sort_shape){indices_out ? ZS_SORT_TOPK_INDICES : ZS_SORT_TOPK,
                           values_out || indices_out, !keys_out, k, 0};
    return ZESORT_OK;
}

zesort_status zs_interop_topk_temp(const zesort_options *opts, uint64_t n, int with_values,
                                   zs_flavor flavor, uint64_t align, uint64_t *bytes,
                                   zs_error *err)
{
    *bytes = 0;
    const zs_sort_shape shape = {ZS_SORT_TOPK, with_values != 0, with_values != 0, ZS_TOPK_ANY_K,
                                 0};
    zs_plan plan;
    zesort_status st = zs_interop_plan(opts, n, &shape, flavor, &plan, NULL, err, "temp size");
    if (st != ZESORT_OK)
        return st;
    zs_buffer_table t;
    zs_interop_buffer_table(&shape, &plan, n, align, &t);
    *bytes = t.temp_bytes;
    zs_plan_free(&plan);
    zs_error_clear(err);
    return ZESORT_OK;
}

/* Builds every kernel the plan launches. */
static zesort_status build_kernels(const zs_plan *plan, zesort_status (*build)(void *, zs_kernel),
                                   void *user)
{
    zesort_status st = ZESORT_OK;
    for (size_t i = 0; st == ZESORT_OK && i < plan->nsteps; i++)
        if (plan->steps[i].kind == ZS_STEP_KERNEL)
            st = build(user, plan->steps[i].kernel);
    return st;
}

zesort_status zs_interop_alt_requirements(const char *fn, const zesort_options *opts, uint64_t n,
                                          int with_values, zs_flavor flavor, uint64_t align,
                                          uint64_t min_align, uint64_t *bytes,
                                          uint64_t *alignment, int *result_in_alt,
                                          zs_error *err)
{
    if (result_in_alt)
        *result_in_alt = 0;
    if (!bytes)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", fn);
    *bytes = 0;
    if (alignment)
        *alignment = min_align;
    zs_sort_shape shape;
    zs_plan plan;
    zesort_status st = zs_sort_shape_of(with_values, &shape, err, fn);
    shape.alt = 1;
    if (st == ZESORT_OK)
        st = zs_interop_plan(opts, n, &shape, flavor, &plan, NULL, err, fn);
    if (st != ZESORT_OK)
        return st;
    zs_buffer_table t;
    zs_interop_buffer_table(&shape, &plan, n, align, &t);
    *bytes = t.temp_bytes;
    /* with_values 2 is an argsort (out of place): its result is in its outputs */
    if (result_in_alt)
        *result_in_alt = plan.result == ZS_BUF_TMP;
    zs_plan_free(&plan);
    zs_error_clear(err);
    return ZESORT_OK;
}

/* Builds the kernels of one algorithm's plans (a plan for 2^20 keys has
 * every kind of step the algorithm makes; a small sort's, of one key). AUTO never records the host scan,
 * so for AUTO a host-scan option skips the CM algorithms instead of failing. */
static zesort_status prepare_algo(const zesort_options *opts, zesort_algo algo, int with_values,
                                  int for_auto, zs_flavor flavor,
                                  zesort_status (*build)(void *, zs_kernel), void *user,
                                  zs_error *err)
{
    zesort_options o = zs_options_or_default(opts);
    o.algo = algo;
    zs_plan plan;
    zs_sort_shape shape;
    zesort_status st = zs_sort_shape_of(with_values, &shape, err, "prepare");
    if (st != ZESORT_OK)
        return st;
    /* the same kernels serve every kind (the plan's buffers differ, not its
     * programs): the in-place plan names them all */
    shape.kind = ZS_SORT_IN_PLACE;
    /* a small sort's one kernel is in the plan of one key (2^20 is too many) */
    const uint64_t n = algo == ZESORT_ALGO_SMALL ? 1 : UINT64_C(1) << 20;
    st = zs_interop_plan(&o, n, &shape, flavor, &plan, NULL, err, "prepare");
    if (st == ZESORT_ERROR_UNSUPPORTED && for_auto && o.scan == ZESORT_SCAN_HOST)
        return ZESORT_OK;
    if (st != ZESORT_OK)
        return st;
    st = build_kernels(&plan, build, user);
    zs_plan_free(&plan);
    return st;
}

/* Builds the segmented sort's kernels for these options (key type, value
 * type; algorithm and scan play no part): a keys-only or pairs shape's
 * device-side plan, seg_check and seg_sort_ranges (the offsets' width, form
 * and count are arguments of the same kernels, not other programs). */
static zesort_status prepare_segments(const zesort_options *opts, int with_values,
                                      zs_flavor flavor,
                                      zesort_status (*build)(void *, zs_kernel), void *user,
                                      zs_error *err)
{
    const zs_seg_shape shape =
        zs_interop_seg_offsets_shape(1, with_values == ZESORT_WITH_VALUES, 0);
    zs_plan plan;
    zesort_status st = zs_interop_plan(opts, UINT64_C(1) << 20, &shape.base, flavor, &plan, NULL,
                                       err, "prepare");
    if (st != ZESORT_OK)
        return st;
    st = build_kernels(&plan, build, user);
    zs_plan_free(&plan);
    return st;
}

/* Builds the top-k's kernels for these options: the select's and the
 * candidates' sort's (the plan of any k selects; indices use the same
 * programs as values of their width). */
static zesort_status prepare_topk(const zesort_options *opts, int with_values, zs_flavor flavor,
                                  zesort_status (*build)(void *, zs_kernel), void *user,
                                  zs_error *err)
{
    const zs_sort_shape shape = {ZS_SORT_TOPK, with_values == ZESORT_WITH_VALUES, 0,
                                 ZS_TOPK_ANY_K, 0};
    zs_plan plan;
    zesort_status st = zs_interop_plan(opts, UINT64_C(1) << 20, &shape, flavor, &plan, NULL, err,
                                       "prepare");
    if (st != ZESORT_OK)
        return st;
    st = build_kernels(&plan, build, user);
    zs_plan_free(&plan);
    return st;
}

zesort_status zs_interop_prepare(const zesort_options *opts, int with_values, zs_flavor flavor,
                                 zesort_status (*build)(void *user, zs_kernel kernel), void *user,
                                 zs_error *err)
{
    zesort_status st;
    if (opts && opts->algo != ZESORT_ALGO_AUTO) {
        st = prepare_algo(opts, opts->algo, with_values, 0, flavor, build, user, err);
    } else { /* AUTO picks one of these three */
        st = prepare_algo(opts, ZESORT_ALGO_SMALL, with_values, 1, flavor, build, user, err);
        if (st == ZESORT_OK)
            st = prepare_algo(opts, ZESORT_ALGO_ONESWEEP, with_values, 1, flavor, build, user,
                              err);
        if (st == ZESORT_OK)
            st = prepare_algo(opts, ZESORT_ALGO_CM4, with_values, 1, flavor, build, user, err);
    }
    /* the segmented sort of these keys (and values) too: after prepare, no
     * append or enqueue builds anything (docs/interop.md, "Prepare") */
    if (st == ZESORT_OK && with_values != ZESORT_ARGSORT_NO_KEYS_OUT)
        st = prepare_segments(opts, with_values, flavor, build, user, err);
    /* and the top-k's (with values or indices for with_values 1) */
    if (st == ZESORT_OK && with_values != ZESORT_ARGSORT_NO_KEYS_OUT)
        st = prepare_topk(opts, with_values, flavor, build, user, err);
    return st;
}

zesort_status zs_interop_check_waits(zs_error *err, const char *fn, uint32_t nwait, int wait_given,
                                     uint32_t first_null)
{
    if (nwait > 0 && !wait_given)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT,
                            "%s: %u wait events but wait_events is NULL", fn, nwait);
    if (first_null < nwait)
        return zs_error_set(err, ZESORT_ERROR_INVALID_ARGUMENT, "%s: wait_events[%u] is NULL",
                            fn, first_null);
    return ZESORT_OK;
}

zesort_status zs_interop_context_device(const zesort_context *ctx, zesort_backend backend,
                                        zs_device **dev)
{
    *dev = NULL;
    if (!ctx)
        return ZESORT_ERROR_INVALID_ARGUMENT;
    if (ctx->backend != backend)
        return ZESORT_ERROR_UNSUPPORTED;
    *dev = ctx->dev;
    return ZESORT_OK;
}
