/*
 * plan_segments.c — the plans of segmented sorts: host-side offsets by one
 * seg_sort launch (zs_plan_segments), device-side segments checked, then
 * sorted by seg_sort_ranges and, the large ones, by onesweep passes per
 * segment (zs_plan_segments_device). Over the step builders of plan.c
 * (plan_steps.h).
 */
#include "plan/plan.h"
#include "plan/plan_steps.h"

#include <string.h>

int zs_plan_segments(const zs_plan_request *req, const uint64_t *host_offsets, uint64_t segments,
                     uint32_t max_len, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    if (req->n == 0 || segments == 0)
        return 0;
    const uint64_t window = ZS_SEG_WINDOW(req->serial != 0);
    /* keys-only programs are given the key buffers as values (ignored) */
    const zs_buffer keys_in = req->out_of_place ? ZS_BUF_KEYS_IN : ZS_BUF_KEYS;
    const zs_buffer values = req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_in = req->value_bytes && req->out_of_place ? ZS_BUF_VALUES_IN : values;
    const zs_buffer values_tmp = req->value_bytes ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP;
    zs_plan_data_buffers(req, out);
    out->buffer_bytes[ZS_BUF_SEG_OFFSETS] = (segments + 1) * sizeof(uint64_t);
    out->host_init[ZS_BUF_SEG_OFFSETS] = host_offsets;
    zs_arg a[] = {zs_buf(keys_in), zs_buf(ZS_BUF_KEYS), zs_buf(ZS_BUF_TMP), zs_buf(values_in),
                  zs_buf(values), zs_buf(values_tmp), zs_buf(ZS_BUF_SEG_OFFSETS),
                  zs_buf(ZS_BUF_PARAMS), zs_val((uint32_t)segments), zs_val(max_len),
                  zs_val(req->bit_lo), zs_val(req->bit_hi), zs_val(req->key_flags)};
    if (zs_plan_push_kernel(out, zs_seg_kernel(req->key_bytes == 8, req->value_bytes),
                            (req->n + window - 1) / window, req->serial ? 1 : ZS_LANES, 13,
                            a) == 0)
        return 0;
    zs_plan_free(out);
    return -1;
}

/* The buffers of zs_plan_segments_device's form, and the seg_check step. */
static int plan_segments_check(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               zs_plan *out)
{
    const uint64_t width = flags & ZS_SEG_F_U64 ? 8 : 4;
    const int begin_end = (flags & ZS_SEG_F_BEGIN_END) != 0;
    const uint64_t offsets = begin_end ? max_segments : (uint64_t)max_segments + 1;
    /* no segment to read: the kernels read no offsets (S + 1 offsets: offsets[0] alone
     * is no segment either) */
    const int none = max_segments == 0;
    out->buffer_bytes[ZS_BUF_SEG_OFFSETS] = none ? 0 : offsets * width;
    out->buffer_bytes[ZS_BUF_SEG_ENDS] = none || !begin_end ? 0 : max_segments * width;
    out->buffer_bytes[ZS_BUF_SEG_COUNT] = flags & ZS_SEG_F_COUNT ? sizeof(uint32_t) : 0;
    out->buffer_bytes[ZS_BUF_SEG_STATUS] = 2 * sizeof(uint32_t);
    const zs_buffer begins = none ? ZS_BUF_SEG_STATUS : ZS_BUF_SEG_OFFSETS;
    const zs_buffer ends = begin_end && !none ? ZS_BUF_SEG_ENDS : begins;
    const zs_buffer count = flags & ZS_SEG_F_COUNT ? ZS_BUF_SEG_COUNT : ZS_BUF_SEG_STATUS;
    zs_arg c[] = {zs_buf(begins), zs_buf(ends), zs_buf(count), zs_buf(ZS_BUF_SEG_STATUS),
                  zs_val((uint32_t)req->n), zs_val(max_segments), zs_val(flags)};
    return zs_plan_push_kernel(out, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                        ZS_SEG_CHECK), 1, ZS_LANES, 7, c);
}

/* The most segments of more than ZS_SEG_LARGE_MIN keys among max_segments
 * that do not overlap in n keys: the large segments' list, whose tiles are
 * then at most ceil(n / tile) + this. */
