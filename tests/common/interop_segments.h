/*
 * interop_segments.h — the segmented sort of both interop APIs (issue 22:
 * zesort_ze_append_sort_segments, zesort_cl_enqueue_sort_segments), written
 * once: offsets in device memory, every offset pattern of segment_offsets.h,
 * every key type, u32 / u64 values and keys only, descending, bit ranges,
 * against a per-segment stable sort (segment_oracle.h); the keys and values
 * outside the segments compared byte for byte; bad offsets refused with
 * nothing written. The test program supplies the API as an
 * interop_segments_api and declares `static int failures;` (expect.h).
 */
#ifndef ZESORT_TESTS_INTEROP_SEGMENTS_H
#define ZESORT_TESTS_INTEROP_SEGMENTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "segment_offsets.h"
#include "segment_oracle.h"

/* One interop API; a buffer is a device pointer or a cl_mem. sort records /
 * enqueues the segmented sort and, when it succeeded, waits for it. */
typedef struct interop_segments_api {
    const char *name;
    void *(*alloc)(size_t bytes);
    void (*release)(void *buf);
    void (*upload)(void *buf, const void *src, size_t bytes);
    void (*download)(void *dst, void *buf, size_t bytes);
    zesort_status (*temp_bytes)(uint64_t n, int with_values, const zesort_options *o,
                                uint64_t *bytes);
    zesort_status (*sort)(void *keys, void *values, uint64_t n, void *offsets, uint64_t segments,
                          void *temp, uint64_t tb, const zesort_options *o);
    const char *(*error)(void);
    /* the same with a device-side count (a buffer holding one uint32; n is
     * then max_n), or NULL: for interop_rules.h's seg_indirect_cases */
    zesort_status (*sort_indirect)(void *keys, void *values, void *count, uint64_t max_n,
                                   void *offsets, uint64_t segments, void *temp, uint64_t tb,
                                   const zesort_options *o);
} interop_segments_api;

/* Device copies of one case's arrays. */
typedef struct seg_bufs {
    void *keys, *vals, *off, *temp;
    uint64_t tb;
} seg_bufs;

static seg_bufs seg_upload(const interop_segments_api *api, const char *keys, const char *vals,
                           const uint64_t *off, uint64_t s, uint64_t n, unsigned kb, unsigned vb,
                           const zesort_options *o)
{
    seg_bufs d = {0};
    EXPECT(api->temp_bytes(n, vb != 0, o, &d.tb) == ZESORT_OK, "%s: temp bytes: %s", api->name,
           api->error());
    const size_t kbytes = (size_t)(n ? n : 1) * kb, vbytes = (size_t)(n ? n : 1) * (vb ? vb : 4);
    d.keys = api->alloc(kbytes), d.vals = api->alloc(vbytes);
    d.off = api->alloc((s + 1) * 8), d.temp = api->alloc(d.tb ? d.tb : 8);
    api->upload(d.keys, keys, kbytes);
    if (vb)
        api->upload(d.vals, vals, vbytes);
    api->upload(d.off, off, (s + 1) * 8);
    return d;
}

static void seg_release(const interop_segments_api *api, seg_bufs *d)
{
    api->release(d->keys), api->release(d->vals), api->release(d->off), api->release(d->temp);
}

/* One case: pattern pat over n keys of type t, values of vb bytes (0: none). */
static void seg_case(const interop_segments_api *api, uint64_t n, zesort_key_type t, int desc,
                     unsigned lo, unsigned hi, unsigned vb, int pat)
{
    const unsigned kb = oracle_key_bytes(t);
    char what[200];
    snprintf(what, sizeof what, "%s segments: n %llu type %d desc %d bits %u:%u vb %u pattern %d",
             api->name, (unsigned long long)n, (int)t, desc, lo, hi, vb, pat);
    zesort_options o;
    zesort_options_default(&o);
    o.key_type = t, o.descending = desc, o.bit_lo = lo, o.bit_hi = hi;
    o.value_type = vb == 8 ? ZESORT_VALUE_U64 : ZESORT_VALUE_U32;
    const size_t cap = n ? n : 1;
    char *keys = malloc(cap * kb), *vals = malloc(cap * 8), *out_k = malloc(cap * kb),
         *out_v = malloc(cap * 8);
    uint64_t *off = malloc((n + 8) * sizeof *off);
    oracle_make_keys(keys, n, t, pat % 3, n * 7 + (uint64_t)pat);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t v = oracle_value(i, vb ? vb : 4);
        memcpy(vals + i * vb, &v, vb);
    }
    const uint64_t s = make_offsets(pat, n, off, n + (uint64_t)t);
    seg_bufs d = seg_upload(api, keys, vals, off, s, n, kb, vb, &o);
    zesort_status st = api->sort(d.keys, vb ? d.vals : NULL, n, d.off, s, d.temp, d.tb, &o);
    EXPECT(st == ZESORT_OK, "%s: %s", what, api->error());
    api->download(out_k, d.keys, cap * kb);
    if (vb)
        api->download(out_v, d.vals, cap * vb);
    char why[200];
    const char *wrong = segments_verify(keys, out_k, vb ? out_v : NULL, off, s, n, kb, vb, &o,
                                        st != ZESORT_OK, why, sizeof why);
    EXPECT(!wrong, "%s: %s", what, wrong);
    seg_release(api, &d);
    free(keys), free(vals), free(out_k), free(out_v), free(off);
}