static uint32_t max_large_segments(const zs_plan_request *req, uint32_t max_segments)
{
    const uint64_t most = req->n / ((uint64_t)ZS_SEG_LARGE_MIN(req->serial != 0) + 1);
    return most < max_segments ? (uint32_t)most : max_segments;
}

/* The large segments: seg_classify lists them and numbers their
 * tiles, then the onesweep passes per segment over those tiles (os_seg_*),
 * ping-ponging within the segments' stretches of KEYS and TMP, and a copy
 * home of those stretches after an odd number of passes. seg: seg_check's
 * begins, ends, count, status; params: PARAMS or a stand-in. The grids are
 * sized for the most tiles there can be; surplus work-groups exit. */
static int plan_large_segments(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               uint32_t max_large, const zs_arg *seg, zs_buffer params,
                               zs_plan *out)
{
    const int key64 = req->key_bytes == 8;
    const zs_program prog = zs_os_program(key64, req->value_bytes);
    const uint64_t tile = zs_os_tile(key64, req->value_bytes != 0, req->serial);
    const uint64_t tiles = (req->n + tile - 1) / tile + max_large;
    const uint32_t local = req->serial ? 1 : ZS_OS_WG;
    const unsigned passes = (req->bit_hi - req->bit_lo + ZS_OS_BITS - 1) / ZS_OS_BITS;
    const uint64_t hist_words = (uint64_t)max_large * passes * ZS_OS_BINS;
    out->buffer_bytes[ZS_BUF_OS_HIST] = hist_words * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_OS_STATUS] = tiles * ZS_OS_STATUS_WORDS * sizeof(uint32_t);
    out->buffer_bytes[ZS_BUF_SEG_LARGE] =
        (ZS_SEG_LARGE_HEAD + (uint64_t)ZS_SEG_LARGE_ENTRY * max_large) * sizeof(uint32_t);
    const zs_kernel fill = zs_os_kernel(prog, ZS_OS_FILL);
    const zs_buffer large = ZS_BUF_SEG_LARGE;
    zs_arg c[] = {seg[0], seg[1], seg[2], seg[3], zs_buf(params), zs_buf(large),
                  zs_val(max_segments), zs_val(flags), zs_val(max_large)};
    zs_arg h[] = {zs_buf(ZS_BUF_KEYS), zs_buf(ZS_BUF_OS_HIST), zs_buf(large),
                  zs_val(req->bit_lo), zs_val(req->bit_hi), zs_val(req->key_flags)};
    zs_arg sh[] = {zs_buf(ZS_BUF_OS_HIST)};
    if (zs_plan_push_fill(out, fill, ZS_BUF_OS_HIST, 0, hist_words) ||
        zs_plan_push_kernel(out, zs_seg_entry_kernel(key64, req->value_bytes, ZS_SEG_CLASSIFY),
                            1, ZS_LANES, 9, c) ||
        zs_plan_push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_HISTOGRAM), tiles, local, 6, h) ||
        zs_plan_push_kernel(out, zs_os_kernel(prog, ZS_OS_SCAN_HIST),
                            (uint64_t)max_large * passes, ZS_OS_BINS, 1, sh))
        return -1;
    zs_ping_pong pp = zs_plan_ping_pong_start(req, passes);
    for (unsigned p = 0; p < passes; ++p) {
        const unsigned shift = req->bit_lo + ZS_OS_BITS * p;
        zs_arg a[] = {zs_buf(pp.keys_in), zs_buf(pp.keys_out), zs_buf(pp.values_in),
                      zs_buf(pp.values_out), zs_buf(ZS_BUF_OS_HIST), zs_buf(ZS_BUF_OS_STATUS),
                      zs_buf(large), zs_val(shift),
                      zs_val(zs_plan_digit_mask(req, shift, ZS_OS_BITS)), zs_val(req->key_flags),
                      zs_val(p), zs_val(passes)};
        if (zs_plan_push_fill(out, fill, ZS_BUF_OS_STATUS, 0xFFFFFFFFu,
                              tiles * ZS_OS_STATUS_WORDS) ||
            zs_plan_push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_PASS), tiles, local, 12, a))
            return -1;
        zs_plan_ping_pong_swap(&pp, req->value_bytes != 0);
    }
    if (pp.keys_in == ZS_BUF_KEYS)
        return 0;
    zs_arg home[] = {zs_buf(pp.keys_in), zs_buf(ZS_BUF_KEYS), zs_buf(pp.values_in),
                     zs_buf(req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS), zs_buf(large),
                     zs_val(req->key_flags)};
    return zs_plan_push_kernel(out, zs_os_kernel(prog, ZS_OS_SEG_COPY), tiles, local, 6, home);
}

/* seg_sort_ranges: a work-group per segment, by stride over more (about
 * ZS_SEG_STRIDE_KEYS keys each); the large ones left out when planned. */
static int plan_sort_ranges(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                            const zs_arg *seg, zs_buffer params, zs_plan *out)
{
    /* keys-only programs are given the key buffers as values (ignored) */
    const zs_buffer values = req->value_bytes ? ZS_BUF_VALUES : ZS_BUF_KEYS;
    const zs_buffer values_tmp = req->value_bytes ? ZS_BUF_VALUES_TMP : ZS_BUF_TMP;
    zs_arg a[] = {zs_buf(ZS_BUF_KEYS), zs_buf(ZS_BUF_TMP), zs_buf(values), zs_buf(values_tmp),
                  seg[0], seg[1], seg[2], seg[3], zs_buf(params), zs_val(max_segments),
                  zs_val((uint32_t)req->n), zs_val(flags), zs_val(req->bit_lo),
                  zs_val(req->bit_hi), zs_val(req->key_flags)};
    const uint64_t per_group = ZS_SEG_STRIDE_KEYS(req->serial != 0);
    uint64_t groups = (req->n + per_group - 1) / per_group;
    groups = groups < max_segments ? groups : max_segments;
    return zs_plan_push_kernel(out, zs_seg_entry_kernel(req->key_bytes == 8, req->value_bytes,
                                                        ZS_SEG_SORT_RANGES),
                               groups, req->serial ? 1 : ZS_LANES, 15, a);
}

/* A small segmented sort: seg_check's step becomes one seg_sort_ranges
 * work-group that checks (against the plan's n) and sorts. */
static int plan_small_segments(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                               const zs_arg *seg, zs_buffer params, zs_plan *out)
{
    out->nsteps = 0;
    if (plan_sort_ranges(req, flags | ZS_SEG_F_CHECK, max_segments, seg, params, out))
        return -1;
    out->steps[0].groups = 1;
    return 0;
}

int zs_plan_segments_device(const zs_plan_request *req, uint32_t flags, uint32_t max_segments,
                            int check_only_status, zs_plan *out)
{
    memset(out, 0, sizeof *out);
    out->n = req->n;
    const int sorts = req->n > 0 && max_segments > 0;
    if (!sorts && !check_only_status)
        return 0;
    if (plan_segments_check(req, flags, max_segments, out) != 0) {
        zs_plan_free(out);
        return -1;
    }
    if (!sorts)
        return 0;
    zs_plan_data_buffers(req, out);
    /* params only for a device-side key count: [0] the count, [1] n (the
     * recording fills them, as for every plan); otherwise n is not read (the
     * offsets are checked against it) and the argument names SEG_STATUS */
    const int n_count = (flags & ZS_SEG_F_N_COUNT) != 0;
    out->buffer_bytes[ZS_BUF_PARAMS] = n_count ? 2 * sizeof(uint32_t) : 0;
    const zs_buffer params = n_count ? ZS_BUF_PARAMS : ZS_BUF_SEG_STATUS;
    zs_arg seg[4]; /* seg_check's: begins, ends, count, status */
    memcpy(seg, out->steps[0].args, sizeof seg);
    const uint32_t max_large = max_large_segments(req, max_segments);
    const uint32_t sort_flags = flags | (max_large ? ZS_SEG_F_SKIP_LARGE : 0u);
    if (req->small) { /* one launch: seg_sort_ranges checks the segments itself */
        if (plan_small_segments(req, flags, max_segments, seg, params, out) == 0)
            return 0;
    } else if (plan_sort_ranges(req, sort_flags, max_segments, seg, params, out) == 0 &&
        (!max_large ||
         plan_large_segments(req, flags, max_segments, max_large, seg, params, out) == 0))
        return 0;
    zs_plan_free(out);
    return -1;
}