/* Bad offsets: INVALID_ARGUMENT naming the offsets, keys and values unchanged. */
static void seg_refused(const interop_segments_api *api, const uint64_t *off, uint64_t s,
                        uint64_t n, const char *what)
{
    uint32_t keys[8] = {9, 8, 7, 6, 5, 4, 3, 2}, vals[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k[8], v[8];
    zesort_options o;
    zesort_options_default(&o);
    seg_bufs d = seg_upload(api, (const char *)keys, (const char *)vals, off, s, 8, 4, 4, &o);
    EXPECT(api->sort(d.keys, d.vals, n, d.off, s, d.temp, d.tb, &o) ==
               ZESORT_ERROR_INVALID_ARGUMENT, "%s: %s accepted", api->name, what);
    EXPECT(strstr(api->error(), "offsets") != NULL, "%s: %s: message '%s'", api->name, what,
           api->error());
    api->download(k, d.keys, sizeof k);
    api->download(v, d.vals, sizeof v);
    EXPECT(memcmp(k, keys, sizeof k) == 0 && memcmp(v, vals, sizeof v) == 0,
           "%s: %s: arrays changed", api->name, what);
    seg_release(api, &d);
}

/* A refusal's message (issue 33, defect 9): INVALID_ARGUMENT, the message
 * holding `want` and not `not`. */
static void seg_message(const interop_segments_api *api, zesort_status st, const char *want,
                        const char *not, const char *what)
{
    const char *msg = api->error();
    EXPECT(st == ZESORT_ERROR_INVALID_ARGUMENT && strstr(msg, want) && !strstr(msg, not),
           "%s: %s: %s: message '%s' (wanted '%s', not '%s')", api->name, what,
           zesort_status_name(st), msg, want, not);
}

/* The refusals name what is wrong: the in-place keys and values as "keys"
 * and "values" (not "keys_out"), an offsets buffer too small for its
 * segments, the function refusing 2^32 - 1 segments. */
static void seg_messages(const interop_segments_api *api)
{
    const uint64_t n = 1000, off[] = {0, 400, n};
    zesort_options o;
    zesort_options_default(&o);
    uint64_t tb = 0;
    EXPECT(api->temp_bytes(n, 1, &o, &tb) == ZESORT_OK, "%s: temp bytes", api->name);
    void *keys = api->alloc(n * 4), *half = api->alloc(n * 2), *vals = api->alloc(n * 4);
    void *offs = api->alloc(sizeof off), *short_offs = api->alloc(16), *temp = api->alloc(tb);
    api->upload(offs, off, sizeof off);
    api->upload(short_offs, off, 16);
    seg_message(api, api->sort(half, vals, n, offs, 2, temp, tb, &o), "keys", "keys_out",
                "keys of half the bytes");
    seg_message(api, api->sort(keys, half, n, offs, 2, temp, tb, &o), "values", "values_out",
                "values of half the bytes");
    seg_message(api, api->sort(keys, vals, n, short_offs, 2, temp, tb, &o), "offsets",
                "keys need", "offsets of 16 bytes for 2 segments");
    seg_message(api, api->sort(keys, vals, n, offs, UINT32_MAX, temp, tb, &o),
                "zesort_", "\n", "2^32 - 1 segments");
    api->release(keys), api->release(half), api->release(vals), api->release(offs);
    api->release(short_offs), api->release(temp);
}

/* The whole matrix, then the refusals. Sizes: windows and work-groups cut
 * across (4096-key windows of the sg and portable flavors), a giant segment
 * sorted by one work-group (70001 keys: PAT_ONE and PAT_GIANT). */
static void interop_segments(const interop_segments_api *api)
{
    static const uint64_t sizes[] = {0, 1, 2, 1000, 9000, 70001};
    int k = 0;
    for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int pat = 0; pat < PAT_COUNT; pat++, k++) {
            const zesort_key_type t = (zesort_key_type)(k % 6);
            const unsigned bits = oracle_key_bytes(t) * 8, vb = (unsigned)(k % 3) * 4;
            const int narrow = k % 4 == 1;
            seg_case(api, sizes[si], t, k % 5 == 2, narrow ? 3 : 0, narrow ? bits - 5 : bits, vb,
                     pat);
        }
    const uint64_t decreasing[] = {0, 5, 3, 8}, beyond[] = {0, 4, 9}, late[] = {9, 9};
    seg_refused(api, decreasing, 3, 8, "decreasing offsets");
    seg_refused(api, beyond, 2, 8, "offsets beyond n");
    seg_refused(api, late, 1, 8, "offsets[0] beyond n");
    seg_messages(api);
    printf("%s segments: %d cases, %d failures\n", api->name, k, failures);
}

#endif
